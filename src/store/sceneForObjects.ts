/**
 * The scene that shows imported objects as they are ({@link sceneForObjects}): model code only,
 * so the import checker's worker can read it where the objects are parsed.
 */
import { resolveCluster } from '../model/scenario/resolve';
import { DEFAULT_SCENE } from '../model/scenario/scene';
import type { ScenarioObject, SceneOptions } from '../model';

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
