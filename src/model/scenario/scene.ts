/**
 * Scene options: the toggles a learner flips. Each one is applied to the scenario's
 * *objects* (a Service field, a Node condition, an EndpointSlice condition, the balancer),
 * exactly as the change would appear in a real cluster, and the model is re-run — a toggle
 * never changes only the picture.
 */
import type { ScenarioObject } from '../k8s/objects';
import type { LoadBalancerDelivery, LoadBalancerImplementation } from '../k8s/objects';

/** What the client dials. */
export type DialTarget =
  | { kind: 'LoadBalancer' }
  | { kind: 'NodePort'; nodeName: string }
  | { kind: 'ClusterIP' }
  /**
   * `spec.externalIPs[0]` on the Service port. Kubernetes does not route an externalIP
   * ("the responsibility of the cluster administrator", Service docs): `nodeName` is the node
   * the network's route for it points at.
   */
  | { kind: 'ExternalIP'; nodeName: string };

/** Pinned choices; unset means "draw from the seed". */
export interface Choices {
  /** The node the cloud load balancer sends the connection to. */
  lbTarget?: string;
  /** The endpoint (`ip:port`) kube-proxy DNATs to. */
  endpoint?: string;
  /**
   * The nodes in the balancer's rotation, as a timeline decided them (health-check history,
   * thresholds); unset: the nodes whose health check passes right now. A node in this list
   * gets its share of new connections even when it is down (the window before the balancer
   * notices). Issue 6, `src/model/time/`.
   */
  rotation?: string[];
}

/** Every toggle of the visualiser. */
export interface SceneOptions {
  externalTrafficPolicy: 'Cluster' | 'Local';
  ipMode: 'VIP' | 'Proxy';
  /** How the balancer delivers under `ipMode: VIP`. */
  delivery: LoadBalancerDelivery;
  /**
   * What carries the connection to a node, and so where the reply goes
   * (`CloudLoadBalancer.spec.implementation`); unset keeps the scenario's own.
   */
  implementation?: LoadBalancerImplementation;
  /** Whether the cloud has published `status.loadBalancer.ingress` yet. */
  published: boolean;
  /** Nodes that are down (powered off / partitioned), by name. */
  failedNodes: string[];
  /**
   * Nodes that are down but whose failure the control plane has not noticed yet (before
   * kube-controller-manager's `--node-monitor-grace-period`): they answer nothing (no probe
   * answer, no forwarding, no Pod), yet their Node `Ready` condition and their endpoints
   * still read as they did. Unlike {@link failedNodes} the objects are left alone; `runScene`
   * marks these nodes not ready in the resolved cluster. Issue 6, `src/model/time/`.
   */
  downNodes?: string[];
  /** The client's name (a `Client` object): `internet`, `node` or `pod` in the canonical scenario. */
  client: string;
  dial: DialTarget;
  choices: Choices;
  /** `namespace/name` of the Service to trace; unset: the first LoadBalancer Service. */
  service?: string;
  /** `spec.ports[].name` of the port to dial; unset: the Service's first port. */
  port?: string;
  /** kube-proxy's mode (`KubeProxyConfiguration.mode`); unset keeps the scenario's own. */
  proxyMode?: 'iptables' | 'nftables' | 'ipvs';
  /** Seed for every random draw (balancer choice, `statistic` match, masquerade port). */
  seed: number;
}

/** The options a newcomer starts with: the canonical scenario's own values. */
export const DEFAULT_SCENE: SceneOptions = {
  externalTrafficPolicy: 'Cluster',
  ipMode: 'VIP',
  delivery: 'NodePort',
  published: true,
  failedNodes: [],
  client: 'internet',
  dial: { kind: 'LoadBalancer' },
  choices: {},
  seed: 1,
};

/** The healthCheckNodePort the API server would allocate when the policy becomes Local. */
export const DEFAULT_HEALTH_CHECK_NODE_PORT = 32191;

/**
 * Returns new objects with the scene's toggles applied (the input is not modified):
 * - `externalTrafficPolicy` on every LoadBalancer Service; `Local` allocates a
 *   `healthCheckNodePort` when none is set, `Cluster` clears it (the API server does both).
 * - `ipMode` on every `status.loadBalancer.ingress[]` entry that has an `ip`, never on a
 *   hostname-only entry (the API rejects it: "may not be specified when `ip` is not set",
 *   `pkg/apis/core/validation` ValidateLoadBalancerStatus); `published: true` keeps the
 *   ingress as given, IPs and hostnames alike (an AWS balancer's DNS name is published too);
 *   `published: false` empties `status.loadBalancer` (EXTERNAL-IP `<pending>`).
 * - `delivery` (and `implementation`, when set) on every CloudLoadBalancer; `proxyMode` on the
 *   KubeProxyConfiguration.
 * - A failed node: its `Ready` condition becomes `Unknown` (the node lifecycle controller's
 *   "NodeStatusUnknown"), its Pods lose `Ready`, and their endpoints become
 *   `ready: false, serving: false` — what the control plane publishes once it notices.
 *
 * Copy on write: an object a toggle changes is copied (deeply, or along the path that
 * changes), every other object is the input's own, so a 10,000-Pod cluster costs only the
 * objects the scene touches. Treat the result as read-only, like the input.
 */
export function applyScene(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
): ScenarioObject[] {
  const failed = new Set(scene.failedNodes);
  const failedPods = new Set<string>();
  if (failed.size > 0)
    for (const o of objects)
      if (o.kind === 'Pod' && failed.has(o.spec?.nodeName ?? ''))
        failedPods.add(`${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`);
  return objects.map((o) => {
    switch (o.kind) {
      case 'Pod': {
        if (!failed.has(o.spec?.nodeName ?? '') || !o.status) return o;
        return {
          ...o,
          status: {
            ...o.status,
            conditions: (o.status.conditions ?? []).map((c) =>
              c.type === 'Ready' ? { ...c, status: 'False' } : c,
            ),
          },
        };
      }
      case 'Service': {
        if (o.spec?.type !== 'LoadBalancer') return o;
        const svc = structuredClone(o);
        const spec = svc.spec as NonNullable<typeof svc.spec>;
        spec.externalTrafficPolicy = scene.externalTrafficPolicy;
        if (scene.externalTrafficPolicy === 'Local')
          spec.healthCheckNodePort ??= DEFAULT_HEALTH_CHECK_NODE_PORT;
        else delete spec.healthCheckNodePort;
        if (!scene.published) (svc as { status?: unknown }).status = { loadBalancer: {} };
        else
          for (const ing of svc.status?.loadBalancer?.ingress ?? [])
            if (ing.ip) ing.ipMode = scene.ipMode;
        return svc;
      }
      case 'Node': {
        if (!failed.has(o.metadata?.name ?? '') || !o.status) return o;
        return {
          ...o,
          status: {
            ...o.status,
            conditions: (o.status.conditions ?? []).map((c) =>
              c.type === 'Ready'
                ? {
                    ...c,
                    status: 'Unknown',
                    reason: 'NodeStatusUnknown',
                    message: 'Kubelet stopped posting node status.',
                  }
                : c,
            ),
          },
        };
      }
      case 'EndpointSlice': {
        if (failed.size === 0 || !o.endpoints) return o;
        const down = (ep: NonNullable<typeof o.endpoints>[number]) => {
          const ref = ep.targetRef;
          return (
            failed.has(ep.nodeName ?? '') ||
            failedPods.has(`${ref?.namespace ?? 'default'}/${ref?.name ?? ''}`)
          );
        };
        if (!o.endpoints.some(down)) return o;
        return {
          ...o,
          endpoints: o.endpoints.map((ep) =>
            down(ep)
              ? { ...ep, conditions: { ready: false, serving: false, terminating: false } }
              : ep,
          ),
        };
      }
      case 'CloudLoadBalancer':
        return {
          ...o,
          spec: {
            ...o.spec,
            delivery: scene.delivery,
            ...(scene.implementation ? { implementation: scene.implementation } : {}),
          },
        };
      case 'KubeProxyConfiguration':
        return scene.proxyMode ? { ...o, mode: scene.proxyMode } : o;
      default:
        return o;
    }
  });
}
