import { describe, expect, it } from 'vitest';
import { createWorkerEngine } from '../worker/client';
import type { AsyncEngine } from './engine';
import { firstAnswer } from './firstAnswer';
import { selectModelPending, selectTrace } from './selectors';
import { createAppStore } from './store';

/** An engine that never answers (a worker still busy with a huge cluster). */
const silent: AsyncEngine = { kind: 'async', channel: () => ({ scene() {}, rules() {} }) };

describe('firstAnswer', () => {
  it('resolves with the answer on the store (the worker’s handler, in this thread)', async () => {
    const store = createAppStore({ story: 0, engine: createWorkerEngine() });
    expect(selectModelPending(store.getState())).toBe(true);
    await firstAnswer(store, 60_000);
    expect(selectModelPending(store.getState())).toBe(false);
    // The canonical scene (externalTrafficPolicy Cluster, a ready Pod): the connection reaches a Pod.
    expect(selectTrace(store.getState())?.outcome.kind).toBe('delivered');
  });

  it('resolves at once with a sync engine', async () => {
    const store = createAppStore({ story: 0 });
    await firstAnswer(store, 60_000);
    expect(selectModelPending(store.getState())).toBe(false);
  });

  it('does not wait longer than its limit for an answer that does not come', async () => {
    const store = createAppStore({ story: 0, engine: silent });
    await firstAnswer(store, 10);
    expect(selectModelPending(store.getState())).toBe(true);
  });
});
