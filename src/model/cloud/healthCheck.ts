/**
 * What the cloud load balancer's health check gets back from each node, now (issue 6 adds
 * the timing: intervals and thresholds).
 *
 * - `externalTrafficPolicy: Local`: the balancer asks `healthCheckNodePort` (HTTP, any
 *   path). kube-proxy answers 200 when the node has at least one local *ready* endpoint,
 *   else 503, with a JSON body naming the Service and `localEndpoints`
 *   (`pkg/proxy/healthcheck/service_health.go`, `hcHandler.ServeHTTP`).
 * - `externalTrafficPolicy: Cluster`: the balancer asks kube-proxy's `/healthz` on port
 *   10256, which answers 200 while kube-proxy is healthy and the node is not being deleted
 *   (`proxy_health.go`; KEP-3836 made this the recommended check for Cluster policy).
 * - A node that is down answers nothing: the probe times out.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';

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
 * Probes `node` for `svc` the way the balancer does.
 * @returns the probe's result; never throws.
 */
export function probeNode(
  cluster: Cluster,
  svc: ServiceModel,
  node: ClusterNode,
): HealthCheckResult {
  const local = svc.externalTrafficPolicy === 'Local' && svc.healthCheckNodePort !== 0;
  const target = local
    ? `http://${node.internalIP}:${svc.healthCheckNodePort}/`
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
    const n = localReadyEndpoints(cluster, svc, node);
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
  return {
    node: node.name,
    target,
    status: 200,
    body: '{"lastUpdated": "…","currentTime": "…", "nodeEligible": true}',
    healthy: true,
    summary: '200, kube-proxy healthy',
  };
}
