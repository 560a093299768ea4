/**
 * Bringing your own cluster into the store: the objects a person pasted, loaded or picked
 * replace the scenario, with a scene read from those objects (so the toggles show the
 * cluster as it is, not the canonical scenario's settings), and back to the default.
 */
import { canonicalObjects } from '../model/scenario/canonical';
import { resolveCluster } from '../model/scenario/resolve';
import { DEFAULT_SCENE } from '../model/scenario/scene';
import type { ScenarioObject, SceneOptions } from '../model';
import { goToStory } from './commands';
import { selectFirstNode } from './store';
import type { AppStore } from './types';

/**
 * The scene that shows `objects` as they are: the traced Service's (the first LoadBalancer
 * Service, else the first Service, as the model picks it) externalTrafficPolicy, ipMode,
 * published address and balancer delivery; no failed nodes, nothing pinned, kube-proxy's mode
 * from the objects; the internet client dialling the load balancer.
 * @throws {Error} when the objects cannot be resolved into a cluster.
 */
export function sceneForObjects(objects: readonly ScenarioObject[], seed: number): SceneOptions {
  const cluster = resolveCluster(objects);
  const svc = cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0];
  const key = svc ? `${svc.namespace}/${svc.name}` : '';
  const raw = objects.find(
    (o) =>
      o.kind === 'Service' &&
      `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}` === key,
  );
  const ingress = raw?.kind === 'Service' ? (raw.status?.loadBalancer?.ingress ?? []) : [];
  const clients = cluster.clients;
  const client =
    clients.find((c) => c.name === 'internet') ??
    clients.find((c) => c.location === 'Internet') ??
    clients[0];
  return {
    externalTrafficPolicy: svc?.externalTrafficPolicy ?? DEFAULT_SCENE.externalTrafficPolicy,
    ipMode: svc?.ingress[0]?.ipMode ?? DEFAULT_SCENE.ipMode,
    delivery:
      cluster.loadBalancers.find((l) => l.service === key)?.delivery ?? DEFAULT_SCENE.delivery,
    published: ingress.length > 0,
    failedNodes: [],
    client: client?.name ?? DEFAULT_SCENE.client,
    dial: { kind: 'LoadBalancer' },
    choices: {},
    seed,
  };
}

export type ApplyResult = { ok: true } | { ok: false; error: string };

/**
 * Puts `objects` on screen with {@link sceneForObjects}, before the first step, the walkthrough
 * let go and the first node's rules shown. When the model cannot run them, nothing changes
 * and the reason comes back. With a sync engine the whole model runs first (a dry run); with
 * a worker only the objects are resolved here (what makes a cluster fail), and the trace is
 * computed in the worker (an error there shows as the model's error, like any scene's).
 */
export function applyImported(store: AppStore, objects: ScenarioObject[]): ApplyResult {
  let scene: SceneOptions;
  try {
    scene = sceneForObjects(objects, store.getState().scene.seed);
    const compute = store.getState().model.compute;
    const dry = compute?.(objects, scene);
    if (dry && !dry.ok) return { ok: false, error: dry.error };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const s = store.getState();
  s.setPlaying(false);
  s.setObjects(objects);
  s.setScene(scene, 'reset');
  s.setWalkthroughStep(null);
  selectFirstNode(store);
  return { ok: true };
}

/** Back to the canonical scenario on the walkthrough's first step (as the app opens). */
export function resetToDefault(store: AppStore): void {
  const s = store.getState();
  s.setPlaying(false);
  s.setObjects(canonicalObjects());
  s.setScene(DEFAULT_SCENE, 'reset');
  selectFirstNode(store);
  goToStory(0).perform(store);
}
