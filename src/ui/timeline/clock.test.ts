import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../store';
import { GLIDE_TICK_MS, JUMP_TICK_MS, startTimeClock } from './clock';
import type { TimeClockTimers } from './clock';
import { seek, shiftTimeSpeed, stepEvent, togglePlay } from './commands';
import { entryTimes, nextTime, prevTime } from '../../store/timelineDerive';
import { rotationAt, rotationSpans } from './lanes';

/** Timers that run only when told, with a clock the test moves. */
function fakeTimers() {
  let now = 0;
  let queue: { fn: () => void; at: number; id: number }[] = [];
  let id = 0;
  const timers: TimeClockTimers = {
    setTimeout: (fn, ms) => {
      queue.push({ fn, at: now + ms, id: ++id });
      return id;
    },
    clearTimeout: (h) => {
      queue = queue.filter((t) => t.id !== h);
    },
    now: () => now,
  };
  /** Moves the clock by `ms`, running every timer that falls due on the way. */
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = queue.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      queue = queue.filter((t) => t !== due);
      now = due.at;
      due.fn();
    }
    now = end;
  };
  return { timers, advance, pending: () => queue.length };
}

describe('the virtual clock', () => {
  it('advances speed simulated seconds per real second and stops at the end', () => {
    const store = createAppStore();
    const t = fakeTimers();
    store.getState().setTimeSpeed(20);
    const stop = startTimeClock(store, {
      horizonMs: () => 60_000,
      reducedMotion: () => false,
      timers: t.timers,
    });
    togglePlay(store, 60_000);
    t.advance(GLIDE_TICK_MS * 30); // 0.99 real seconds at 20× = 19.8 simulated seconds
    expect(store.getState().time.simMs).toBe(19_800);
    t.advance(5_000);
    expect(store.getState().time.simMs).toBe(60_000);
    expect(store.getState().time.playing).toBe(false);
    expect(t.pending()).toBe(0);
    stop();
  });

  it('jumps a whole `speed` seconds once a second under reduced motion', () => {
    const store = createAppStore();
    const t = fakeTimers();
    store.getState().setTimeSpeed(5);
    startTimeClock(store, { horizonMs: () => 60_000, reducedMotion: () => true, timers: t.timers });
    togglePlay(store, 60_000);
    t.advance(JUMP_TICK_MS - 1);
    expect(store.getState().time.simMs).toBe(0);
    t.advance(1);
    expect(store.getState().time.simMs).toBe(5_000);
    t.advance(JUMP_TICK_MS * 2);
    expect(store.getState().time.simMs).toBe(15_000);
  });

  it('pauses on a seek and restarts from 0 when played at the end', () => {
    const store = createAppStore();
    const t = fakeTimers();
    startTimeClock(store, {
      horizonMs: () => 10_000,
      reducedMotion: () => false,
      timers: t.timers,
    });
    togglePlay(store, 10_000);
    seek(store, 10_000, 10_000);
    expect(store.getState().time).toMatchObject({ simMs: 10_000, playing: false });
    togglePlay(store, 10_000);
    expect(store.getState().time).toMatchObject({ simMs: 0, playing: true });
  });

  it('steps between the times of entries and changes speed within 1×…60×', () => {
    const store = createAppStore();
    const times = [0, 200, 30_200, 35_200];
    expect(stepEvent(store, times, 1, 60_000)).toBe(true);
    expect(store.getState().time.simMs).toBe(200);
    stepEvent(store, times, 1, 60_000);
    expect(store.getState().time.simMs).toBe(30_200);
    stepEvent(store, times, -1, 60_000);
    expect(store.getState().time.simMs).toBe(200);
    expect(nextTime(times, 35_200)).toBeUndefined();
    expect(prevTime(times, 0)).toBeUndefined();
    store.getState().setTimeSpeed(60);
    shiftTimeSpeed(store, 1);
    expect(store.getState().time.speed).toBe(60);
    shiftTimeSpeed(store, -1);
    expect(store.getState().time.speed).toBe(20);
  });
});

describe('the time slice', () => {
  it('keeps scheduled events sorted by time, stable for equal times, and removes by index', () => {
    const store = createAppStore();
    const s = store.getState();
    s.addEvent({ at: 30_000, kind: 'fail-node', node: 'node-1' });
    s.addEvent({ at: 10_000, kind: 'scale', replicas: 3 });
    s.addEvent({ at: 30_000, kind: 'restore-node', node: 'node-1' });
    const kinds = () => store.getState().time.events.map((e) => `${e.at}:${e.kind}`);
    expect(kinds()).toEqual(['10000:scale', '30000:fail-node', '30000:restore-node']);
    s.removeEvent(1);
    expect(kinds()).toEqual(['10000:scale', '30000:restore-node']);
  });

  it('leaving the time view pauses its clock; a new controller starts the run again', () => {
    const store = createAppStore();
    const s = store.getState();
    s.setView('time');
    s.setSimMs(12_345.6);
    s.setTimePlaying(true);
    expect(store.getState().time).toMatchObject({ view: 'time', simMs: 12_346, playing: true });
    s.setView('trace');
    expect(store.getState().time.playing).toBe(false);
    s.setController('none');
    expect(store.getState().time).toMatchObject({ controller: 'none', simMs: 0 });
  });
});

describe('rotation spans', () => {
  const changes = [
    { at: 35_200, node: 'node-1', inRotation: true, reason: 'registered' },
    { at: 35_200, node: 'node-2', inRotation: true, reason: 'registered' },
    { at: 90_000, node: 'node-1', inRotation: false, reason: '3 consecutive failed probes' },
  ];

  it('splits a lane into not-a-target, in and out of rotation', () => {
    expect(rotationSpans(changes, 'node-1', 120_000)).toEqual([
      {
        from: 0,
        to: 35_200,
        state: 'unregistered',
        reason: 'not a target of the load balancer yet',
      },
      { from: 35_200, to: 90_000, state: 'in', reason: 'registered' },
      { from: 90_000, to: 120_000, state: 'out', reason: '3 consecutive failed probes' },
    ]);
    expect(rotationAt(changes, 'node-1', 89_999)).toBe('in');
    expect(rotationAt(changes, 'node-1', 90_000)).toBe('out');
    expect(rotationAt(changes, 'node-2', 0)).toBe('unregistered');
  });

  it('lists the distinct times of entries', () => {
    const entries = [0, 0, 200, 200, 30_200].map((at, seq) => ({
      at,
      seq,
      kind: 'note' as const,
      actor: 'user' as const,
      message: '',
    }));
    expect(entryTimes({ entries } as never)).toEqual([0, 200, 30_200]);
  });
});
