/**
 * The one playback scheduler: while `playing`, it advances `stepIndex` every
 * `stepInterval(speed)` ms and stops at the last step. It listens to the store, so any change
 * to playback (a step, a pause, a speed) re-arms it, and so does a model answer landing (while
 * a newer trace is computed it waits for it). Timers are injectable for tests.
 */
import type { AppStore } from '../store/types';
import { selectModelPending, selectStepCount } from '../store/selectors';
import { stepInterval } from './motion';

export interface ClockTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: ClockTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Starts the clock; returns a function that stops it. */
export function startPlaybackClock(store: AppStore, timers: ClockTimers = realTimers): () => void {
  let handle: unknown;
  const disarm = () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  const arm = () => {
    disarm();
    const s = store.getState();
    if (!s.playback.playing) return;
    // A newer trace is being computed: play it when it lands, not the one on screen.
    if (selectModelPending(s)) return;
    if (s.playback.stepIndex >= selectStepCount(s) - 1) {
      s.setPlaying(false);
      return;
    }
    handle = timers.setTimeout(() => {
      handle = undefined;
      const now = store.getState();
      now.setStepIndex(now.playback.stepIndex + 1);
    }, stepInterval(s.playback.speed));
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.playback !== prev.playback || s.model !== prev.model) arm();
  });
  arm();
  return () => {
    unsubscribe();
    disarm();
  };
}
