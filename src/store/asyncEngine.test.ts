import { describe, expect, it } from 'vitest';
import { generatedCluster } from '../model/scenario/generated';
import { createWorkerEngine } from '../worker/client';
import { run, goToStory, last, togglePolicy, pinChoice } from './commands';
import { applyImported } from './importScenario';
import { selectModelPending, selectStepCount, selectTrace } from './selectors';
import { createAppStore } from './store';
import type { AppStore } from './types';

/**
 * The store with an asynchronous engine (the worker's handler, here in this thread: Node has
 * no `Worker`) comes out where the in-process store does once each answer has landed: the
 * same scene, trace, step (the step policies applied on landing), walkthrough step and node.
 */

/** Resolves when the answer for the store's current state is on screen. */
async function landed(store: AppStore): Promise<void> {
  for (let i = 0; i < 10_000 && selectModelPending(store.getState()); i++)
    await new Promise((r) => setTimeout(r, 0));
  expect(selectModelPending(store.getState())).toBe(false);
}

function view(store: AppStore) {
  const s = store.getState();
  return {
    scene: s.scene,
    step: s.playback.stepIndex,
    story: s.ui.walkthroughStep,
    node: s.ui.selectedNode,
    trace: selectTrace(s),
  };
}

describe('an async engine', () => {
  const engine = createWorkerEngine();

  it('opens on the walkthrough’s first step as the in-process store does', async () => {
    const sync = createAppStore({ story: 0 });
    const store = createAppStore({ story: 0, engine });
    expect(selectModelPending(store.getState())).toBe(true);
    await landed(store);
    expect(view(store)).toEqual(view(sync));
  });

  it('applies step policies and story steps when the answer lands', async () => {
    const sync = createAppStore({ story: 0 });
    const store = createAppStore({ story: 0, engine });
    await landed(store);
    for (const c of [goToStory(4), last, togglePolicy, pinChoice('endpoint', '10.244.3.9:8080')]) {
      run(sync, c);
      run(store, c);
      await landed(store);
      expect(view(store)).toEqual(view(sync));
    }
    // At the last step, a toggle ('ends') keeps it on the new last step.
    run(sync, last);
    run(store, last);
    run(sync, togglePolicy);
    run(store, togglePolicy);
    await landed(store);
    expect(store.getState().playback.stepIndex).toBe(selectStepCount(store.getState()) - 1);
    expect(view(store)).toEqual(view(sync));
  });

  it('drops superseded answers: a burst of toggles lands the last one only', async () => {
    const store = createAppStore({ story: 0, engine });
    await landed(store);
    const seen: unknown[] = [];
    store.subscribe((s, prev) => {
      if (s.model.scene !== prev.model.scene) seen.push(s.model.scene);
    });
    for (let i = 0; i < 5; i++) run(store, togglePolicy);
    await landed(store);
    const scene = store.getState().scene;
    expect(scene.externalTrafficPolicy).toBe('Local');
    // Every answer that landed was for the scene on screen at the time: only the last.
    expect(seen.filter((x) => x !== scene)).toEqual([]);
  });

  it('imports a cluster: its first node is selected once the answer lands', async () => {
    const objects = generatedCluster({ nodes: 5, pods: 12 });
    const sync = createAppStore();
    const store = createAppStore({ engine });
    await landed(store);
    expect(applyImported(sync, objects)).toEqual({ ok: true });
    expect(applyImported(store, objects)).toEqual({ ok: true });
    await landed(store);
    expect(view(store)).toEqual(view(sync));
    expect(store.getState().ui.selectedNode).toBe('node-1');
    // The selected node's rules come with the answer; another node's on request.
    const d = store.getState().model.derived;
    expect(d.ok && Object.keys(d.result.rules)).toContain('node-1');
  });
});
