/**
 * The time view's commands, shared by its buttons, its keys and the tests: play/pause the
 * virtual clock, step to the previous/next entry, go to the start/end, change speed, and
 * schedule a change now. Each takes the store and what it needs of the derived timeline.
 */
import type { SimMs, TimelineEvent } from '../../model/time/types';
import { TIME_SPEEDS } from '../../store';
import type { AppStore, TimeSpeed } from '../../store/types';
import { nextTime, prevTime } from '../../store/timelineDerive';

/** Plays or pauses; playing from the end starts again from 0. */
export function togglePlay(store: AppStore, horizonMs: SimMs): void {
  const s = store.getState();
  if (s.time.playing) return s.setTimePlaying(false);
  if (s.time.simMs >= horizonMs) s.setSimMs(0);
  s.setTimePlaying(true);
}

/** Moves the clock (pausing it) to `ms`, clamped to the run. */
export function seek(store: AppStore, ms: SimMs, horizonMs: SimMs): void {
  const s = store.getState();
  s.setTimePlaying(false);
  s.setSimMs(Math.max(0, Math.min(horizonMs, ms)));
}

/** To the next (`1`) or previous (`-1`) time something happened; returns whether it moved. */
export function stepEvent(
  store: AppStore,
  times: readonly SimMs[],
  direction: 1 | -1,
  horizonMs: SimMs,
): boolean {
  const now = store.getState().time.simMs;
  const to = direction > 0 ? nextTime(times, now) : prevTime(times, now);
  if (to === undefined) return false;
  seek(store, to, horizonMs);
  return true;
}

/** One speed faster (`1`) or slower (`-1`), within {@link TIME_SPEEDS}. */
export function shiftTimeSpeed(store: AppStore, by: 1 | -1): void {
  const s = store.getState();
  const i = TIME_SPEEDS.indexOf(s.time.speed) + by;
  const speed: TimeSpeed | undefined =
    TIME_SPEEDS[Math.max(0, Math.min(TIME_SPEEDS.length - 1, i))];
  if (speed !== undefined) s.setTimeSpeed(speed);
}

/** Schedules `event` (its `at` in ms) and keeps the clock where it is. */
export function schedule(store: AppStore, event: TimelineEvent): void {
  store.getState().addEvent(event);
}

/** Fails or restores `node` at the current time, as the topology's node buttons do here. */
export function toggleNodeNow(store: AppStore, node: string, failedNow: boolean): void {
  const at = store.getState().time.simMs;
  schedule(store, { at, kind: failedNow ? 'restore-node' : 'fail-node', node });
}
