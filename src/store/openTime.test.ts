/**
 * `openTime`: the time view's inputs replaced as a whole (what a tutorial time link does), the
 * clock paused where the link says, the "Open as trace" source let go, `revision` bumped so the
 * view's forms start again from the store.
 */
import { describe, expect, it } from 'vitest';
import { createAppStore } from './store';
import { INITIAL_TIME } from './timelineSlice';

describe('openTime', () => {
  it('shows the time view with exactly the given inputs and the clock paused there', () => {
    const store = createAppStore();
    const s = store.getState();
    s.addEvent({ at: 5_000, kind: 'drain-node', node: 'node-2' });
    s.setHealthCheck({ timeoutSeconds: 2 });
    s.setTimePlaying(true);
    s.setTimeSource({
      objects: s.objects,
      scene: s.scene,
      openedObjects: s.objects,
      openedScene: s.scene,
    });
    const workload = { ...INITIAL_TIME.workload, count: 5000 };
    s.openTime({
      controller: 'metallb-l2',
      healthCheck: { intervalSeconds: 3 },
      events: [
        { at: 150_000, kind: 'restore-node', node: 'node-1' },
        { at: 60_000, kind: 'fail-node', node: 'node-1' },
        { at: 60_000, kind: 'drain-node', node: 'node-3' },
      ],
      workload,
      simMs: 90_000.4,
    });
    const t = store.getState().time;
    expect(t.view).toBe('time');
    expect(t.playing).toBe(false);
    expect(t.simMs).toBe(90_000);
    expect(t.controller).toBe('metallb-l2');
    // Replaced, not merged: the earlier override and event are gone.
    expect(t.healthCheck).toEqual({ intervalSeconds: 3 });
    expect(t.events.map((e) => `${e.kind}@${e.at}`)).toEqual([
      'fail-node@60000',
      'drain-node@60000',
      'restore-node@150000',
    ]);
    expect(t.workload).toEqual(workload);
    expect(t.source).toBeNull();
    expect(t.revision).toBe(INITIAL_TIME.revision + 1);
    s.openTime({ ...t, simMs: -5 });
    expect(store.getState().time.simMs).toBe(0);
    expect(store.getState().time.revision).toBe(INITIAL_TIME.revision + 2);
  });
});
