/**
 * The endpoints kube-proxy's iptables proxier holds per service port, and the cluster-size
 * switch they drive. Sources: kubernetes `pkg/proxy/endpointslicecache.go`
 * (`EndpointSliceCache.addEndpoints`) and `pkg/proxy/iptables/proxier.go` (`syncProxyRules`,
 * `largeClusterEndpointsThreshold`, `appendServiceCommentLocked`).
 */
import type { Cluster, EndpointModel } from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import { endpointString } from '../endpoints';

/** Above this many endpoints in total, kube-proxy drops the per-endpoint comments. */
export const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;

/**
 * One endpoint per `ip:port`, as `addEndpoints` keeps them: when the same address is listed
 * twice (an endpoint moving between slices, or a pod IP reused while the old pod terminates),
 * a later entry replaces an earlier one unless the later one is terminating.
 */
export function endpointSet(list: readonly EndpointModel[]): EndpointModel[] {
  const set = new Map<string, EndpointModel>();
  for (const ep of list) {
    const key = endpointString(ep);
    if (!set.has(key) || !ep.terminating) set.set(key, ep);
  }
  return [...set.values()];
}

/**
 * `largeClusterMode`: the total of all service ports' endpoints (ready or not) is above
 * {@link LARGE_CLUSTER_ENDPOINTS_THRESHOLD}; then `appendServiceCommentLocked` leaves the
 * `-m comment` out of the KUBE-SEP- rules and of the KUBE-SVC-/KUBE-SVL- rules that jump to them.
 */
export function isLargeCluster(cluster: Cluster): boolean {
  // Asked once per node whose rules are written: answered once per cluster (a resolved
  // cluster is not changed afterwards).
  const known = largeByCluster.get(cluster);
  if (known !== undefined) return known;
  const large = countPastThreshold(cluster);
  largeByCluster.set(cluster, large);
  return large;
}

const largeByCluster = new WeakMap<Cluster, boolean>();

function countPastThreshold(cluster: Cluster): boolean {
  // Counts distinct `ip:port`s per service port (as endpointSet keeps them), stopping as soon
  // as the threshold is passed: a 10,000-endpoint cluster is known large after 1,001.
  let total = 0;
  for (const svc of cluster.services)
    for (const port of svc.ports) {
      const seen = new Set<string>();
      for (const ep of cluster.endpoints[servicePortKey(svc, port.name)] ?? []) {
        const key = endpointString(ep);
        if (seen.has(key)) continue;
        seen.add(key);
        if (++total > LARGE_CLUSTER_ENDPOINTS_THRESHOLD) return true;
      }
    }
  return false;
}
