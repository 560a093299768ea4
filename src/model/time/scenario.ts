/**
 * The scenario as the timeline sees it: which Service, which Pods back it, which client
 * sends the workload; and the way back, from a `WorldState` to objects and toggles
 * that `runScene` accepts (a snapshot, ./snapshot.ts). The taint rules are ./taints.ts, the
 * simulated epoch ./simEpoch.ts; all are re-exported here.
 */
import type { ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import type { SceneOptions } from '../scenario/scene';
import { DEFAULT_SCENE } from '../scenario/scene';
import { resolveCluster } from '../scenario/resolve';
import { ingressHostname, servicePortKey } from '../scenario/cluster';
import type { Cluster } from '../scenario/cluster';
import { pickService } from '../trace/trace';
import { ipToInt, isIPv4 } from '../net/ip';
import type { PodState } from './types';
import { objectKey } from './objectKey';

export { SIM_EPOCH_MS, simTimestamp } from './simEpoch';
export { blockingTaints, MANAGED_TAINTS, TO_BE_DELETED_TAINT, toleratesTaint } from './taints';
export type { TaintLike, TolerationLike } from './taints';
export { EXCLUDE_LB_LABEL, excludedFromCloudBalancer } from '../cloud/exclude';
export { endpointsOf, snapshot } from './snapshot';
export type { SnapshotExtras } from './snapshot';

/** What the timeline needs to know about the scenario, computed once. */
export interface Base {
  /** The input objects (plus a Client for an IP given as client). Never modified. */
  objects: ScenarioObject[];
  scene: SceneOptions;
  serviceKey: string;
  namespace: string;
  name: string;
  /** `spec.ports[0]`: `80:31000/TCP` material. */
  ports: { port: number; nodePort: number; protocol: string }[];
  clusterIP: string;
  type: string;
  nodes: { name: string; ip: string; podCIDR: string }[];
  /** Pod keys the input had as backends (removed from snapshot objects and re-added from the state). */
  initialBackendKeys: string[];
  initialPods: PodState[];
  /** Labels a new Pod gets (the Service's selector, else the first backend's labels). */
  podLabels: Record<string, string>;
  /** `web-6d8f9c7b5`: the ReplicaSet name new Pods are named after. */
  rsPrefix: string;
  /** The workload's client (a Client object's name). */
  clientName: string;
  /** The address a cloud balancer publishes (for a hostname-only ingress: the address its name resolves to). */
  cloudAddress: string;
  /**
   * The DNS name the cloud balancer publishes instead of an IP (AWS: `status.loadBalancer
   * .ingress[].hostname` only), from the input Service; absent when it publishes an IP.
   * MetalLB always publishes an IP.
   */
  cloudHostname?: string;
  /** `spec.externalIPs` of the Service (kubectl's EXTERNAL-IP column lists them too). */
  externalIPs?: string[];
  /** `spec.healthCheck` fields set on the scenario's CloudLoadBalancer, if any. */
  lbHealthCheck: Record<string, number>;
  /** The first node's InternalIP's /24 prefix, e.g. `192.168.0.` (MetalLB's default pool). */
  nodeNetPrefix: string;
}

/** The name of the Node whose `InternalIP` is `ip`, if any. */
function nodeWithIP(objects: readonly ScenarioObject[], ip: string): string | undefined {
  for (const o of objects)
    if (
      o.kind === 'Node' &&
      (o.status?.addresses ?? []).some((a) => a.type === 'InternalIP' && a.address === ip)
    )
      return o.metadata?.name;
  return undefined;
}

/**
 * Adds a Client for an IPv4 address and returns its name: a process on the host network of
 * the node that owns the address (`ip-<address>`, location `Node`), else an Internet client
 * at that address.
 */
export function clientFor(objects: ScenarioObject[], client: string | undefined): string {
  if (client !== undefined && isIPv4(client)) {
    const name = `ip-${client}`;
    const node = nodeWithIP(objects, client);
    if (!objects.some((o) => o.kind === 'Client' && o.metadata.name === name))
      objects.push({
        apiVersion: OUR_GROUP,
        kind: 'Client',
        metadata: { name },
        spec: node
          ? { location: 'Node', nodeName: node }
          : { location: 'Internet', address: client },
      });
    return name;
  }
  if (client !== undefined) return client;
  const clients = objects.filter(
    (o): o is Extract<ScenarioObject, { kind: 'Client' }> => o.kind === 'Client',
  );
  const internet =
    clients.find((c) => c.metadata.name === 'internet') ??
    clients.find((c) => c.spec.location === 'Internet');
  if (internet) return internet.metadata.name;
  objects.push({
    apiVersion: OUR_GROUP,
    kind: 'Client',
    metadata: { name: 'internet' },
    spec: { location: 'Internet', address: '198.51.100.23' },
  });
  return 'internet';
}

/**
 * The toggles that show `objects` as they are (the first LoadBalancer Service's policy,
 * ipMode, published address, the balancer's delivery), for callers without a scene (CLI).
 */
export function sceneFromObjects(objects: readonly ScenarioObject[], seed: number): SceneOptions {
  const cluster = resolveCluster(objects);
  const svc = cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0];
  const k = svc ? `${svc.namespace}/${svc.name}` : '';
  return {
    ...DEFAULT_SCENE,
    externalTrafficPolicy: svc?.externalTrafficPolicy ?? DEFAULT_SCENE.externalTrafficPolicy,
    ipMode: svc?.ingress[0]?.ipMode ?? DEFAULT_SCENE.ipMode,
    delivery:
      cluster.loadBalancers.find((l) => l.service === k)?.delivery ?? DEFAULT_SCENE.delivery,
    // A hostname-only ingress (AWS) is published as much as an IP is.
    published: (svc?.ingress.length ?? 0) > 0 || (svc ? ingressHostname(svc) !== undefined : false),
    failedNodes: [],
    choices: {},
    seed,
    ...(k ? { service: k } : {}),
  };
}

/** The pod-template-hash prefix of a Deployment's Pod name (`web-6d8f9c7b5-x2k4p` → `web-6d8f9c7b5`). */
function replicaSetPrefix(podNames: string[], svcName: string): string {
  for (const n of podNames) {
    const m = /^(.+)-[a-z0-9]{5}$/.exec(n);
    if (m?.[1]) return m[1];
  }
  return svcName;
}

/**
 * Reads the scenario. `base.objects` is a deep copy of `input` unless `copy` is false (a
 * caller that made its own copy: then `base.objects` holds `input`'s objects, and a Client
 * is added to a new array, never to `input`).
 * @throws {ScenarioError} when the objects do not resolve; {@link Error} when the traced
 *   Service is missing.
 */
export function analyse(
  input: readonly ScenarioObject[],
  scene: SceneOptions,
  client?: string,
  copy = true,
): { base: Base; cluster: Cluster } {
  const objects = copy ? (structuredClone(input) as ScenarioObject[]) : [...input];
  const clientName = clientFor(objects, client ?? scene.client);
  const cluster = resolveCluster(objects);
  const svc = pickService(cluster, scene.service);
  const serviceKey = `${svc.namespace}/${svc.name}`;
  const rawSvc = objects.find(
    (o): o is Extract<ScenarioObject, { kind: 'Service' }> =>
      o.kind === 'Service' && objectKey(o.metadata?.namespace, o.metadata?.name) === serviceKey,
  );
  const eps = cluster.endpoints[servicePortKey(svc, svc.ports[0]?.name ?? '')] ?? [];
  const initialPods: PodState[] = eps.map((e) => {
    const name = e.podName || `pod-${e.ip.replaceAll('.', '-')}`;
    return {
      key: objectKey(svc.namespace, name),
      name,
      namespace: svc.namespace,
      ip: e.ip,
      node: e.nodeName,
      phase: e.terminating ? 'Terminating' : 'Running',
      ready: e.terminating ? e.serving : e.ready,
      ...(e.terminating ? { deletedAt: 0 } : {}),
    };
  });
  initialPods.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const selector = rawSvc?.spec?.selector ?? {};
  const selected = objects.filter(
    (o): o is Extract<ScenarioObject, { kind: 'Pod' }> =>
      o.kind === 'Pod' &&
      (o.metadata?.namespace ?? 'default') === svc.namespace &&
      Object.keys(selector).length > 0 &&
      Object.entries(selector).every(([k, v]) => o.metadata?.labels?.[k] === v),
  );
  const initialBackendKeys = [
    ...new Set([
      ...initialPods.map((p) => p.key),
      ...selected.map((p) => objectKey(p.metadata?.namespace, p.metadata?.name)),
    ]),
  ];
  const lbObj = objects.find(
    (o): o is Extract<ScenarioObject, { kind: 'CloudLoadBalancer' }> =>
      o.kind === 'CloudLoadBalancer' && o.spec.service === serviceKey,
  );
  const firstIP = cluster.nodes[0]?.internalIP ?? '192.168.0.1';
  const hostname = ingressHostname(svc);
  const hc = lbObj?.spec.healthCheck ?? {};
  const lbHealthCheck: Record<string, number> = {};
  for (const [k, v] of Object.entries(hc)) if (typeof v === 'number') lbHealthCheck[k] = v;
  const base: Base = {
    objects,
    scene: { ...scene, client: clientName },
    serviceKey,
    namespace: svc.namespace,
    name: svc.name,
    ports: svc.ports.map((p) => ({
      port: p.port,
      nodePort: p.nodePort,
      protocol: p.protocol.toUpperCase(),
    })),
    clusterIP: svc.clusterIP,
    type: svc.type,
    nodes: cluster.nodes.map((n) => ({ name: n.name, ip: n.internalIP, podCIDR: n.podCIDR })),
    initialBackendKeys,
    initialPods,
    podLabels: Object.keys(selector).length > 0 ? { ...selector } : { app: svc.name },
    rsPrefix: replicaSetPrefix(
      initialPods.map((p) => p.name),
      svc.name,
    ),
    clientName,
    cloudAddress: lbObj?.spec.address ?? svc.ingress[0]?.ip ?? '203.0.113.7',
    ...(hostname !== undefined ? { cloudHostname: hostname } : {}),
    ...(svc.externalIPs.length > 0 ? { externalIPs: [...svc.externalIPs] } : {}),
    lbHealthCheck,
    nodeNetPrefix: firstIP.split('.').slice(0, 3).join('.') + '.',
  };
  return { base, cluster };
}

/** A free address for a new Pod on `podCIDR` (from .10 up, skipping `used`). */
export function nextPodIP(podCIDR: string, used: ReadonlySet<string>): string {
  const [net] = podCIDR.split('/');
  const baseInt = ipToInt(net ?? '10.244.0.0');
  for (let i = 10; i < 250; i++) {
    const n = baseInt + i;
    const ip = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
    if (!used.has(ip)) return ip;
  }
  throw new Error(`no free Pod address left in ${podCIDR}`);
}
