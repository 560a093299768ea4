/**
 * MetalLB's step: there is no balancer, so no `lb` place. The client's packet, addressed to
 * the Service's address, arrives at the node that owns it — in layer 2 the node whose speaker
 * answers ARP for it (`metallbLeader`), in BGP the next hop the router's ECMP hash picks among
 * the nodes that announce it (metallb.universe.tf/concepts/layer2, /concepts/bgp). Nothing
 * rewrites the packet on the way: it reaches the node as the client sent it.
 */
import type { ClusterNode } from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import { metallbCandidates } from '../cloud/implementation';
import { macOf } from '../time/metallb';
import { pickWeighted } from '../random';
import type { BalancerContext } from './balancerStep';
import type { StepDraft } from './builder';
import type { Outcome } from './types';

/**
 * @returns the step (at the chosen node, the packet unchanged) and the node; or an outcome
 *   when no node announces the address (nothing answers ARP, or the router has no route).
 */
export function metallbStep(
  ctx: BalancerContext,
): { step: StepDraft; node: ClusterNode } | { outcome: Outcome } {
  const { cluster, svc, lb, pkt, options, rngLB } = ctx;
  if (!lb) throw new Error('metallbStep needs the CloudLoadBalancer');
  const l2 = lb.implementation === 'MetalLB-L2';
  const cands = metallbCandidates(cluster, svc, lb, options.choices.rotation);
  const eligible = cands.filter((c) => c.eligible);
  if (eligible.length === 0)
    return {
      outcome: {
        kind: 'timed-out',
        at: 'client',
        reason: l2
          ? `no MetalLB speaker announces ${pkt.dst} (no ready node, or no endpoint that can serve${svc.externalTrafficPolicy === 'Local' ? ' on a node of its own under Local' : ''}), so nothing answers ARP for it and the SYN is never delivered`
          : `no node announces ${pkt.dst} over BGP (no ready node, or no endpoint that can serve${svc.externalTrafficPolicy === 'Local' ? ' on a node of its own under Local' : ''}), so the router has no route to it`,
        summary: `Nothing announces ${pkt.dst}: the connection times out.`,
      },
    };
  const pin = options.choices.lbTarget;
  const pinned = pin !== undefined && eligible.some((c) => c.id === pin);
  const chosen = pinned
    ? pin
    : (cands[
        pickWeighted(
          rngLB,
          cands.map((c) => c.probability),
        )
      ]?.id ?? '');
  const node = findNode(cluster, chosen) as ClusterNode;
  const hops = eligible.map((c) => (findNode(cluster, c.id) as ClusterNode).internalIP);
  const step: StepDraft = {
    direction: 'request',
    at: `node:${node.name}`,
    from: `node:${node.name}`,
    to: `node:${node.name}`,
    before: pkt,
    after: pkt,
    transform: 'none',
    decision: {
      kind: 'lb-target',
      candidates: cands,
      chosen,
      pinned,
      by: l2 ? 'MetalLB: the node that answers ARP' : 'The router picks a next hop (BGP, ECMP)',
    },
    rule: {
      kind: 'routing',
      text: l2
        ? `ARP reply: ${pkt.dst} is-at ${macOf(node.internalIP)} (${node.name}, MetalLB speaker)`
        : `${pkt.dst}/32 via ${hops.join(', ')} (BGP routes from MetalLB, ECMP)`,
    },
    narration: l2
      ? {
          title: `${node.name} answers ARP for ${pkt.dst}`,
          body: `There is no load balancer: MetalLB in layer 2 mode makes one node, the leader ${node.name}, answer ARP for ${pkt.dst} on the nodes' network, so the router hands the client's packet straight to ${node.name}, unchanged. From here kube-proxy spreads connections over the pods; MetalLB only decides which node receives them.`,
        }
      : {
          title: `The router sends the packet to ${node.name}`,
          body: `There is no load balancer: MetalLB announces ${pkt.dst} over BGP from ${eligible.length === 1 ? node.name : `${eligible.length} nodes`}, and the router picks one next hop per connection (an ECMP hash of the packet's addresses and ports): ${node.name}. It only routes; the packet arrives unchanged.`,
        },
  };
  return { step, node };
}
