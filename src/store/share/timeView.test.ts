/**
 * The "Time & failures" view in a link and the saved view (review rev-time finding 5): its
 * inputs and clock survive store → link → new store; every field is checked and bounded.
 */
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE } from '../../model';
import { MAX_SIM_MS, DEFAULT_HEALTH_CHECK } from '../../model/time';
import { createAppStore } from '../store';
import { boot } from './boot';
import { HASH_PREFIX, decodeState, encodeState } from './link';
import type { SharedTime } from './link';
import { STORAGE_KEY, saveView } from './persist';
import type { StorageLike } from './persist';
import { openView, snapshot, storeForView } from './view';

const pack = (value: unknown) =>
  HASH_PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(value));

const TIME: SharedTime = {
  view: 'time',
  controller: 'metallb-l2',
  events: [
    { at: 30_000, kind: 'fail-node', node: 'node-1' },
    { at: 45_000, kind: 'scale-down-node', node: 'node-3' },
    { at: 60_000, kind: 'kill-pod', pod: 'default/web-6d8f9c7b5-q7m9z' },
    { at: 70_000, kind: 'scale', replicas: 4 },
    { at: 80_000, kind: 'set-policy', policy: 'Local' },
  ],
  healthCheck: { intervalSeconds: 5, unhealthyThreshold: 2, clusterTarget: 'nodePort' },
  workload: { count: 5000, periodMs: 90_000, holdMs: 10_000, seed: 9, client: 'internet' },
  simMs: 73_250,
};

const view = (time: unknown): unknown => ({
  v: 1,
  scene: DEFAULT_SCENE,
  step: -1,
  story: null,
  time,
});

function reason(value: unknown): string {
  const r = decodeState(pack(value));
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.state)}`);
  return r.reason;
}

function fakeStorage(): StorageLike {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('the time view in a link', () => {
  it('a store on the time view → link → new store: the same view, inputs and clock', () => {
    const a = createAppStore();
    const s = a.getState();
    s.setView('time');
    s.setController(TIME.controller);
    for (const e of TIME.events) s.addEvent(e);
    s.setHealthCheck(TIME.healthCheck);
    s.setWorkload(TIME.workload);
    s.setSimMs(TIME.simMs);
    const shared = snapshot(a.getState());
    expect(shared.time).toEqual(TIME);
    const decoded = decodeState(encodeState(shared));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.state.time).toEqual(TIME);
    const b = storeForView(decoded.state).getState().time;
    expect([b.view, b.controller, b.events, b.healthCheck, b.workload, b.simMs]).toEqual([
      'time',
      TIME.controller,
      TIME.events,
      TIME.healthCheck,
      TIME.workload,
      TIME.simMs,
    ]);
  });

  it('the trace view has no time part, and opening one leaves the time view', () => {
    const store = createAppStore();
    expect(snapshot(store.getState()).time).toBeUndefined();
    store.getState().setView('time');
    openView(store, { v: 1, scene: DEFAULT_SCENE, step: -1, story: null });
    expect(store.getState().time.view).toBe('trace');
  });

  it('while the clock runs, the link holds whole seconds (it changes once a second)', () => {
    const store = createAppStore();
    store.getState().setView('time');
    store.getState().setSimMs(12_345);
    expect(snapshot(store.getState()).time?.simMs).toBe(12_345);
    store.getState().setTimePlaying(true);
    expect(snapshot(store.getState()).time?.simMs).toBe(12_000);
  });

  it('a reload reopens it: the saved view holds the time part', () => {
    const store = createAppStore();
    store.getState().setView('time');
    store.getState().addEvent(TIME.events[0]!);
    const storage = fakeStorage();
    expect(saveView(storage, snapshot(store.getState()))).toBe(true);
    expect(storage.getItem(STORAGE_KEY)).toContain('"view":"time"');
    const b = boot('', storage);
    expect(b.source).toBe('saved');
    expect(b.store.getState().time).toMatchObject({ view: 'time', events: [TIME.events[0]] });
  });

  it('every field is checked and bounded, with its path', () => {
    const withTime = (patch: Record<string, unknown>) => view({ ...TIME, ...patch });
    expect(reason(withTime({ view: 'trace' }))).toBe('time.view must be one of time');
    expect(reason(withTime({ controller: 'aws' }))).toContain('time.controller must be one of');
    expect(reason(withTime({ simMs: MAX_SIM_MS + 1 }))).toBe(
      `time.simMs must be between 0 and ${MAX_SIM_MS}`,
    );
    expect(reason(withTime({ simMs: 1.5 }))).toBe('time.simMs must be a whole number');
    expect(reason(withTime({ extra: 1 }))).toBe('time has an unknown field "extra"');
    expect(reason(withTime({ events: {} }))).toBe('time.events must be a list');
    expect(reason(withTime({ events: Array.from({ length: 1001 }, () => TIME.events[0]) }))).toBe(
      'time.events has more than 1,000 entries, the most one run of the time model may hold',
    );
    expect(reason(withTime({ events: [{ at: -1, kind: 'fail-node', node: 'n' }] }))).toBe(
      `time.events[0].at must be between 0 and ${MAX_SIM_MS}`,
    );
    expect(reason(withTime({ events: [{ at: 1, kind: 'explode', node: 'n' }] }))).toContain(
      'time.events[0].kind must be one of',
    );
    expect(reason(withTime({ events: [{ at: 1, kind: 'fail-node', pod: 'p' }] }))).toBe(
      'time.events[0] has an unknown field "pod"',
    );
    expect(reason(withTime({ events: [{ at: 1, kind: 'scale', replicas: '3' }] }))).toBe(
      'time.events[0].replicas must be a whole number',
    );
    expect(reason(withTime({ events: [{ at: 1, kind: 'scale', replicas: 101 }] }))).toBe(
      'time.events[0].replicas must be between 0 and 100',
    );
    expect(reason(withTime({ healthCheck: { intervalSeconds: 0 } }))).toBe(
      'time.healthCheck.intervalSeconds must be between 1 and 300',
    );
    expect(reason(withTime({ healthCheck: { intervalSecond: 5 } }))).toBe(
      'time.healthCheck has an unknown field "intervalSecond"',
    );
    expect(reason(withTime({ healthCheck: { clusterTarget: 'tcp' } }))).toContain(
      'time.healthCheck.clusterTarget must be one of healthz, nodePort',
    );
    expect(reason(withTime({ workload: { ...TIME.workload, count: 100_001 } }))).toBe(
      'time.workload.count must be between 1 and 100000',
    );
    expect(reason(withTime({ workload: { ...TIME.workload, client: '' } }))).toContain(
      'time.workload.client must be 1 to 253 characters long',
    );
    expect(reason(withTime({ workload: { count: 1 } }))).toBe(
      'time.workload.periodMs must be a whole number',
    );
  });

  it('settings the model refuses together still open (the view then shows why, editable)', () => {
    // Each is in range; together the timeout is longer than the interval.
    const decoded = decodeState(
      pack(view({ ...TIME, healthCheck: { intervalSeconds: 2, timeoutSeconds: 5 } })),
    );
    expect(decoded.ok).toBe(true);
    expect(DEFAULT_HEALTH_CHECK.timeoutSeconds).toBeLessThanOrEqual(
      DEFAULT_HEALTH_CHECK.intervalSeconds,
    );
  });
});
