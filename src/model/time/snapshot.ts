/**
 * The way back from the timeline to the model: a {@link WorldState} as objects and toggles
 * that `runScene` accepts ({@link snapshot}), with the backend Pods, the Service's
 * EndpointSlice, the Nodes and the balancer's address rebuilt from the state.
 */
import type { Node, Pod, ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import type { SceneOptions } from '../scenario/scene';
import { objectKey as key } from './objectKey';
import type { Base } from './scenario';
import { SIM_EPOCH_MS, simTimestamp } from './simEpoch';
import { MANAGED_TAINTS, TO_BE_DELETED_TAINT } from './taints';
import type { EndpointState, NodeState, PodState, WorldState } from './types';

/** A copy of an object: deep (`structuredClone`) or one level (`{ ...x }`). */
type Copy = <T extends object>(x: T) => T;

/** The input object of kind `K`. */
type Of<K extends ScenarioObject['kind']> = Extract<ScenarioObject, { kind: K }>;

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

/**
 * The Pod object for `p`: its template (the input's own Pod, or the first backend's) with the
 * state's name, node, phase, address, readiness and deletion timestamp.
 */
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

/** The Service's EndpointSlice with the endpoints as kube-proxy last synced them. */
function stateSlice(
  o: Of<'EndpointSlice'>,
  state: WorldState,
  base: Base,
  copy: Copy,
): Of<'EndpointSlice'> {
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
  return slice;
}

/**
 * The node's taints: the input's own (the managed ones dropped), then the state's — the
 * unreachable taint with both effects, cluster-autoscaler's valued with the Unix time it was
 * added (taints.go MarkToBeDeleted), the others NoSchedule.
 */
function nodeTaints(
  given: NonNullable<NonNullable<Node['spec']>['taints']>,
  n: NodeState,
): NonNullable<NonNullable<Node['spec']>['taints']> {
  const taints = given.filter((t) => !MANAGED_TAINTS.includes(t.key));
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
  return taints;
}

/** The Node with the state's cordon, taints and `Ready` condition. */
function stateNode(o: Of<'Node'>, n: NodeState, copy: Copy): Of<'Node'> {
  const node = copy(o);
  node.spec = { ...(node.spec ?? {}) };
  if (n.unschedulable) node.spec.unschedulable = true;
  else delete node.spec.unschedulable;
  const taints = nodeTaints(node.spec.taints ?? [], n);
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
  return { ...node, status: { ...(node.status ?? {}), conditions } };
}

/**
 * The traced Service once published: its ingress the balancer's address (or, for a cloud
 * balancer that publishes a DNS name, that name), kept as it is when it says so already.
 */
function publishedService(
  o: Of<'Service'>,
  base: Base,
  extras: SnapshotExtras,
  copy: Copy,
): Of<'Service'> {
  const svc = copy(o);
  const ing = svc.status?.loadBalancer?.ingress ?? [];
  // A cloud balancer that publishes a DNS name keeps doing so; its address is the
  // CloudLoadBalancer's, where the name resolves to.
  const hostname = extras.controller === 'cloud' ? base.cloudHostname : undefined;
  const same =
    hostname !== undefined
      ? !ing.some((i) => i.ip) && ing[0]?.hostname === hostname
      : ing[0]?.ip === extras.address;
  return ing.length === 0 || !same
    ? {
        ...svc,
        status: {
          ...(svc.status ?? {}),
          loadBalancer: {
            ingress: [hostname !== undefined ? { hostname } : { ip: extras.address }],
          },
        },
      }
    : svc;
}

/**
 * The scene of the state: the base scene with the state's policy and publication, down nodes
 * in `downNodes`, the rotation in `choices.rotation`, MetalLB's delivery under MetalLB.
 */
function snapshotScene(base: Base, state: WorldState, extras: SnapshotExtras): SceneOptions {
  const down = state.nodes.filter((n) => !n.up).map((n) => n.name);
  const metallb = extras.controller === 'metallb-l2';
  const { downNodes: _ignored, ...baseScene } = base.scene;
  return {
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
  const copy: Copy = deep
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
        out.push(stateSlice(o, state, base, copy));
        continue;
      }
    }
    if (o.kind === 'Node') {
      const name = o.metadata?.name;
      const n = name === undefined ? undefined : nodeStates.get(name);
      if (n) {
        out.push(stateNode(o, n, copy));
        continue;
      }
    }
    if (o.kind === 'Service') {
      const k = key(o.metadata?.namespace, o.metadata?.name);
      if (k === base.serviceKey && state.published) {
        out.push(publishedService(o, base, extras, copy));
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
  return { objects: out, scene: snapshotScene(base, state, extras) };
}
