/**
 * The cloud load balancer's choice of node. It knows nodes and health checks, never pods:
 * every node is a target (the cloud-controller-manager registers them all, on the NodePort),
 * and a new connection goes to one healthy target. Real balancers hash the 5-tuple; over
 * many clients that is an equal share per healthy target, which is what the model uses.
 */
import type { Cluster, ServiceModel } from '../scenario/cluster';
import type { Candidate } from '../trace/types';
import { probeNode } from './healthCheck';

/** Every target with its share of new connections; the shares of eligible targets sum to 1. */
export function targetCandidates(cluster: Cluster, svc: ServiceModel): Candidate[] {
  const probes = cluster.nodes.map((n) => probeNode(cluster, svc, n));
  const healthy = probes.filter((p) => p.healthy).length;
  return probes.map((p) => ({
    id: p.node,
    label: p.node,
    probability: p.healthy && healthy > 0 ? 1 / healthy : 0,
    eligible: p.healthy,
    status: `health check ${p.target}: ${p.summary}`,
  }));
}
