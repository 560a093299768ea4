/**
 * Where the reply goes, per balancer (issue 14, point 9): back through a NAT or proxying
 * balancer, straight from the node (direct server return), or from the node because there is
 * no balancer at all (MetalLB). The facts and their sources are on
 * {@link LoadBalancerImplementation} (`k8s/objects.ts`); this file derives what the trace,
 * the drawing and the narration need from the balancer's implementation and the ingress's
 * `ipMode`.
 */
import type { Cluster, LoadBalancerModel, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import { metallbLeader } from '../time/metallb';
import type { Candidate } from '../trace/types';
import { excludedFromCloudBalancer } from './exclude';

export { implementationLine, implementationName, isMetalLB, replyRoute } from './replyRoute';
export type { ReplyRoute } from './replyRoute';

/**
 * The nodes whose MetalLB speaker may announce the Service's address: alive (the node is
 * ready: memberlist, or the BGP session, goes with it), not labelled
 * `node.kubernetes.io/exclude-from-external-load-balancers` (MetalLB honours it), some endpoint
 * can serve anywhere, and under Local the node has one of its own (`epslices.EndpointCanServe`:
 * ready, or serving). Sources: `speaker/layer2_controller.go` and `speaker/bgp_controller.go`
 * ShouldAnnounce.
 */
function speakers(cluster: Cluster, svc: ServiceModel): string[] {
  const eps = cluster.endpoints[servicePortKey(svc, svc.ports[0]?.name ?? '')] ?? [];
  const canServe = eps.filter((e) => e.ready || e.serving);
  if (canServe.length === 0) return [];
  return cluster.nodes
    .filter((n) => n.ready && !excludedFromCloudBalancer(n.labels))
    .filter(
      (n) => svc.externalTrafficPolicy === 'Cluster' || canServe.some((e) => e.nodeName === n.name),
    )
    .map((n) => n.name);
}

/**
 * MetalLB's choice of node for a new connection, as candidates (every node, shares summing to
 * 1 over the eligible ones): in layer 2 the one node whose speaker answers ARP (the leader,
 * `metallbLeader`), in BGP every announcing node with an equal share (the router's ECMP hash
 * spreads connections evenly over many clients).
 * @param rotation when given (a timeline's decision), exactly these nodes hold the address.
 */
export function metallbCandidates(
  cluster: Cluster,
  svc: ServiceModel,
  lb: LoadBalancerModel,
  rotation?: readonly string[],
): Candidate[] {
  const ip = svc.ingress[0]?.ip ?? lb.address;
  const l2 = lb.implementation === 'MetalLB-L2';
  let holders: string[];
  if (rotation) holders = cluster.nodes.filter((n) => rotation.includes(n.name)).map((n) => n.name);
  else if (l2) {
    const eps = (cluster.endpoints[servicePortKey(svc, svc.ports[0]?.name ?? '')] ?? []).map(
      (e) => ({ ...e, node: e.nodeName, pod: e.podName }),
    );
    const alive = speakers(cluster, svc);
    const leader = alive.length ? metallbLeader(alive, ip, svc.externalTrafficPolicy, eps) : null;
    holders = leader ? [leader] : [];
  } else holders = speakers(cluster, svc);
  return cluster.nodes.map((n) => {
    const holds = holders.includes(n.name);
    return {
      id: n.name,
      label: n.name,
      probability: holds ? 1 / holders.length : 0,
      eligible: holds,
      status: l2
        ? holds
          ? `its speaker answers ARP for ${ip} (the layer 2 leader)`
          : `its speaker does not announce ${ip}`
        : holds
          ? `announces ${ip} over BGP: one of the router's next hops`
          : `does not announce ${ip}`,
    };
  });
}
