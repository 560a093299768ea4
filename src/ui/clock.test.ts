import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/store';
import { selectStepCount } from '../store/selectors';
import { startPlaybackClock, type ClockTimers } from './clock';
import { stepDuration, stepInterval } from './motion';

/** Virtual time: timers fire only when the test says so. */
function virtualTimers() {
  let pending: { fn: () => void; ms: number } | undefined;
  const timers: ClockTimers = {
    setTimeout: (fn, ms) => (pending = { fn, ms }),
    clearTimeout: () => (pending = undefined),
  };
  return {
    timers,
    pendingMs: () => pending?.ms,
    tick: () => {
      const p = pending;
      pending = undefined;
      p?.fn();
    },
  };
}

describe('the playback clock', () => {
  it('advances one step per interval while playing and stops at the end', () => {
    const store = createAppStore();
    const v = virtualTimers();
    const stop = startPlaybackClock(store, v.timers);
    expect(v.pendingMs()).toBeUndefined();
    store.getState().setPlaying(true);
    expect(v.pendingMs()).toBe(stepInterval(1));
    v.tick();
    expect(store.getState().playback.stepIndex).toBe(0);
    const n = selectStepCount(store.getState());
    for (let i = 1; i < n; i++) v.tick();
    expect(store.getState().playback).toMatchObject({ stepIndex: n - 1, playing: false });
    expect(v.pendingMs()).toBeUndefined();
    stop();
  });

  it('re-arms at the new speed and disarms on pause', () => {
    const store = createAppStore();
    const v = virtualTimers();
    const stop = startPlaybackClock(store, v.timers);
    store.getState().setPlaying(true);
    store.getState().setSpeed(4);
    expect(v.pendingMs()).toBe(stepInterval(4));
    store.getState().setPlaying(false);
    expect(v.pendingMs()).toBeUndefined();
    stop();
  });
});

describe('motion durations', () => {
  it('come from one place and are 0 (jump) under reduced motion', () => {
    expect(stepInterval(1)).toBe(1400);
    expect(stepInterval(2)).toBe(700);
    expect(stepDuration(1, true)).toBe(0);
    expect(stepDuration(1, false)).toBeGreaterThan(0);
    expect(stepDuration(2, false)).toBeLessThan(stepDuration(1, false));
    expect(stepDuration(1, false)).toBeLessThan(stepInterval(1));
  });
});
