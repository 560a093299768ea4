/**
 * The time engine's types: what it returns ({@link EngineResult}) and what it works with
 * inside — the actions on its agenda, keyed by kind ({@link Action}), and the mutable records
 * it keeps per node, Pod and health-checked target.
 */
import type { Cluster, ServiceModel } from '../../scenario/cluster';
import type { SceneOptions } from '../../scenario/scene';
import type { TaintLike } from '../scenario';
import type {
  EndpointState,
  PodState,
  ProbeRecord,
  RotationChange,
  SimMs,
  SvcRow,
  TimelineEntry,
  TimelineEvent,
  WorldState,
} from '../types';

/** An epoch before its paths are computed: the state over [from, to), and its JSON as `key`. */
export interface RawEpoch {
  from: SimMs;
  to: SimMs;
  state: WorldState;
  key: string;
}

/** When a Pod stopped running (its process exited), and why. */
export interface PodEnd {
  /** deletionTimestamp (SIGTERM), if it was deleted. */
  deletedAt: SimMs | null;
  /** When its process exited with the node up (SIGKILL or by itself); null if never within the run. */
  exitAt: SimMs | null;
  sigkill: boolean;
}

/** A node failure as it happened: for the dead-node windows and connection fates. */
export interface Outage {
  node: string;
  from: SimMs;
  /** When it came back; null if never within the run. */
  to: SimMs | null;
}

/**
 * One state resolved as `prepare` in paths.ts resolves it: `snapshot`'s objects under its
 * scene, nodes down marked. Read-only: the probes and the path tracing share it.
 */
export interface StateCluster {
  cluster: Cluster;
  svc: ServiceModel;
  /** `snapshot`'s scene (its rotation is the state's when first resolved). */
  scene: SceneOptions;
}

/** Everything the simulation produced, before connections are drawn. */
export interface EngineResult {
  epochs: RawEpoch[];
  /** Sorted by (`at`, insertion order), `seq` renumbered 0, 1, … in that order. */
  entries: TimelineEntry[];
  /** Sorted by (`at`, node order). */
  probes: ProbeRecord[];
  rotation: RotationChange[];
  svc: SvcRow[];
  outages: Outage[];
  /** Per Pod key (`namespace/name`). */
  podEnds: Map<string, PodEnd>;
  /** The address the balancer or MetalLB publishes. */
  address: string;
  /** When the cloud balancer's targets were registered; null if never. */
  registeredAt: SimMs | null;
  /** The nodes registered as targets (every node not excluded from external load balancers). */
  targets: string[];
  /**
   * The states the probes saw, resolved: key `JSON.stringify` of the state with an empty
   * rotation and no announcing node (the rotation is not in the objects).
   */
  clusters: ReadonlyMap<string, StateCluster>;
}

/** A health-check probe before the balancer counted it. */
export type ProbeDraft = Omit<
  ProbeRecord,
  'consecutiveSuccesses' | 'consecutiveFailures' | 'inRotation'
>;

/** The payload of each kind of action on the agenda (the kind is the key). */
export interface ActionPayloads {
  /** One of the run's {@link TimelineEvent}s. */
  user: { ev: TimelineEvent };
  /** The balancer probes a target (and schedules the next probe one interval later). */
  probe: { node: string };
  /** A probe's result is known (its timeout ran out). */
  'probe-result': { rec: ProbeDraft };
  /** kube-proxy on every node applies these endpoints and this policy. */
  sync: { endpoints: EndpointState[]; policy: 'Cluster' | 'Local' };
  /** The node lifecycle controller notices a silent node (grace period over). */
  notice: { node: string; gen: number };
  /** The taint eviction of a silent node's Pods (toleration over). */
  evict: { node: string; gen: number };
  /** MetalLB's memberlist declares a node dead. */
  'memberlist-dead': { node: string; gen: number };
  /** A Pod's readiness probe passes. */
  'pod-ready': { pod: string; gen: number };
  /** A terminating Pod's process exits (by itself, or SIGKILL). */
  'pod-exit': { pod: string; gen: number; sigkill: boolean };
  /** The service controller starts provisioning (`EnsuringLoadBalancer`). */
  ensuring: Record<never, never>;
  /** The cloud has built the balancer. */
  built: Record<never, never>;
  /** The targets are registered and the address published. */
  registered: Record<never, never>;
  /** MetalLB's controller assigns the address. */
  'metallb-assign': Record<never, never>;
  /** The service controller sees a change of externalTrafficPolicy. */
  'svc-policy': { from: 'Cluster' | 'Local'; to: 'Cluster' | 'Local' };
  /** The cloud's health check now follows the new policy. */
  'hc-switch': { policy: 'Cluster' | 'Local' };
}

/** The kind of an {@link Action}. */
export type ActionKind = keyof ActionPayloads;

/** The action of kind `K`. */
export type ActionOf<K extends ActionKind> = { kind: K } & ActionPayloads[K];

/** Anything the agenda holds: an action of one kind. */
export type Action = { [K in ActionKind]: ActionOf<K> }[ActionKind];

/** A node as the engine tracks it. */
export interface NodeInt {
  name: string;
  ip: string;
  podCIDR: string;
  up: boolean;
  readyCondition: 'True' | 'False' | 'Unknown';
  unschedulable: boolean;
  /** Taint keys the engine manages (unreachable, unschedulable, ToBeDeletedByClusterAutoscaler). */
  taints: Set<string>;
  /** Bumped on every failure and return: actions scheduled for an older generation are stale. */
  gen: number;
  upSince: SimMs;
  /** When `ToBeDeletedByClusterAutoscaler` was added. */
  taintedAt?: SimMs;
  /** Input taints (kept as they are) that keep the Service's new Pods off the node. */
  blocking: TaintLike[];
  /** Labelled `node.kubernetes.io/exclude-from-external-load-balancers`. */
  excludeLabel: boolean;
  /** The service controller leaves it out of the cloud balancer's targets (the label, not false). */
  excludedFromCloud: boolean;
  /** kube-proxy's last successful rules sync on this node (`lastUpdated` in `/healthz`). */
  lastSync: SimMs;
}

/** A Pod as the engine tracks it: its public state plus a generation and its creation time. */
export interface PodInt extends PodState {
  /** Bumped on every termination and restart: actions for an older generation are stale. */
  gen: number;
  createdAt: SimMs;
}

/** The balancer's standing of one target: consecutive successes and failures. */
export interface HcInt {
  succ: number;
  fail: number;
  inRotation: boolean;
}
