/**
 * The cloud load balancer's choice of node. It knows nodes and health checks, never pods:
 * every node is a target (the cloud-controller-manager registers them all, on the NodePort,
 * except nodes labelled `node.kubernetes.io/exclude-from-external-load-balancers`),
 * and a new connection goes to one healthy target. Real balancers hash the 5-tuple; over
 * many clients that is an equal share per healthy target, which is what the model uses.
 */
import type { Cluster, ServiceModel } from '../scenario/cluster';
import type { Candidate } from '../trace/types';
import { excludedFromCloudBalancer } from './exclude';
import { localReadyEndpointCounts, probeNode } from './healthCheck';

/**
 * Every target with its share of new connections; the shares of eligible targets sum to 1.
 * @param rotation when given (a timeline's rotation, see `Choices.rotation`), exactly these
 *   nodes are eligible, each with an equal share, whatever their health check says now.
 */
export function targetCandidates(
  cluster: Cluster,
  svc: ServiceModel,
  rotation?: readonly string[],
): Candidate[] {
  const counts = localReadyEndpointCounts(cluster, svc);
  const probes = cluster.nodes.map((n) =>
    probeNode(cluster, svc, n, { localReadyEndpoints: counts.get(n.name) ?? 0 }),
  );
  if (rotation) {
    const rotating = new Set(rotation);
    const inRotation = probes.filter((p) => rotating.has(p.node)).length;
    return probes.map((p) => {
      const eligible = rotating.has(p.node);
      return {
        id: p.node,
        label: p.node,
        probability: eligible && inRotation > 0 ? 1 / inRotation : 0,
        eligible,
        status: `${eligible ? 'in' : 'out of'} the balancer's rotation; health check ${p.target} now: ${p.summary}`,
      };
    });
  }
  // A labelled node is not registered at all, so its health check does not matter.
  const excluded = new Set(
    cluster.nodes.filter((n) => excludedFromCloudBalancer(n.labels)).map((n) => n.name),
  );
  const usable = (p: (typeof probes)[number]) => p.healthy && !excluded.has(p.node);
  const healthy = probes.filter(usable).length;
  return probes.map((p) => ({
    id: p.node,
    label: p.node,
    probability: usable(p) && healthy > 0 ? 1 / healthy : 0,
    eligible: usable(p),
    status: excluded.has(p.node)
      ? 'not a target: labelled node.kubernetes.io/exclude-from-external-load-balancers, so the service controller does not register it'
      : `health check ${p.target}: ${p.summary}`,
  }));
}
