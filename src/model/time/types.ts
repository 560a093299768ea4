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
 *
 * This module holds the inputs ({@link TimelineInput}) and the {@link Timeline} itself; the
 * timeline's records (entries, probes, rotation, `kubectl get svc` rows) are in
 * ./recordTypes.ts, its connections and epochs in ./connectionTypes.ts, the tracked cluster
 * state in ./stateTypes.ts. All are re-exported here.
 */
import type { ScenarioObject } from '../k8s/objects';
import type { Choices, SceneOptions } from '../scenario/scene';
import type { ConnectionRecord, ConnectionStats, DeadNodeWindow, Epoch } from './connectionTypes';
import type { ProbeRecord, RotationChange, SvcRow, TimelineEntry } from './recordTypes';

export type * from './recordTypes';
export type * from './connectionTypes';
export type * from './stateTypes';

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
