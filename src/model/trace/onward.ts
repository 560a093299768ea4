/**
 * Where the request goes after a node's rules: into a Pod on this node (`deliver.ts`), across
 * the cluster network to the Pod's node, out to the balancer (a load-balancer address that
 * kube-proxy did not catch), or to the node that owns the destination address.
 */
import type { ClusterNode, ClusterPod } from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import { isMetalLB } from '../cloud/implementation';
import { deliverToPod } from './deliver';
import type { NodeCrossing } from './nodeHop';
import type { HopResult, Next, TraceRun } from './run';
import type { Packet } from './types';

/** To a Pod on another node: the step across the cluster network. */
function toPodNode(run: TraceRun, here: Next, node: ClusterNode, destPod: ClusterPod): HopResult {
  const { cluster, client, options, svc, pkt } = run;
  const target = findNode(cluster, destPod.nodeName);
  if (!target)
    return {
      outcome: {
        kind: 'timed-out',
        at: here.place,
        reason: `no route to ${destPod.ip}`,
        summary: 'No route.',
      },
    };
  run.steps.add({
    direction: 'request',
    at: 'network',
    from: here.place,
    to: `node:${target.name}`,
    before: pkt,
    after: pkt,
    transform: 'none',
    rule: {
      kind: 'routing',
      text: `${target.podCIDR} via ${target.internalIP} (the cluster network)`,
    },
    narration: {
      title: `A second hop: ${node.name} → ${target.name}`,
      body: `The chosen pod lives on ${target.name}, so ${node.name} sends the packet across the cluster network.${
        client.location === 'Internet' &&
        options.dial.kind !== 'ClusterIP' &&
        svc.externalTrafficPolicy === 'Cluster'
          ? ' This extra hop, and the SNAT that makes the reply come back through this node, is the price of externalTrafficPolicy Cluster.'
          : ''
      }`,
    },
  });
  run.crossed = true;
  return { next: { place: `node:${target.name}`, origin: 'network' } };
}

/**
 * Still addressed to the load-balancer address after the node (ipMode Proxy, or a
 * hostname-only ingress): out to the balancer; under MetalLB nothing takes it.
 */
function backToBalancer(run: TraceRun, here: Next, node: ClusterNode, arrived: Packet): HopResult {
  const { lb, pkt, ingress, hostname } = run;
  if (lb && isMetalLB(lb.implementation))
    return {
      outcome: {
        kind: 'timed-out',
        at: here.place,
        reason: `with ipMode Proxy kube-proxy writes no rule for ${pkt.dst}, and under MetalLB there is no proxy to take it: the address is on no interface of ${node.name}, so it routes the packet back out, towards the node that announces it, and the packet circles until its TTL runs out`,
        summary: `Nothing takes ${pkt.dst}: ipMode Proxy with MetalLB, the connection times out.`,
      },
    };
  // Not caught on the node (ipMode Proxy, or a hostname-only ingress): the packet leaves
  // for the balancer. Traffic
  // from pods to outside the cluster is masqueraded by the CNI plugin, not by kube-proxy.
  const before = arrived;
  run.steps.add({
    direction: 'request',
    at: here.place,
    from: here.place,
    to: 'lb',
    before,
    after: pkt,
    transform: pkt.src !== before.src ? 'SNAT' : 'none',
    rule: { kind: 'routing', text: `default route: ${pkt.dst} is outside the cluster` },
    narration: {
      title: `Out to the load balancer`,
      body: `${ingress ? 'With ipMode Proxy' : `The Service published only the hostname ${hostname}, so`} kube-proxy writes no rule for ${pkt.dst}, so ${node.name} routes the packet out to the balancer like any internet address${pkt.src !== before.src ? ` (the CNI plugin masquerades pod traffic leaving the cluster to ${node.internalIP})` : ''}.`,
    },
  });
  return { next: { place: 'lb', origin: 'network' } };
}

/**
 * The request's next place after the node at `here` (see the module comment), or its outcome
 * (delivered, or timed out with no route).
 */
export function routeOnward(run: TraceRun, here: Next, crossing: NodeCrossing): HopResult {
  const { node, arrived, destPod } = crossing;
  const { cluster, lbAddress, pkt } = run;
  if (destPod)
    return destPod.nodeName === node.name
      ? { outcome: deliverToPod(run, here, node, destPod) }
      : toPodNode(run, here, node, destPod);
  if (lbAddress && pkt.dst === lbAddress) return backToBalancer(run, here, node, arrived);
  const owner = cluster.nodes.find((n) => n.addresses.includes(pkt.dst));
  if (owner && owner.name !== node.name)
    return { next: { place: `node:${owner.name}`, origin: 'network' } };
  return {
    outcome: {
      kind: 'timed-out',
      at: here.place,
      reason: `no route to ${pkt.dst}`,
      summary: 'The packet has nowhere to go.',
    },
  };
}
