/**
 * The one simulation state object ({@link Sim}) every manager reads and changes, built from
 * the scenario and the settings ({@link createSim}), with typed look-ups that name the missing
 * id instead of unchecked casts, and the world as an epoch records it ({@link world}).
 */
import type { ControllerKind } from '../types';
import { createRng } from '../../random';
import type { Rng } from '../../random';
import { DEFAULT_HEALTH_CHECK_NODE_PORT } from '../../scenario/scene';
import { firstPoolAddress } from '../metallb';
import { Agenda } from '../queue';
import type { Base, TaintLike, TolerationLike } from '../scenario';
import {
  EXCLUDE_LB_LABEL,
  TO_BE_DELETED_TAINT,
  blockingTaints,
  endpointsOf,
  excludedFromCloudBalancer,
} from '../scenario';
import type { Settings } from '../settings';
import type {
  ControlPlaneSettings,
  EndpointState,
  HealthCheckSettings,
  NodeState,
  PodState,
  ProbeRecord,
  ProvisioningSettings,
  RotationChange,
  SimMs,
  SvcRow,
  TimelineEntry,
  WorldState,
} from '../types';
import type {
  Action,
  ActionOf,
  HcInt,
  NodeInt,
  Outage,
  PodEnd,
  PodInt,
  StateCluster,
} from './types';

/** What a run is configured with, fixed for its whole length. Times in simulated ms. */
export interface SimConfig {
  hc: HealthCheckSettings;
  prov: ProvisioningSettings;
  cp: ControlPlaneSettings;
  /** Who acts on the Service: `none` for a Service that is not type LoadBalancer. */
  controller: ControllerKind;
  /** `controller === 'metallb-l2'`. */
  metallb: boolean;
  /** The address the balancer or MetalLB publishes. */
  address: string;
  /** An AWS-style cloud balancer's DNS name, published instead of `address`. */
  hostname: string | undefined;
  horizonMs: SimMs;
  /** The health check's interval, ms. */
  intervalMs: SimMs;
  /** The health check's timeout, ms. */
  timeoutMs: SimMs;
  /** `terminationGracePeriodSeconds`, ms. */
  graceMs: SimMs;
  /** The Service's `healthCheckNodePort` (or the default one it would get). */
  hcnp: number;
  /** Node names in the scenario's order. */
  nodeOrder: readonly string[];
  /** The cloud balancer's targets: every node the service controller includes. */
  targets: string[];
}

/** The balancer's side: provisioning, what is published, what the health check asks. */
export interface LbState {
  registered: boolean;
  published: boolean;
  /** The policy the cloud's health check follows (lags the API by the service controller). */
  hcPolicy: 'Cluster' | 'Local';
  /** MetalLB's announcing node. */
  leader: string | null;
  /** When the cloud balancer's targets were registered; null until then. */
  registeredAt: SimMs | null;
}

/** The whole mutable state of one run, shared by the managers. */
export interface Sim {
  readonly base: Base;
  readonly cfg: SimConfig;
  readonly agenda: Agenda<Action>;
  /** The generator of new Pods' name suffixes. */
  readonly rngNames: Rng;
  // ---- what the run records
  readonly entries: TimelineEntry[];
  /** The next entry's insertion number. */
  entrySeq: number;
  readonly probes: ProbeRecord[];
  readonly rotation: RotationChange[];
  readonly svcRows: SvcRow[];
  readonly outages: Outage[];
  readonly podEnds: Map<string, PodEnd>;
  // ---- the cluster
  readonly nodes: ReadonlyMap<string, NodeInt>;
  readonly pods: Map<string, PodInt>;
  /** The Deployment's `spec.replicas`. */
  desired: number;
  /** `spec.externalTrafficPolicy` at the API server. */
  apiPolicy: 'Cluster' | 'Local';
  /** The EndpointSlice at the API server, and its JSON. */
  apiEndpoints: EndpointState[];
  apiEndpointsKey: string;
  /** What kube-proxy last synced. */
  readonly kp: { endpoints: EndpointState[]; policy: 'Cluster' | 'Local' };
  readonly lb: LbState;
  readonly hcState: ReadonlyMap<string, HcInt>;
  /** MetalLB's speakers alive in memberlist. */
  readonly speakers: Set<string>;
  /** kube-proxy's sync already scheduled for a millisecond (changes in it batch into one). */
  pendingSync: { at: SimMs; action: ActionOf<'sync'> } | undefined;
  // ---- caches
  /**
   * Counts the actions that may change the world (every one but a probe's), so the world is
   * read again only after one of them.
   */
  version: number;
  /** The states the probes saw, resolved (see `EngineResult.clusters`). */
  readonly clusters: Map<string, StateCluster>;
  lastCluster: { version: number; hit: StateCluster } | undefined;
}

/**
 * The node named `name`.
 * @throws {Error} naming it when the run has no such node (events are checked against the
 *   nodes before the run, so this is a bug in the engine).
 */
export function nodeOf(sim: Sim, name: string): NodeInt {
  const n = sim.nodes.get(name);
  if (!n)
    throw new Error(`time engine: no node "${name}" (nodes: ${sim.cfg.nodeOrder.join(', ')})`);
  return n;
}

/**
 * The balancer's standing of node `name`.
 * @throws {Error} naming it when the node is not in the run.
 */
export function standingOf(sim: Sim, name: string): HcInt {
  const st = sim.hcState.get(name);
  if (!st) throw new Error(`time engine: no health-check standing for node "${name}"`);
  return st;
}

function sortByKey<T extends { key: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Every Pod of the Service the run tracks, terminating ones included, sorted by key. */
export function podList(sim: Sim): PodInt[] {
  return sortByKey([...sim.pods.values()]);
}

/** The Pods that are not terminating (the ReplicaSet's active replicas). */
export function activePods(sim: Sim): PodInt[] {
  return [...sim.pods.values()].filter((p) => p.phase !== 'Terminating');
}

/** A Pod's public state (without the engine's generation and creation time). */
export function strip(p: PodInt): PodState {
  const { gen: _g, createdAt: _c, ...rest } = p;
  return rest;
}

/** The state of the world as an epoch records it (plain data, for `stateAt`). */
export function world(sim: Sim): WorldState {
  const { nodeOrder, metallb } = sim.cfg;
  const { lb } = sim;
  const nodes: NodeState[] = nodeOrder.map((name) => {
    const n = nodeOf(sim, name);
    return {
      name,
      up: n.up,
      readyCondition: n.readyCondition,
      unschedulable: n.unschedulable,
      taints: [...n.taints].sort(),
      ...(n.taintedAt !== undefined ? { taintedAt: n.taintedAt } : {}),
    };
  });
  const inRotation = metallb
    ? lb.published && lb.leader
      ? [lb.leader]
      : []
    : lb.registered
      ? nodeOrder.filter((n) => sim.hcState.get(n)?.inRotation)
      : [];
  return {
    nodes,
    pods: podList(sim).map(strip),
    endpoints: sim.kp.endpoints,
    policy: sim.kp.policy,
    published: lb.published,
    inRotation,
    announcingNode: metallb ? lb.leader : null,
  };
}

/** The run's fixed configuration. */
function configOf(base: Base, s: Settings, nodes: ReadonlyMap<string, NodeInt>): SimConfig {
  const hc = s.healthCheck;
  const prov = s.provisioning;
  const cp = s.controlPlane;
  // The service controller and MetalLB act only on type LoadBalancer (controller.go wantsLoadBalancer).
  const controller = base.type === 'LoadBalancer' ? prov.controller : 'none';
  const metallb = controller === 'metallb-l2';
  const raw = base.objects.find(
    (o) =>
      o.kind === 'Service' &&
      `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}` === base.serviceKey,
  );
  const hcnp = raw?.kind === 'Service' ? raw.spec?.healthCheckNodePort : undefined;
  const nodeOrder = base.nodes.map((n) => n.name);
  return {
    hc,
    prov,
    cp,
    controller,
    metallb,
    address: metallb ? firstPoolAddress(prov.metallb.poolRange) : base.cloudAddress,
    // An AWS-style cloud balancer publishes its DNS name, not `address` (MetalLB always an IP).
    hostname: controller === 'cloud' ? base.cloudHostname : undefined,
    horizonMs: s.horizonMs,
    intervalMs: hc.intervalSeconds * 1000,
    timeoutMs: hc.timeoutSeconds * 1000,
    graceMs: cp.terminationGracePeriodSeconds * 1000,
    hcnp: hcnp ?? DEFAULT_HEALTH_CHECK_NODE_PORT,
    nodeOrder,
    targets: nodeOrder.filter((n) => nodes.get(n)?.excludedFromCloud === false),
  };
}

/** The taints the engine manages itself; every other input taint is kept as it is. */
const MANAGED = new Set([
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/unschedulable',
  TO_BE_DELETED_TAINT,
]);

/** The nodes as the run starts: the input's conditions, taints and labels. */
function initialNodes(base: Base): Map<string, NodeInt> {
  const rawNodes = new Map(
    base.objects
      .filter((o): o is Extract<typeof o, { kind: 'Node' }> => o.kind === 'Node')
      .map((o) => [o.metadata?.name ?? '', o]),
  );
  // The Service's Pods' tolerations (the first backend Pod's, as a template for new ones).
  const template = base.objects.find(
    (o): o is Extract<typeof o, { kind: 'Pod' }> =>
      o.kind === 'Pod' &&
      base.initialBackendKeys.includes(
        `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`,
      ),
  );
  const tolerations: TolerationLike[] = template?.spec?.tolerations ?? [];
  const nodes = new Map<string, NodeInt>();
  for (const n of base.nodes) {
    const raw = rawNodes.get(n.name);
    const cond = raw?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    const taints = new Set<string>();
    const kept: TaintLike[] = [];
    for (const t of raw?.spec?.taints ?? [])
      if (MANAGED.has(t.key)) taints.add(t.key);
      else kept.push(t);
    const labels = raw?.metadata?.labels;
    nodes.set(n.name, {
      name: n.name,
      ip: n.ip,
      podCIDR: n.podCIDR,
      up: true,
      readyCondition: cond === 'True' ? 'True' : cond === 'False' ? 'False' : 'Unknown',
      unschedulable: raw?.spec?.unschedulable === true,
      taints,
      gen: 0,
      upSince: 0,
      blocking: blockingTaints(kept, tolerations),
      excludeLabel: labels?.[EXCLUDE_LB_LABEL] !== undefined,
      excludedFromCloud: excludedFromCloudBalancer(labels),
      lastSync: 0,
    });
  }
  return nodes;
}

/** The state at t = 0, before anything is scheduled: nothing provisioned, nothing recorded. */
export function createSim(base: Base, s: Settings): Sim {
  const nodes = initialNodes(base);
  const cfg = configOf(base, s, nodes);
  const pods = new Map<string, PodInt>();
  for (const p of base.initialPods) pods.set(p.key, { ...p, gen: 0, createdAt: 0 });
  const policy = base.scene.externalTrafficPolicy;
  const sim: Sim = {
    base,
    cfg,
    agenda: new Agenda<Action>(),
    rngNames: createRng((s.seed ^ 0x5bd1e995) >>> 0),
    entries: [],
    entrySeq: 0,
    probes: [],
    rotation: [],
    svcRows: [],
    outages: [],
    podEnds: new Map(),
    nodes,
    pods,
    desired: 0,
    apiPolicy: policy,
    apiEndpoints: [],
    apiEndpointsKey: '',
    kp: { endpoints: [], policy },
    lb: { registered: false, published: false, hcPolicy: policy, leader: null, registeredAt: null },
    hcState: new Map(cfg.nodeOrder.map((n) => [n, { succ: 0, fail: 0, inRotation: false }])),
    speakers: new Set(cfg.nodeOrder),
    pendingSync: undefined,
    version: 0,
    clusters: new Map(),
    lastCluster: undefined,
  };
  sim.desired = activePods(sim).length;
  sim.apiEndpoints = endpointsOf(podList(sim).map(strip));
  sim.apiEndpointsKey = JSON.stringify(sim.apiEndpoints);
  sim.kp.endpoints = sim.apiEndpoints;
  return sim;
}
