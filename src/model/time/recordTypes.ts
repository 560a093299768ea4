/**
 * The timeline's records (./types.ts re-exports them): what happened and when
 * ({@link TimelineEntry}, by {@link Actor}), each health-check probe, each change of the
 * balancer's rotation and each `kubectl get svc` row. Times are simulated milliseconds.
 */
import type { SimMs } from './types';

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
  /** A `TimelineEvent` (./types.ts) applied (the user's action). */
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
