/**
 * Which endpoints kube-proxy uses, per node. Source: kubernetes/kubernetes
 * `pkg/proxy/topology.go`, `CategorizeEndpoints` (topology hints are not modelled).
 *
 * - cluster: ready endpoints; if there are none, the serving-and-terminating ones.
 * - local: this node's ready endpoints; if none, this node's serving-and-terminating ones.
 * - hasAny: some endpoint is ready, or serving and terminating.
 * Endpoints are ordered by their `ip:port` string (kube-proxy sorts them so).
 */
import type { EndpointModel, ServiceModel } from '../scenario/cluster';
import { hostPort } from '../net/ip';

/** The endpoint lists of one service port on one node. */
export interface CategorizedEndpoints {
  cluster: EndpointModel[];
  local: EndpointModel[];
  /** The union of the lists this node's rules can reach, sorted. */
  allReachable: EndpointModel[];
  hasAny: boolean;
}

/** `ip:port` of an endpoint, as kube-proxy prints it. */
export function endpointString(ep: EndpointModel): string {
  return hostPort(ep.ip, ep.port);
}

/** `list` sorted by `ip:port` string, each key computed once (a stable sort, as before). */
function sortedByEndpoint(list: readonly EndpointModel[]): EndpointModel[] {
  const keyed = list.map((ep) => ({ ep, key: endpointString(ep) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.ep);
}

/**
 * kube-proxy's `BaseServicePortInfo.ExternallyAccessible` (`pkg/proxy/serviceport.go`): a
 * NodePort, a VIP-mode load-balancer IP or an externalIP. Asked of the Service, not of one
 * port: a NodePort on any port counts (kube-proxy asks per port; the two differ only for a
 * LoadBalancer with `allocateLoadBalancerNodePorts: false` and a nodePort on some ports).
 */
export function externallyAccessible(svc: ServiceModel): boolean {
  return (
    svc.externalIPs.length > 0 ||
    svc.ingress.some((i) => i.ipMode === 'VIP') ||
    svc.ports.some((p) => p.nodePort !== 0)
  );
}

function usable(list: EndpointModel[]): EndpointModel[] {
  const ready = list.filter((e) => e.ready);
  return ready.length > 0 ? ready : list.filter((e) => e.serving && e.terminating);
}

/**
 * Splits `endpoints` for `nodeName` as kube-proxy does.
 * @param svc the Service: its traffic policies decide which lists are needed
 */
export function categorizeEndpoints(
  endpoints: readonly EndpointModel[],
  svc: ServiceModel,
  nodeName: string,
): CategorizedEndpoints {
  const sorted = sortedByEndpoint(endpoints);
  const hasAny = sorted.some((e) => e.ready || (e.serving && e.terminating));
  // serviceport.go UsesLocalEndpoints: `InternalPolicyLocal() || (ExternalPolicyLocal() &&
  // ExternallyAccessible())`.
  const usesLocal =
    svc.internalTrafficPolicy === 'Local' ||
    (svc.externalTrafficPolicy === 'Local' && externallyAccessible(svc));
  // serviceport.go UsesClusterEndpoints: `!InternalPolicyLocal() || ExternallyAccessible()`
  // — "Even if the external traffic policy is Local, we need Cluster endpoints to implement
  // short circuiting."
  const usesCluster = svc.internalTrafficPolicy !== 'Local' || externallyAccessible(svc);
  const cluster = usesCluster ? usable(sorted) : [];
  const local = usesLocal ? usable(sorted.filter((e) => e.nodeName === nodeName)) : [];
  // `cluster` is sorted already: the union needs sorting only when `local` adds to it.
  const seen = new Set<string>();
  const union: EndpointModel[] = [];
  let added = false;
  for (const list of [cluster, local])
    for (const e of list) {
      const k = endpointString(e);
      if (seen.has(k)) continue;
      seen.add(k);
      union.push(e);
      if (list === local) added = true;
    }
  const allReachable = added ? sortedByEndpoint(union) : union;
  return { cluster, local, allReachable, hasAny };
}
