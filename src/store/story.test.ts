/**
 * The walkthrough's commands on the cluster on screen: the steps are bound to the objects
 * (selectStory, memoised on their reference), Next / Previous skip a step that does not apply,
 * the canonical story is what it always was, and the "What next" actions do what they say.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH } from '../model';
import type { ScenarioObject } from '../model';
import { loadObjects } from '../model/import/load';
import { fillGaps } from '../model/import/fill';
import { generatedCluster } from '../model/scenario/generated';
import {
  failStoryNode,
  goToStory,
  nextStory,
  prevStory,
  run,
  toggleNodeFailure,
  tryStoryLocal,
} from './commands';
import { applyImported } from './importScenario';
import {
  selectStory,
  selectStoryEnded,
  selectStoryFocus,
  selectStoryStep,
  selectTrace,
} from './selectors';
import { createAppStore } from './store';
import type { AppStore } from './types';

function example(file: string): ScenarioObject[] {
  return fillGaps(loadObjects(readFileSync(`public/examples/${file}`, 'utf8')).objects).objects;
}

function imported(objects: ScenarioObject[]): AppStore {
  const store = createAppStore({ story: 0 });
  expect(applyImported(store, objects)).toEqual({ ok: true });
  return store;
}

const at = (store: AppStore) => store.getState().ui.walkthroughStep;

describe('the canonical story', () => {
  it('opens each step with the literal scene, as before', () => {
    const store = createAppStore({ story: 0 });
    DEFAULT_WALKTHROUGH.steps.forEach((step, i) => {
      if (i > 0) expect(run(store, nextStory)).toBe(true);
      expect(at(store)).toBe(i);
      expect(store.getState().scene).toEqual({ ...DEFAULT_SCENE, ...step.scene });
      expect(selectStoryFocus(store.getState())).toEqual(step.focus);
    });
    expect(nextStory.enabled(store)).toBe(false);
    expect(selectStoryEnded(store.getState())).toBe(true);
    expect(run(store, prevStory)).toBe(true);
    expect(at(store)).toBe(3);
    expect(selectStoryEnded(store.getState())).toBe(false);
  });

  it('keeps the learner’s kube-proxy mode', () => {
    const store = createAppStore({ story: 0 });
    store.getState().setScene({ ...store.getState().scene, proxyMode: 'nftables' });
    run(store, goToStory(4));
    expect(store.getState().scene.proxyMode).toBe('nftables');
    expect(store.getState().playback.stepIndex).toBeGreaterThanOrEqual(0);
  });

  it('names each step’s button by its bound title', () => {
    const store = createAppStore({ story: 0 });
    expect(goToStory(1).label(store.getState())).toBe('2. Dialling node-2 directly');
  });
});

describe('a cluster of its own', () => {
  it('the steps name its nodes, and opening one sets them in the scene', () => {
    const store = imported(example('cloud-cluster-policy.yaml'));
    expect(at(store)).toBeNull();
    expect(goToStory(1).label(store.getState())).toBe(
      '2. Dialling gke-prod-default-pool-8d94e0c7-9m2q directly',
    );
    run(store, goToStory(1));
    expect(store.getState().scene.dial).toEqual({
      kind: 'NodePort',
      nodeName: 'gke-prod-default-pool-8d94e0c7-9m2q',
    });
    const shown = selectTrace(store.getState()).steps[store.getState().playback.stepIndex];
    expect(shown?.at).toBe('node:gke-prod-default-pool-8d94e0c7-9m2q');
    expect(shown?.transform).toBe('DNAT');
  });

  it('Next and Previous skip a step that does not apply; it cannot be opened', () => {
    const store = imported(generatedCluster({ nodes: 3, pods: 3 }));
    expect(goToStory(1).enabled(store)).toBe(false);
    expect(run(store, goToStory(1))).toBe(false);
    expect(prevStory.enabled(store)).toBe(false);
    run(store, nextStory);
    expect(at(store)).toBe(0);
    run(store, nextStory);
    expect(at(store)).toBe(2);
    run(store, prevStory);
    expect(at(store)).toBe(0);
    expect(prevStory.enabled(store)).toBe(false);
  });

  it('a Service with no published address ends the story at step 3', () => {
    const store = imported(example('bare-metal-pending.yaml'));
    run(store, goToStory(2));
    expect(nextStory.enabled(store)).toBe(false);
    expect(selectStoryEnded(store.getState())).toBe(true);
    const step = selectStory(store.getState()).steps[3];
    expect(step?.applies).toBe(false);
    expect(failStoryNode(store.getState())?.id).toBe('toggle-node-k8s-cp-1');
  });

  it('a walkthrough step set by a link on a step that does not apply has no focus', () => {
    const store = imported(generatedCluster({ nodes: 3, pods: 3 }));
    store.getState().setWalkthroughStep(1);
    expect(selectStoryStep(store.getState())?.applies).toBe(false);
    expect(selectStoryFocus(store.getState())).toEqual([]);
  });

  it('is bound once per objects', () => {
    const store = imported(example('local-uneven.yaml'));
    const a = selectStory(store.getState());
    run(store, goToStory(0));
    expect(selectStory(store.getState())).toBe(a);
    applyImported(store, example('source-ranges.yaml'));
    expect(selectStory(store.getState())).not.toBe(a);
    expect(selectStory(store.getState()).roles.values.emptyNode).toBe('metal-01');
  });

  it('objects the model cannot resolve: every step says why', () => {
    const store = createAppStore({ story: 0 });
    store.getState().setObjects([]);
    const w = selectStory(store.getState());
    for (const s of w.steps) {
      expect(s.applies).toBe(false);
      if (!s.applies) expect(s.reason).toMatch(/^The model cannot run these objects: /);
    }
    expect(nextStory.enabled(store)).toBe(false);
  });
});

describe('What next', () => {
  it('try Local replays the last DNAT connection under Local; the card stays', () => {
    const store = createAppStore({ story: 4 });
    run(store, tryStoryLocal);
    const s = store.getState();
    expect(s.scene).toEqual({
      ...DEFAULT_SCENE,
      ...DEFAULT_WALKTHROUGH.steps[4]!.scene,
      externalTrafficPolicy: 'Local',
    });
    expect(s.playback.playing).toBe(true);
    expect(s.playback.stepIndex).toBe(-1);
    expect(s.ui.walkthroughStep).toBeNull();
    expect(selectStoryEnded(s)).toBe(true);
    expect(selectTrace(s).outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.1.5',
      snat: false,
    });
  });

  it('fail the node that DNATed: node-1, with toggleNodeFailure; the card stays', () => {
    const store = createAppStore({ story: 4 });
    const fail = failStoryNode(store.getState())!;
    expect(fail.id).toBe(toggleNodeFailure('node-1').id);
    expect(fail.label(store.getState())).toBe('Fail node-1');
    run(store, fail);
    expect(store.getState().scene.failedNodes).toEqual(['node-1']);
    expect(selectStoryEnded(store.getState())).toBe(true);
    expect(fail.label(store.getState())).toBe('Restore node-1');
    // Then Local: the failed node stays failed.
    run(store, tryStoryLocal);
    expect(store.getState().scene.failedNodes).toEqual(['node-1']);
    expect(store.getState().scene.externalTrafficPolicy).toBe('Local');
    expect(selectStoryEnded(store.getState())).toBe(true);
  });

  it('any other change lets the card go', () => {
    const store = createAppStore({ story: 4 });
    run(store, tryStoryLocal);
    store.getState().setScene({ ...store.getState().scene, seed: 7 });
    expect(selectStoryEnded(store.getState())).toBe(false);
  });
});
