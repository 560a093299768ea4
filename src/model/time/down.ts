/**
 * Nodes that are down before the control plane notices (`SceneOptions.downNodes`): the
 * objects still say `Ready`, but nothing on the node answers. The model's "does this node
 * answer" question is `ClusterNode.ready` (the trace's next-hop check, the balancer's probe),
 * so a down node is marked not ready in the resolved cluster and nothing else changes: its
 * endpoints stay as the EndpointSlices say, which is exactly the stale state kube-proxy on
 * the other nodes keeps until `--node-monitor-grace-period` runs out.
 */
import type { Cluster } from '../scenario/cluster';

/**
 * Returns `cluster` with every node named in `down` marked not ready (its Node object's own
 * `Ready` kept as `apiReady`); the same object when `down` is empty or unset. Unknown names
 * are ignored.
 */
export function markNodesDown(cluster: Cluster, down: readonly string[] | undefined): Cluster {
  if (!down || down.length === 0) return cluster;
  const set = new Set(down);
  return {
    ...cluster,
    nodes: cluster.nodes.map((n) =>
      set.has(n.name) ? { ...n, ready: false, apiReady: n.ready } : n,
    ),
  };
}
