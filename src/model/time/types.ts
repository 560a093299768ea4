/**
 * The timeline API (issue 6, "Time, health and failure"): every public type of the virtual
 * clock, the provisioning sequence, the balancer's health checks, failures and the
 * many-connections workload.
 *
 * Units: every time on the timeline is **simulated milliseconds** ({@link SimMs}) since the
 * start of the simulation (t = 0 is when the Service is created at the API server, or the
 * start of the run when the Service already exists). Health-check settings are in
 * **seconds**, as the clouds express them (GCP `checkIntervalSec`, AWS
 * `HealthCheckIntervalSeconds`). Nothing here reads a wall clock.
 */
import type { ScenarioObject } from '../k8s/objects';
import type { Choices, SceneOptions } from '../scenario/scene';
import type { Outcome } from '../trace/types';

/** Simulated time in milliseconds since the start of the simulation (never wall-clock time). */
export type SimMs = number;

/**
 * Who provisions the Service's load balancer.
 * - `cloud`: a cloud-controller-manager's service controller (GCP/AWS/Azure style).
 * - `none`: no controller implements `type: LoadBalancer` (bare metal, kind, minikube
 *   without a tunnel): `EXTERNAL-IP` stays `<pending>` for good.
 * - `metallb-l2`: MetalLB in layer-2 mode: an address from an `IPAddressPool`, announced by
 *   one node's speaker with ARP; no health checks, failover when memberlist notices.
 */
export type ControllerKind = 'cloud' | 'none' | 'metallb-l2';

/**
 * What the balancer's health check asks under `externalTrafficPolicy: Cluster`.
 * - `healthz`: kube-proxy's `/healthz` on port 10256 (KEP-3836's recommendation; 503 when the
 *   node is being deleted).
 * - `nodePort`: a TCP connect to the Service's NodePort (any answer from kube-proxy's rules
 *   counts; only a dead node fails).
 * Under `Local` the balancer always asks `healthCheckNodePort` (HTTP).
 */
export type ClusterHealthCheckTarget = 'healthz' | 'nodePort';

/**
 * The balancer's health-check settings, in seconds and counts as the clouds express them.
 * Defaults: {@link DEFAULT_HEALTH_CHECK} (GCP's external passthrough L4 balancer as the
 * cloud-controller-manager creates it).
 */
export interface HealthCheckSettings {
  /** Seconds between two probes of the same node (GCP `checkIntervalSec`). */
  intervalSeconds: number;
  /** Seconds the balancer waits for an answer before counting the probe failed (GCP `timeoutSec`). */
  timeoutSeconds: number;
  /** Consecutive successes that bring an out-of-rotation node back (GCP `healthyThreshold`). */
  healthyThreshold: number;
  /** Consecutive failures that take an in-rotation node out (GCP `unhealthyThreshold`). */
  unhealthyThreshold: number;
  /** What is probed under `externalTrafficPolicy: Cluster`. */
  clusterTarget: ClusterHealthCheckTarget;
}

/** MetalLB layer-2 settings. */
export interface MetalLbSettings {
  /** `IPAddressPool` name the address is taken from. */
  poolName: string;
  /** The pool's `spec.addresses` entry, e.g. `192.168.0.240-192.168.0.250`. */
  poolRange: string;
  /**
   * Simulated ms between a node's failure and memberlist declaring it dead, after which
   * another speaker takes the address over and sends gratuitous ARP.
   */
  failoverDetectMs: SimMs;
  /**
   * The speaker's `--ignore-exclude-lb` flag (Helm `speaker.ignoreExcludeLB`). Default false:
   * speakers on nodes labelled `node.kubernetes.io/exclude-from-external-load-balancers`
   * never announce (metallb `speaker/layer2_controller.go` `speakersForPool`,
   * `k8s/nodes.IsNodeExcludedFromBalancers`: the label's presence, whatever its value).
   */
  ignoreExcludeLb: boolean;
}

/**
 * Delays of the provisioning chain (control flow), all in simulated ms from the previous
 * step. Defaults: {@link DEFAULT_PROVISIONING}.
 */
export interface ProvisioningSettings {
  controller: ControllerKind;
  /** Service created → the service controller's informer delivers it (watch latency). */
  informerDelayMs: SimMs;
  /** `EnsuringLoadBalancer` → the cloud has built the forwarding rule / target pool (provider delay). */
  provisionDelayMs: SimMs;
  /** Load balancer built → every node registered as a target. */
  registerDelayMs: SimMs;
  /**
   * Whether the run starts with the Service being created (`true`: provisioning happens on
   * the timeline) or with the balancer already provisioned and every node in rotation.
   */
  fromCreation: boolean;
  metallb: MetalLbSettings;
}

/**
 * Control-plane delays that shape a failure. Defaults: {@link DEFAULT_CONTROL_PLANE}
 * (each cited there).
 */
export interface ControlPlaneSettings {
  /** kube-controller-manager `--node-monitor-grace-period`, seconds, before a silent node's `Ready` becomes `Unknown`. */
  nodeMonitorGracePeriodSeconds: number;
  /** EndpointSlice change → every kube-proxy has synced its rules, ms (small; configurable). */
  endpointPropagationMs: SimMs;
  /** `tolerationSeconds` of the `node.kubernetes.io/unreachable:NoExecute` toleration the API server adds to Pods (300). */
  unreachableTolerationSeconds: number;
  /** New Pod scheduled → `Ready` (image pull, start, readiness probe), ms. */
  readinessDelayMs: SimMs;
  /** Pod `spec.terminationGracePeriodSeconds` (API default 30). */
  terminationGracePeriodSeconds: number;
  /**
   * How long a Pod's application keeps running after SIGTERM before it exits by itself, ms.
   * Unset (or ≥ the grace period): it runs until SIGKILL at the end of the grace period.
   */
  appExitAfterSigtermMs?: SimMs;
}

/** A change at a chosen simulated time. Node and Pod names are `metadata.name` (Pods: `namespace/name` also accepted). */
export type TimelineEvent =
  /** The node stops: kubelet, kube-proxy and its Pods are gone; it answers nothing. */
  | { at: SimMs; kind: 'fail-node'; node: string }
  /** A failed node comes back: kubelet posts `Ready` again, its Pods restart. */
  | { at: SimMs; kind: 'restore-node'; node: string }
  /** `kubectl drain`: cordon, then every Pod of the Service on it terminates gracefully. */
  | { at: SimMs; kind: 'drain-node'; node: string }
  /** `kubectl uncordon`. */
  | { at: SimMs; kind: 'uncordon-node'; node: string }
  /**
   * cluster-autoscaler scales the node down: it adds the taint
   * `ToBeDeletedByClusterAutoscaler:NoSchedule` and evicts the node's Pods. kube-proxy on the
   * node then answers `/healthz` with 503 and `"nodeEligible":false` while it keeps
   * forwarding (KEP-3836), so the balancer drains the node before it goes. The run keeps the
   * machine up; schedule `fail-node` after it to power it off.
   */
  | { at: SimMs; kind: 'scale-down-node'; node: string }
  /** `kubectl delete pod` (graceful, `terminationGracePeriodSeconds`); the Deployment replaces it. */
  | { at: SimMs; kind: 'kill-pod'; pod: string }
  /** `kubectl scale deployment --replicas=N` for the Service's backends. */
  | { at: SimMs; kind: 'scale'; replicas: number }
  /** `kubectl patch svc … externalTrafficPolicy`. */
  | { at: SimMs; kind: 'set-policy'; policy: 'Cluster' | 'Local' };

/** The kind of a {@link TimelineEvent}. */
export type TimelineEventKind = TimelineEvent['kind'];

/** One long-lived connection of a chosen client (e.g. a WebSocket), followed across changes. */
export interface LongLivedConnection {
  /** A `Client` object's name, or a source IPv4 address (an Internet client at that address). */
  client: string;
  openedAt: SimMs;
  /** When the client would close it by itself; unset: it stays open to the end of the run. */
  closesAt?: SimMs;
}

/**
 * The connection workload: `count` new connections from `client`, spread evenly over
 * [`startMs`, `startMs + periodMs`) — connection *i* opens at `startMs + i × periodMs / count`
 * (a fixed rate, so tests can compute counts by hand) — each held open `holdMs`.
 */
export interface ConnectionWorkload {
  /** 0 … 100,000 new connections. */
  count: number;
  startMs: SimMs;
  periodMs: SimMs;
  /** How long each connection stays open, ms (0: a one-shot request). */
  holdMs: SimMs;
  /** A `Client` object's name, or a source IPv4 address; default the scenario's Internet client. */
  client?: string;
  /** Connections followed one by one across changes. */
  longLived?: LongLivedConnection[];
}

/** Everything {@link simulate} needs. Optional parts take the documented defaults. */
export interface TimelineInput {
  objects: readonly ScenarioObject[];
  /** Toggles as in the single-packet view; `choices` and `failedNodes` are ignored (the timeline decides them). */
  scene: SceneOptions;
  events: readonly TimelineEvent[];
  healthCheck?: Partial<HealthCheckSettings>;
  provisioning?: Partial<Omit<ProvisioningSettings, 'metallb'>> & {
    metallb?: Partial<MetalLbSettings>;
  };
  controlPlane?: Partial<ControlPlaneSettings>;
  workload?: Partial<ConnectionWorkload>;
  /** Seed of every random draw (connection paths, source ports); default `scene.seed`. */
  seed?: number;
  /** End of the run, ms; default: 60 s after the last event or workload end, whichever is later. */
  horizonMs?: SimMs;
}

/** The component that did something, for lanes and labels. */
export type Actor =
  | 'user'
  | 'api-server'
  | 'service-controller'
  | 'cloud'
  | 'balancer'
  | 'node-lifecycle-controller'
  | 'endpointslice-controller'
  | 'kubelet'
  | 'kube-proxy'
  | 'cluster-autoscaler'
  | 'metallb-controller'
  | 'metallb-speaker'
  | 'scheduler'
  | 'deployment-controller'
  | 'replicaset-controller'
  | 'conntrack';

/** What a {@link TimelineEntry} records. */
export type TimelineEntryKind =
  /** A {@link TimelineEvent} applied (the user's action). */
  | 'event'
  /** A Kubernetes Event (`kubectl get events`), with the controller's real `reason`. */
  | 'k8s-event'
  /** A provisioning step outside the API (the cloud built something). */
  | 'provisioning'
  /** `status.loadBalancer.ingress` published (EXTERNAL-IP set). */
  | 'published'
  /** A node's condition changed (node lifecycle controller). */
  | 'node-condition'
  /** A taint added or removed. */
  | 'taint'
  /** An EndpointSlice endpoint's conditions changed. */
  | 'endpoints'
  /** kube-proxy rewrote its rules after an EndpointSlice change. */
  | 'kube-proxy-sync'
  /** A Pod's phase/readiness changed (created, Ready, terminating, gone). */
  | 'pod'
  /** A node entered or left the balancer's rotation. */
  | 'rotation'
  /** ARP: who-has / is-at / gratuitous (MetalLB layer 2). */
  | 'arp'
  /** Something about already-open connections (blackholed, drained, reset). */
  | 'connections'
  /** An explanation: why something does not happen (e.g. no controller). */
  | 'note';

/** One thing that happened at one simulated time. Entries are sorted by `at`, then by `seq`. */
export interface TimelineEntry {
  at: SimMs;
  /** Tie-breaker: order of insertion among entries with the same `at`; unique in a timeline. */
  seq: number;
  kind: TimelineEntryKind;
  actor: Actor;
  /** A Kubernetes Event reason (`EnsuringLoadBalancer`, `EnsuredLoadBalancer`, `NodeNotReady`, `Killing`, …) when there is one. */
  reason?: string;
  /** One sentence for the UI and the CLI. */
  message: string;
  node?: string;
  /** `namespace/name`. */
  pod?: string;
}

/** One health-check probe of one node by the balancer. */
export interface ProbeRecord {
  /** When the probe was sent. */
  at: SimMs;
  /** When the result was known: the answer's arrival, or `at + timeoutSeconds × 1000` on a timeout. */
  doneAt: SimMs;
  node: string;
  /** `http://<node IP>:<port><path>`, or `tcp://<node IP>:<nodePort>` for a TCP check. */
  target: string;
  /** HTTP status; `null` when the probe timed out (or for a TCP check, which has none). */
  status: number | null;
  /** The body kube-proxy wrote, or `''`. */
  body: string;
  ok: boolean;
  /** A few words: "200, 1 local endpoint", "timed out after 2 s". */
  summary: string;
  /** Consecutive successes after this probe (0 after a failure). */
  consecutiveSuccesses: number;
  /** Consecutive failures after this probe (0 after a success). */
  consecutiveFailures: number;
  /** Whether the node is in the balancer's rotation after this probe. */
  inRotation: boolean;
}

/** A node entering or leaving the balancer's rotation. */
export interface RotationChange {
  at: SimMs;
  node: string;
  inRotation: boolean;
  /** "registered", "2 consecutive failed probes (unhealthy threshold 2)", "2 consecutive successes". */
  reason: string;
}

/** `kubectl get svc` for the traced Service, as it reads from `at` on (until the next row). */
export interface SvcRow {
  at: SimMs;
  NAME: string;
  TYPE: string;
  'CLUSTER-IP': string;
  /** `<pending>` until `status.loadBalancer.ingress` is published. */
  'EXTERNAL-IP': string;
  /** e.g. `80:31000/TCP`. */
  'PORT(S)': string;
  /** kubectl's `duration.HumanDuration` of the Service's age at `at` (`45s`, `2m10s`). */
  AGE: string;
}

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

/** A Pod as the timeline tracks it. */
export interface PodState {
  /** `namespace/name`. */
  key: string;
  name: string;
  namespace: string;
  ip: string;
  node: string;
  /** `Pending` until scheduled and started, `Running`, or `Terminating` (deletionTimestamp set). */
  phase: 'Pending' | 'Running' | 'Terminating';
  /** The Pod's `Ready` condition. */
  ready: boolean;
  /** When `metadata.deletionTimestamp` was set (Terminating), simulated ms. */
  deletedAt?: SimMs;
}

/** One endpoint as kube-proxy last synced it (EndpointSlice `conditions`). */
export interface EndpointState {
  /** `namespace/name` of the Pod. */
  pod: string;
  ip: string;
  node: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/** A node as the timeline tracks it. */
export interface NodeState {
  name: string;
  /** Powered on and answering (kubelet, kube-proxy and Pods running). */
  up: boolean;
  /** The `Ready` condition as the API server shows it (`Unknown` once the node lifecycle controller notices). */
  readyCondition: 'True' | 'False' | 'Unknown';
  /** `spec.unschedulable` (cordoned). */
  unschedulable: boolean;
  /** Taint keys on the node, e.g. `node.kubernetes.io/unreachable`. */
  taints: string[];
  /** When `ToBeDeletedByClusterAutoscaler` was added (its value is that Unix time). */
  taintedAt?: SimMs;
}

/**
 * The state of the world during one {@link Epoch}: plain data from which
 * {@link stateAt} rebuilds objects and scene.
 */
export interface WorldState {
  nodes: NodeState[];
  /** Every backend Pod of the Service, including terminating ones, sorted by key. */
  pods: PodState[];
  /** The endpoints as kube-proxy has programmed them (lags the API by `endpointPropagationMs`). */
  endpoints: EndpointState[];
  policy: 'Cluster' | 'Local';
  /** Whether `status.loadBalancer.ingress` is published. */
  published: boolean;
  /** Nodes in the balancer's rotation (MetalLB: the announcing node only). */
  inRotation: string[];
  /** MetalLB: the node whose speaker answers ARP for the address; null otherwise or before assignment. */
  announcingNode: string | null;
}

/** Everything {@link simulate} returns. Plain data: safe to `JSON.stringify`. */
export interface Timeline {
  /** The scenario the run started from (with the input's toggles, before any event). */
  base: { objects: ScenarioObject[]; scene: SceneOptions; events: TimelineEvent[] };
  /** The input with every default filled in. */
  settings: {
    healthCheck: HealthCheckSettings;
    provisioning: ProvisioningSettings;
    controlPlane: ControlPlaneSettings;
    workload: ConnectionWorkload;
    seed: number;
    horizonMs: SimMs;
  };
  /** `namespace/name` of the Service. */
  service: string;
  /** The address the cloud balancer or MetalLB publishes (EXTERNAL-IP once published). */
  address: string;
  /** Every entry, sorted by (`at`, `seq`). */
  entries: TimelineEntry[];
  /** Every probe, sorted by (`at`, node order). */
  probes: ProbeRecord[];
  /**
   * When the balancer's targets were registered (every node not excluded from external load
   * balancers; from then on each is probed), 0 when the run starts provisioned; null when no
   * cloud balancer ever registers targets (no controller, MetalLB).
   */
  registeredAt: SimMs | null;
  /** The nodes registered as the balancer's targets (empty when `registeredAt` is null). */
  targets: string[];
  rotation: RotationChange[];
  /** `kubectl get svc` rows at each change of EXTERNAL-IP (AGE as of the row's `at`); use {@link svcRowAt} for any time. */
  svc: SvcRow[];
  epochs: Epoch[];
  connections: ConnectionRecord[];
  deadNodeWindows: DeadNodeWindow[];
  stats: ConnectionStats;
}

/**
 * The cluster as of one moment: objects and toggles that `runScene` accepts.
 * Nodes that are down appear in `scene.downNodes` (never in `failedNodes`: the objects
 * already carry what the control plane has noticed — Node `Ready` `Unknown`, endpoints not
 * ready — as of `at`). `scene.choices.rotation` is the balancer's rotation as of `at`.
 */
export interface ClusterSnapshot {
  at: SimMs;
  /** Index of the {@link Epoch} `at` falls in. */
  epoch: number;
  objects: ScenarioObject[];
  scene: SceneOptions;
}

/** The options `stats` needs (a workload without events). */
export interface StatsInput {
  objects: readonly ScenarioObject[];
  scene: SceneOptions;
  /** 1 … 100,000. */
  connections: number;
  seed?: number;
  /** A `Client` object's name or a source IPv4 address. */
  client?: string;
}

/** Result of {@link benchmarkSampling}. */
export interface BenchmarkResult {
  connections: number;
  /** Time spent sampling, in the units of the clock the caller passed in (milliseconds in our benches). */
  elapsedMs: number;
  connectionsPerSecond: number;
}

export type { Choices };
