/**
 * The timeline's connections (./types.ts re-exports them): each connection's record and fate,
 * the epochs between changes with their path options and routes, the windows in which a dead
 * node still gets traffic, and the many-connections summary. Times are simulated milliseconds.
 */
import type { Outcome } from '../trace/types';
import type { WorldState } from './stateTypes';
import type { SimMs } from './types';

/**
 * What happened to a connection after it was opened.
 * - `completed`: closed normally by its client.
 * - `open`: still open at the end of the run.
 * - `timed-out`: the SYN went to a dead node (or a dead Pod) and never got an answer.
 * - `refused`: kube-proxy rejected it (no endpoints: ICMP port unreachable / TCP RST).
 * - `no-address`: nothing to dial yet (`EXTERNAL-IP <pending>`).
 * - `blackholed`: open, then a node on its path died; packets vanish, nothing answers, the
 *   client sees retransmissions and eventually times out.
 * - `drained`: its Pod was terminating; conntrack kept it on the Pod and it closed normally
 *   before the Pod exited.
 * - `reset`: still open when its Pod's process exited (SIGKILL at the end of the grace
 *   period): the kernel closed the dead process's socket (a FIN, or an RST when data was left
 *   unread), so the application never finished the exchange.
 */
export type ConnectionFate =
  | 'completed'
  | 'open'
  | 'timed-out'
  | 'refused'
  | 'no-address'
  | 'blackholed'
  | 'drained'
  | 'reset';

/** One connection of the workload (or a long-lived one). */
export interface ConnectionRecord {
  /** `c0`, `c1`, … in opening order; long-lived ones `long0`, `long1`, …. */
  id: string;
  client: string;
  openedAt: SimMs;
  /** Index of the {@link Epoch} it was opened in. */
  epoch: number;
  /** The node the balancer (or MetalLB's announcing node) delivered it to; null when none. */
  lbTarget: string | null;
  /** The endpoint `ip:port` kube-proxy DNATed it to; null when none. */
  endpoint: string | null;
  /** `namespace/name` of the Pod, when delivered. */
  pod: string | null;
  /** The node the Pod runs on. */
  podNode: string | null;
  /** Whether it crossed from the balancer's node to another node. */
  crossNode: boolean;
  /** Whether kube-proxy masqueraded it (the Pod sees a node address, not the client's). */
  snat: boolean;
  /** Outcome at opening, as `runScene` reports it for the same pinned choices. */
  outcome: Outcome['kind'];
  fate: ConnectionFate;
  /** When it ended (closed, reset, timed out, blackholed); null while open. */
  endedAt: SimMs | null;
  /** Why it ended as it did, one sentence. */
  fateReason: string;
  /** True for a {@link LongLivedConnection}. */
  longLived: boolean;
}

/** One path option of an epoch: a (balancer target, endpoint) pair with its probability. */
export interface PathOption {
  /** The node the balancer chose; null when no balancer is on the path (in-cluster client, no address). */
  lbTarget: string | null;
  /** The first node the connection enters: `lbTarget`, or the client's own node for an in-cluster client. */
  entryNode: string | null;
  endpoint: string | null;
  /** Probability of a new connection taking this path in this epoch (all options sum to 1). */
  probability: number;
  pod: string | null;
  podNode: string | null;
  crossNode: boolean;
  snat: boolean;
  outcome: Outcome['kind'];
}

/**
 * What happens to a connection after it entered a node, through one of kube-proxy's
 * candidate endpoints: the rest of a {@link PathOption}.
 */
export interface Route {
  pod: string | null;
  podNode: string | null;
  crossNode: boolean;
  snat: boolean;
  outcome: Outcome['kind'];
}

/** A {@link Route} an entry has of its own, for one slot of its {@link CandidateSlots}. */
export interface OwnRoute {
  /** Index into the slots. */
  slot: number;
  route: Route;
}

/**
 * kube-proxy's candidate endpoints once a connection entered a node of one class (nodes of
 * one class hold the same endpoint choice for the Service; see `fastPaths.ts`), in its
 * decision's order. Shared by every entry of the class, so never modified by a reader.
 */
export interface CandidateSlots {
  /** Per slot: the endpoint, `ip:port`; null when the entry's trace had no endpoint decision. */
  endpoints: readonly (string | null)[];
  /** Per slot: the probability of the slot once the connection entered (kube-proxy's; 1 without a decision). */
  weights: readonly number[];
  /**
   * Per slot: the route from an entry node other than the endpoint's own node, when it is the
   * same for every entry of the class; null when each entry has it in its `own`.
   */
  routes: readonly (Route | null)[];
}

/**
 * The paths of an epoch through one entry node, factored: slot `j` is the path
 * `{ lbTarget, entryNode, endpoint: slots.endpoints[j], probability: share × slots.weights[j],
 * ...route }`, its route from `own` when listed there, else `slots.routes[j]`. In entry order
 * then slot order, the paths are {@link Epoch.paths} (the same numbers, computed the same way).
 */
export interface EntryPaths {
  /** The node the balancer chose; null when no balancer is on the path. */
  lbTarget: string | null;
  /** `lbTarget`, or the client's own node for an in-cluster client. */
  entryNode: string | null;
  /** The probability of entering here: the balancer's share of the node (1 without a balancer decision). */
  share: number;
  slots: CandidateSlots;
  /**
   * This entry's routes where `slots.routes` does not hold them (endpoints on the entry node
   * itself, paths traced on their own), ascending by slot; every null slot is here.
   */
  own: readonly OwnRoute[];
}

/**
 * An interval of constant state [from, to): cluster objects, rotation and kube-proxy's
 * rules do not change inside it, so every new connection has the same path probabilities.
 */
export interface Epoch {
  index: number;
  /** The full state, for {@link stateAt}. */
  state: WorldState;
  from: SimMs;
  to: SimMs;
  /** Nodes in the balancer's rotation (MetalLB: the announcing node). */
  inRotation: string[];
  /** Nodes that are down. */
  failedNodes: string[];
  policy: 'Cluster' | 'Local';
  /** Whether EXTERNAL-IP is published. */
  published: boolean;
  /**
   * Every distinct path and its probability, computed once from the model: {@link byEntry}
   * flattened, on first read (a big cluster has nodes × endpoints of them: 10 million at
   * 1,000 nodes). A non-enumerable getter: `JSON.stringify`, `structuredClone` and object
   * spread leave it out; read `byEntry` where size matters.
   */
  readonly paths: PathOption[];
  /** The same paths per entry node, factored ({@link EntryPaths}); plain data. */
  byEntry: EntryPaths[];
}

/**
 * What a node's death cost new connections (issue 6, §4), in two windows.
 * 1. The balancer's: from the failure until the balancer takes the node out of rotation
 *    (health checks); new connections sent *to* the node time out.
 * 2. kube-proxy's: from the failure until kube-proxy on the other nodes stops using the dead
 *    node's Pods — the node lifecycle controller marks the node `NotReady` after
 *    `--node-monitor-grace-period`, its Pods' endpoints turn `ready: false`, and kube-proxy
 *    syncs `endpointPropagationMs` later. Meanwhile healthy nodes keep DNATing new connections
 *    to those Pods, and they time out too.
 */
export interface DeadNodeWindow {
  node: string;
  /** When the node died. */
  failedAt: SimMs;
  /** Whether the node was in the balancer's rotation (MetalLB: announcing) when it died. */
  wasInRotation: boolean;
  /** When the balancer took it out of rotation; null if it never did within the run. */
  leftRotationAt: SimMs | null;
  /** `leftRotationAt − failedAt`, ms; null when it never left. */
  durationMs: SimMs | null;
  /**
   * The worst case the settings allow: `intervalSeconds × unhealthyThreshold` s (plus the
   * last probe's timeout), as ms.
   */
  boundMs: SimMs;
  /** New connections of the workload sent to the dead node in the window. */
  connectionsSent: number;
  /** What the model's probabilities expect for `connectionsSent`: Σ over the window's epochs of (connections × the node's share). */
  expectedConnectionsSent: number;
  /** `ip` of each of the node's Pods whose endpoint was ready when the node died (what other nodes kept DNATing to). */
  staleEndpoints: string[];
  /**
   * When kube-proxy stopped using those endpoints (the sync after the node was marked
   * `NotReady`), or the node's return if earlier; null if neither happened within the run or
   * `staleEndpoints` is empty.
   */
  endpointsUpdatedAt: SimMs | null;
  /**
   * New connections of the workload that entered another node (or came from inside the
   * cluster) and were DNATed to one of `staleEndpoints` in [`failedAt`, `endpointsUpdatedAt`
   * or the end of the run): they time out.
   */
  staleEndpointConnections: number;
  /** What the model's probabilities expect for `staleEndpointConnections`. */
  expectedStaleEndpointConnections: number;
}

/** Counts for one node or one Pod. */
export interface ShareRow {
  /** Node name or Pod `namespace/name`. */
  id: string;
  count: number;
  /** `count / total`. */
  share: number;
  /** From the model's probabilities, weighted by each epoch's number of connections. */
  expectedShare: number;
  /** Connections that crossed to another node on the way (for a node row: entered here and left). */
  crossNode: number;
  /** Connections kube-proxy masqueraded. */
  snat: number;
}

/** The many-connections summary (per node where connections entered, per Pod where they ended). */
export interface ConnectionStats {
  total: number;
  /** Delivered to a Pod. */
  delivered: number;
  /** Not delivered (timed out, refused, no address). */
  failed: number;
  /** Per balancer target node, in node order. */
  perNode: ShareRow[];
  /** Per Pod, sorted by name. */
  perPod: ShareRow[];
  crossNode: number;
  snat: number;
}
