/**
 * The scenario as the timeline sees it: which Service, which Pods back it, which client
 * sends the workload; and the way back, from a {@link WorldState} to objects and toggles
 * that `runScene` accepts (a snapshot).
 */
import type { Pod, ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import type { SceneOptions } from '../scenario/scene';
import { DEFAULT_SCENE } from '../scenario/scene';
import { resolveCluster } from '../scenario/resolve';
import { ingressHostname, servicePortKey } from '../scenario/cluster';
import type { Cluster } from '../scenario/cluster';
import { pickService } from '../trace/trace';
import { ipToInt, isIPv4 } from '../net/ip';
import type { EndpointState, PodState, SimMs, WorldState } from './types';

/** Simulated t = 0 as a wall-clock date, for timestamps in objects and bodies (a constant, never a clock read). */
export const SIM_EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

/** `t` as an RFC 3339 timestamp (`metadata.deletionTimestamp`, `lastTransitionTime`). */
export function simTimestamp(t: SimMs): string {
  return new Date(SIM_EPOCH_MS + Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

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

/** `ns/name` of a Pod. */
function key(ns: string | undefined, name: string | undefined): string {
  return `${ns ?? 'default'}/${name ?? ''}`;
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
      o.kind === 'Service' && key(o.metadata?.namespace, o.metadata?.name) === serviceKey,
  );
  const eps = cluster.endpoints[servicePortKey(svc, svc.ports[0]?.name ?? '')] ?? [];
  const initialPods: PodState[] = eps.map((e) => {
    const name = e.podName || `pod-${e.ip.replaceAll('.', '-')}`;
    return {
      key: key(svc.namespace, name),
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
      ...selected.map((p) => key(p.metadata?.namespace, p.metadata?.name)),
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

/** The taint cluster-autoscaler puts on a node it scales down (`ToBeDeletedByClusterAutoscaler`). */
export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';

/** The taints the timeline itself adds and removes (the others come from the input and stay). */
export const MANAGED_TAINTS: readonly string[] = [
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/unschedulable',
  TO_BE_DELETED_TAINT,
];

/** A taint as the API has it (`spec.taints[]`). */
export interface TaintLike {
  key?: string;
  value?: string;
  effect?: string;
}

/** A toleration as the API has it (`spec.tolerations[]`). */
export interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/**
 * Whether `toleration` tolerates `taint`: `k8s.io/api/core/v1` `Toleration.ToleratesTaint`
 * (an empty effect matches every effect, an empty key with `Exists` every key; `Equal`, the
 * default operator, compares values).
 */
export function toleratesTaint(toleration: TolerationLike, taint: TaintLike): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const op = toleration.operator ?? '';
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/**
 * The taints of a node that keep a new Pod with `tolerations` off it: the scheduler's
 * TaintToleration filter counts `NoSchedule` and `NoExecute`, never `PreferNoSchedule`
 * (`pkg/scheduler/framework/plugins/tainttoleration`), e.g. kubeadm's
 * `node-role.kubernetes.io/control-plane:NoSchedule`.
 */
export function blockingTaints(
  taints: readonly TaintLike[],
  tolerations: readonly TolerationLike[],
): TaintLike[] {
  return taints.filter(
    (t) =>
      (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
      !tolerations.some((tol) => toleratesTaint(tol, t)),
  );
}

export { EXCLUDE_LB_LABEL, excludedFromCloudBalancer } from '../cloud/exclude';

/** Endpoint conditions as the EndpointSlice controller derives them from Pods. */
export function endpointsOf(pods: readonly PodState[]): EndpointState[] {
  return pods
    .filter((p) => p.ip !== '')
    .map((p) => ({
      pod: p.key,
      ip: p.ip,
      node: p.node,
      // endpointslice controller (utils.go podToEndpoint): ready = podReady && !terminating,
      // serving = podReady, terminating = deletionTimestamp != nil.
      ready: p.ready && p.phase !== 'Terminating',
      serving: p.ready,
      terminating: p.phase === 'Terminating',
    }));
}

function podObject(
  base: Base,
  p: PodState,
  template: Pod | undefined,
  copy: <T extends object>(x: T) => T,
): ScenarioObject {
  const t: Pod = (template ? copy(template) : undefined) ?? {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {},
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52' }] },
    status: {},
  };
  const metadata = { ...(t.metadata ?? {}), name: p.name, namespace: p.namespace };
  if (!t.metadata?.labels) metadata.labels = { ...base.podLabels };
  if (p.phase === 'Terminating') metadata.deletionTimestamp = simTimestamp(p.deletedAt ?? 0);
  else delete metadata.deletionTimestamp;
  return {
    ...t,
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: { containers: [], ...(t.spec ?? {}), nodeName: p.node },
    status: {
      ...(t.status ?? {}),
      phase: p.phase === 'Pending' ? 'Pending' : 'Running',
      podIP: p.ip,
      podIPs: [{ ip: p.ip }],
      conditions: [{ type: 'Ready', status: p.ready ? 'True' : 'False' }],
    },
  };
}

/** MetalLB or cloud: the address published in `status.loadBalancer.ingress[0].ip`. */
export interface SnapshotExtras {
  controller: 'cloud' | 'none' | 'metallb-l2';
  address: string;
}

/**
 * Objects and scene for `state`: backend Pods and the Service's EndpointSlice rebuilt from
 * the state (the slice as kube-proxy last synced it), Node conditions, cordons and taints,
 * the balancer's address. Down nodes go to `scene.downNodes`; the rotation to
 * `scene.choices.rotation`.
 *
 * Objects the state leaves as they were are `base.objects`' own. The ones it changes are
 * deep copies when `deep` (the default: what a caller may keep and edit); with `deep` false
 * they are new objects only down to what changed and share the rest with `base.objects`, for
 * the model's own reading (resolving and tracing never modify objects): at 1,000 nodes the
 * deep copies were most of a state's cost.
 */
export function snapshot(
  base: Base,
  state: WorldState,
  extras: SnapshotExtras,
  deep = true,
): { objects: ScenarioObject[]; scene: SceneOptions } {
  const copy = deep
    ? <T extends object>(x: T): T => structuredClone(x)
    : <T extends object>(x: T): T => ({ ...x });
  // Name → the first node state with it (what a search of the list finds).
  const nodeStates = new Map<string, WorldState['nodes'][number]>();
  for (const n of state.nodes) if (!nodeStates.has(n.name)) nodeStates.set(n.name, n);
  const backend = new Set(base.initialBackendKeys);
  for (const p of state.pods) backend.add(p.key);
  const out: ScenarioObject[] = [];
  const podTemplates = new Map<string, Pod>();
  let firstTemplate: Pod | undefined;
  let sliceDone = false;
  let lbSeen = false;
  for (const o of base.objects) {
    if (o.kind === 'Pod' && backend.has(key(o.metadata?.namespace, o.metadata?.name))) {
      podTemplates.set(key(o.metadata?.namespace, o.metadata?.name), o);
      firstTemplate ??= o;
      continue;
    }
    if (o.kind === 'EndpointSlice') {
      const svcName = o.metadata?.labels?.['kubernetes.io/service-name'];
      if (svcName === base.name && (o.metadata?.namespace ?? 'default') === base.namespace) {
        if (sliceDone) continue;
        sliceDone = true;
        const slice = copy(o);
        slice.endpoints = state.endpoints.map((e) => {
          const [ns, name] = e.pod.split('/');
          return {
            addresses: [e.ip],
            conditions: { ready: e.ready, serving: e.serving, terminating: e.terminating },
            nodeName: e.node,
            targetRef: { kind: 'Pod', namespace: ns ?? base.namespace, name: name ?? '' },
          };
        });
        out.push(slice);
        continue;
      }
    }
    if (o.kind === 'Node') {
      const name = o.metadata?.name;
      const n = name === undefined ? undefined : nodeStates.get(name);
      if (n) {
        const node = copy(o);
        node.spec = { ...(node.spec ?? {}) };
        if (n.unschedulable) node.spec.unschedulable = true;
        else delete node.spec.unschedulable;
        const taints = (node.spec.taints ?? []).filter((t) => !MANAGED_TAINTS.includes(t.key));
        for (const k of n.taints) {
          if (k === 'node.kubernetes.io/unreachable')
            taints.push({ key: k, effect: 'NoSchedule' }, { key: k, effect: 'NoExecute' });
          else if (k === TO_BE_DELETED_TAINT)
            // cluster-autoscaler's taint: value the Unix time it was added (taints.go MarkToBeDeleted).
            taints.push({
              key: k,
              value: String(Math.floor((SIM_EPOCH_MS + (n.taintedAt ?? 0)) / 1000)),
              effect: 'NoSchedule',
            });
          else taints.push({ key: k, effect: 'NoSchedule' });
        }
        if (taints.length > 0) node.spec.taints = taints;
        else delete node.spec.taints;
        const conditions = (node.status?.conditions ?? []).map((c) =>
          c.type !== 'Ready'
            ? c
            : n.readyCondition === 'True'
              ? { type: 'Ready', status: 'True', reason: 'KubeletReady' }
              : {
                  type: 'Ready',
                  status: n.readyCondition,
                  reason: 'NodeStatusUnknown',
                  message: 'Kubelet stopped posting node status.',
                },
        );
        out.push({ ...node, status: { ...(node.status ?? {}), conditions } });
        continue;
      }
    }
    if (o.kind === 'Service') {
      const k = key(o.metadata?.namespace, o.metadata?.name);
      if (k === base.serviceKey && state.published) {
        const svc = copy(o);
        const ing = svc.status?.loadBalancer?.ingress ?? [];
        // A cloud balancer that publishes a DNS name keeps doing so; its address is the
        // CloudLoadBalancer's, where the name resolves to.
        const hostname = extras.controller === 'cloud' ? base.cloudHostname : undefined;
        const same =
          hostname !== undefined
            ? !ing.some((i) => i.ip) && ing[0]?.hostname === hostname
            : ing[0]?.ip === extras.address;
        out.push(
          ing.length === 0 || !same
            ? {
                ...svc,
                status: {
                  ...(svc.status ?? {}),
                  loadBalancer: {
                    ingress: [hostname !== undefined ? { hostname } : { ip: extras.address }],
                  },
                },
              }
            : svc,
        );
        continue;
      }
    }
    if (o.kind === 'CloudLoadBalancer' && o.spec.service === base.serviceKey) {
      lbSeen = true;
      out.push({ ...o, spec: { ...o.spec, address: extras.address } });
      continue;
    }
    out.push(o);
  }
  if (!lbSeen && extras.controller !== 'none')
    out.push({
      apiVersion: OUR_GROUP,
      kind: 'CloudLoadBalancer',
      metadata: { name: `${base.name}-lb` },
      spec: { service: base.serviceKey, address: extras.address },
    });
  for (const p of state.pods)
    out.push(podObject(base, p, podTemplates.get(p.key) ?? firstTemplate, copy));
  const down = state.nodes.filter((n) => !n.up).map((n) => n.name);
  const metallb = extras.controller === 'metallb-l2';
  const { downNodes: _ignored, ...baseScene } = base.scene;
  const scene: SceneOptions = {
    ...baseScene,
    externalTrafficPolicy: state.policy,
    published: state.published,
    failedNodes: [],
    ...(down.length > 0 ? { downNodes: down } : {}),
    ...(metallb
      ? {
          delivery: 'LoadBalancerIP' as const,
          ipMode: 'VIP' as const,
          implementation: 'MetalLB-L2' as const,
        }
      : {}),
    choices: { rotation: [...state.inRotation] },
  };
  return { objects: out, scene };
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
