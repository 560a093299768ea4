import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../model';
import { fillGaps } from '../model/import/fill';
import { validateText } from '../model/import/validate';
import { selectCluster, selectModelError, selectResult, selectStepCount } from './selectors';
import { applyImported, resetToDefault, sceneForObjects } from './importScenario';
import { run, setPort } from './commands';
import { createAppStore } from './store';

const objectsOf = (file: string) =>
  fillGaps(validateText(readFileSync(`public/examples/${file}`, 'utf8')).objects).objects;

describe('sceneForObjects: the toggles show the cluster as it is', () => {
  it('the canonical scenario gives the default scene', () => {
    expect(sceneForObjects(canonicalObjects(), 1)).toEqual(DEFAULT_SCENE);
  });

  it.each([
    ['local-uneven.yaml', { externalTrafficPolicy: 'Local' }],
    ['ipmode-proxy.yaml', { ipMode: 'Proxy' }],
    ['bare-metal-pending.yaml', { published: false }],
    ['source-ranges.yaml', { delivery: 'LoadBalancerIP', client: 'internet' }],
    ['cloud-cluster-policy.yaml', { externalTrafficPolicy: 'Cluster', delivery: 'LoadBalancerIP' }],
  ] as const)('%s', (file, expected) => {
    const scene = sceneForObjects(objectsOf(file), 7);
    expect(scene).toMatchObject({ ...expected, seed: 7, failedNodes: [], choices: {} });
    expect(scene.proxyMode).toBeUndefined();
  });
});

describe('applyImported', () => {
  it('replaces the objects, before the first step, walkthrough let go, first node selected', () => {
    const store = createAppStore({ story: 2 });
    const objects = objectsOf('local-uneven.yaml');
    expect(applyImported(store, objects)).toEqual({ ok: true });
    const s = store.getState();
    expect(s.objects).toBe(objects);
    expect(s.scene.externalTrafficPolicy).toBe('Local');
    expect(s.playback.stepIndex).toBe(-1);
    expect(s.ui.walkthroughStep).toBeNull();
    expect(s.ui.selectedNode).toBe('aks-nodepool1-38290761-vmss000000');
    expect(selectModelError(s)).toBeUndefined();
    expect(selectStepCount(s)).toBeGreaterThan(0);
  });

  it('takes the scene read elsewhere (the import worker), with the store’s own seed', () => {
    const objects = objectsOf('local-uneven.yaml');
    const here = createAppStore();
    applyImported(here, objects);
    const given = createAppStore();
    const seed = given.getState().scene.seed;
    expect(applyImported(given, objects, sceneForObjects(objects, seed + 7))).toEqual({ ok: true });
    expect(given.getState().scene).toEqual(here.getState().scene);
    expect(given.getState().scene.seed).toBe(seed);
  });

  it('leaves the store alone when the model cannot run the objects', () => {
    const store = createAppStore();
    const before = store.getState().objects;
    const nodes = canonicalObjects().filter((o) => o.kind !== 'Service');
    const result = applyImported(store, nodes);
    expect(result.ok).toBe(false);
    expect(store.getState().objects).toBe(before);
  });

  it('reset goes back to the canonical scenario on the walkthrough’s first step', () => {
    const store = createAppStore();
    applyImported(store, objectsOf('ipmode-proxy.yaml'));
    resetToDefault(store);
    const s = store.getState();
    expect(s.objects).toEqual(canonicalObjects());
    expect(s.ui.walkthroughStep).toBe(0);
    expect(selectCluster(s)?.nodes.map((n) => n.name)).toContain(s.ui.selectedNode);
    expect(selectResult(s)?.serviceKey).toBe('default/web');
  });
});

describe('choosing the Service port to trace', () => {
  it('the multi-port example: picking https dials 443 and reaches the https container port', () => {
    const store = createAppStore();
    applyImported(store, objectsOf('multi-port-named.yaml'));
    run(store, setPort('https'));
    const steps = selectResult(store.getState())?.trace.steps ?? [];
    expect(steps[0]?.before.dport).toBe(443);
    expect(
      steps.find((st) => st.transform === 'DNAT' && st.at.startsWith('node:'))?.after.dport,
    ).toBe(8443);
  });
});
