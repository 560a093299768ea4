/**
 * What the cloud load balancer's health check gets back from each node, now (issue 6 adds
 * the timing: intervals and thresholds).
 *
 * - `externalTrafficPolicy: Local`: the balancer asks `/healthz` on `healthCheckNodePort`
 *   (HTTP; the path every cloud programs: `k8s.io/cloud-provider` `service/helpers.go`
 *   `GetServiceHealthCheckPathPort` returns `"/healthz", port`; kube-proxy itself answers any
 *   path). kube-proxy answers 200 when the node has at least one local *ready* endpoint,
 *   else 503, with a JSON body naming the Service and `localEndpoints`
 *   (`pkg/proxy/healthcheck/service_health.go`, `hcHandler.ServeHTTP`).
 * - `externalTrafficPolicy: Cluster`: the balancer asks kube-proxy's `/healthz` on port
 *   10256, which answers 200 while kube-proxy is healthy and the node is not being deleted
 *   (`proxy_health.go`; KEP-3836 made this the recommended check for Cluster policy), with
 *   the body of the declared Kubernetes version (`./kubeProxyHealthz.ts`).
 * - A node that is down answers nothing: the probe times out.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import { kubeProxyHealthz, type KubeProxyHealthzAnswer } from './kubeProxyHealthz';

/** One probe's result for one node. */
export interface HealthCheckResult {
  node: string;
  /** `http://<node IP>:<port><path>` */
  target: string;
  /** HTTP status, or `null` when the probe timed out. */
  status: number | null;
  /** The response body as kube-proxy writes it, or `''`. */
  body: string;
  healthy: boolean;
  /** A few words for the UI: "200, 1 local endpoint", "503, no local endpoints", "no answer (node down)". */
  summary: string;
}

/** Local ready endpoints of `svc` on `node`, summed over the Service's ports (service_health.go counts per Service). */
export function localReadyEndpoints(
  cluster: Cluster,
  svc: ServiceModel,
  node: ClusterNode,
): number {
  const port = svc.ports[0];
  if (!port) return 0;
  return (cluster.endpoints[servicePortKey(svc, port.name)] ?? []).filter(
    (e) => e.nodeName === node.name && e.ready,
  ).length;
}

/**
 * {@link localReadyEndpoints} for every node at once, by node name (nodes without a local
 * ready endpoint are absent): one pass over the endpoints instead of one per node.
 */
export function localReadyEndpointCounts(cluster: Cluster, svc: ServiceModel): Map<string, number> {
  const counts = new Map<string, number>();
  const port = svc.ports[0];
  if (!port) return counts;
  for (const e of cluster.endpoints[servicePortKey(svc, port.name)] ?? [])
    if (e.ready) counts.set(e.nodeName, (counts.get(e.nodeName) ?? 0) + 1);
  return counts;
}

/**
 * Options of a probe in time (issue 6); all optional, the defaults give the timeless answer.
 */
export interface ProbeOptions {
  /**
   * The node's {@link localReadyEndpoints}, when the caller has counted them already (e.g.
   * with {@link localReadyEndpointCounts} for every node); counted from the cluster when unset.
   */
  localReadyEndpoints?: number;
  /**
   * Under Cluster policy: `healthz` (kube-proxy's `:10256/healthz`, the default) or
   * `nodePort` (a TCP connect to the Service's NodePort: it succeeds when the node answers
   * and kube-proxy has an endpoint to DNAT to; there is no HTTP status).
   */
  clusterCheck?: 'healthz' | 'nodePort';
  /**
   * The clock of kube-proxy's `:10256/healthz` answer ({@link kubeProxyHealthz}), in ms since
   * the Unix epoch: now, its last rules sync, and when it started. Unset: the answer's times
   * read `…` (a probe outside time).
   */
  clock?: { nowMs: number; lastSyncMs: number; startedMs: number };
  /**
   * kube-proxy's `nodeEligible` (proxy_health.go `SyncNode`): false once the Node has a
   * `deletionTimestamp` or the `ToBeDeletedByClusterAutoscaler` taint; `/healthz` then
   * answers 503. Default true.
   */
  nodeEligible?: boolean;
}

/** An answer outside time: every time in the body reads `…`. */
function timeless(a: KubeProxyHealthzAnswer): KubeProxyHealthzAnswer {
  return { status: a.status, body: a.body.replace(/"[^"]*(?:Z|m=\+[0-9.]+)"/g, '"…"') };
}

/**
 * Probes `node` for `svc` the way the balancer does.
 * @returns the probe's result; never throws.
 */
export function probeNode(
  cluster: Cluster,
  svc: ServiceModel,
  node: ClusterNode,
  options: ProbeOptions = {},
): HealthCheckResult {
  const local = svc.externalTrafficPolicy === 'Local' && svc.healthCheckNodePort !== 0;
  const tcp = !local && options.clusterCheck === 'nodePort';
  const target = local
    ? `http://${node.internalIP}:${svc.healthCheckNodePort}/healthz`
    : tcp
      ? `tcp://${node.internalIP}:${svc.ports[0]?.nodePort ?? 0}`
      : `http://${node.internalIP}:10256/healthz`;
  if (!node.ready)
    return {
      node: node.name,
      target,
      status: null,
      body: '',
      healthy: false,
      summary: 'no answer (node down)',
    };
  if (local) {
    const n = options.localReadyEndpoints ?? localReadyEndpoints(cluster, svc, node);
    const body = [
      '{',
      `\t"service": {`,
      `\t\t"namespace": "${svc.namespace}",`,
      `\t\t"name": "${svc.name}"`,
      '\t},',
      `\t"localEndpoints": ${n},`,
      '\t"serviceProxyHealthy": true',
      '}',
    ].join('\n');
    const status = n > 0 ? 200 : 503;
    return {
      node: node.name,
      target,
      status,
      body,
      healthy: status === 200,
      summary:
        n > 0
          ? `${status}, ${n} local endpoint${n === 1 ? '' : 's'}`
          : `${status}, no local endpoints`,
    };
  }
  if (tcp) {
    const port = svc.ports[0];
    const usable = (port ? (cluster.endpoints[servicePortKey(svc, port.name)] ?? []) : []).some(
      (e) => e.ready || (e.serving && e.terminating),
    );
    return {
      node: node.name,
      target,
      status: null,
      body: '',
      healthy: usable,
      summary: usable
        ? 'TCP connect succeeded'
        : 'TCP connect refused (no endpoints: kube-proxy REJECTs)',
    };
  }
  const eligible = options.nodeEligible ?? true;
  // The body of the declared Kubernetes version (proxy_health.go healthzHandler).
  const answer = options.clock
    ? kubeProxyHealthz({ ...options.clock, nodeEligible: eligible })
    : timeless(kubeProxyHealthz({ nowMs: 0, lastSyncMs: 0, startedMs: 0, nodeEligible: eligible }));
  return {
    node: node.name,
    target,
    status: answer.status,
    body: answer.body,
    healthy: eligible,
    summary: eligible ? '200, kube-proxy healthy' : '503, node is being deleted',
  };
}
