/**
 * The time view's one scheduler. While `time.playing`, it advances the virtual clock
 * (`time.simMs`) by `speed` simulated seconds per real second and stops at the end of the run.
 * The clock is only a number: the model decides what is true at that number.
 *
 * With reduced motion it jumps once a second (by `speed` seconds) instead of gliding; tests
 * inject timers and a `now` so nothing depends on a wall clock.
 */
import type { AppStore } from '../../store/types';

/** The timers the clock uses (injectable for tests). */
export interface TimeClockTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** A monotonic clock in real milliseconds (`performance.now`). */
  now: () => number;
}

const realTimers: TimeClockTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => globalThis.performance.now(),
};

/** Real ms between two ticks while gliding (about 30 frames a second). */
export const GLIDE_TICK_MS = 33;
/** Real ms between two jumps under reduced motion. */
export const JUMP_TICK_MS = 1000;

/** What the clock reads on every tick. */
export interface TimeClockOptions {
  /** The end of the run in simulated ms (read on every tick: the timeline may change). */
  horizonMs: () => number;
  /** Whether to jump (reduced motion) rather than glide. */
  reducedMotion: () => boolean;
  timers?: TimeClockTimers;
}

/** Starts the clock; returns a function that stops it. */
export function startTimeClock(store: AppStore, options: TimeClockOptions): () => void {
  const timers = options.timers ?? realTimers;
  let handle: unknown;
  let last = 0;
  const disarm = () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  const tick = () => {
    handle = undefined;
    const s = store.getState();
    if (!s.time.playing) return;
    const now = timers.now();
    const jump = options.reducedMotion();
    // A jump always moves a whole `speed` seconds, whatever the timer's lateness.
    const real = jump ? JUMP_TICK_MS : now - last;
    last = now;
    const horizon = options.horizonMs();
    const next = Math.min(horizon, s.time.simMs + real * s.time.speed);
    s.setSimMs(next);
    if (next >= horizon) s.setTimePlaying(false);
    else schedule();
  };
  const schedule = () => {
    handle = timers.setTimeout(tick, options.reducedMotion() ? JUMP_TICK_MS : GLIDE_TICK_MS);
  };
  const arm = () => {
    disarm();
    const s = store.getState();
    if (!s.time.playing) return;
    if (s.time.simMs >= options.horizonMs()) {
      s.setTimePlaying(false);
      return;
    }
    last = timers.now();
    schedule();
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.time.playing !== prev.time.playing || s.time.speed !== prev.time.speed) arm();
  });
  arm();
  return () => {
    unsubscribe();
    disarm();
  };
}
