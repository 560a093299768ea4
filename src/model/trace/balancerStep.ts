/**
 * The cloud load balancer's step: it picks a healthy node (pinned, or drawn from the seed)
 * and hands the connection over as its delivery mode says — rewriting the destination to the
 * NodePort, keeping the load-balancer IP (ipMode VIP), or proxying from its own address
 * (ipMode Proxy). It knows nodes and health checks, never pods.
 */
import type { Cluster, ClusterNode, LoadBalancerModel, ServiceModel } from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import { targetCandidates } from '../cloud/targets';
import { pickWeighted, randomInt } from '../random';
import type { Rng } from '../random';
import type { StepDraft } from './builder';
import type { TraceOptions } from './run';
import type { Outcome, Packet } from './types';

/** What the balancer step needs. */
export interface BalancerContext {
  cluster: Cluster;
  svc: ServiceModel;
  lb: LoadBalancerModel | undefined;
  /** The packet as it reaches the balancer. */
  pkt: Packet;
  options: TraceOptions;
  rngLB: Rng;
  rngPort: Rng;
}

/**
 * @returns the step, the packet it hands on and the chosen node; or an outcome when the
 *   connection ends at the balancer (no balancer, or no healthy target).
 */
export function balancerStep(
  ctx: BalancerContext,
): { step: StepDraft; after: Packet; node: ClusterNode } | { outcome: Outcome } {
  const { cluster, svc, lb, pkt, options, rngLB, rngPort } = ctx;
  const nodePort = svc.ports[0]?.nodePort ?? 0;
  const ingress = svc.ingress[0];
  const done = (outcome: Outcome) => ({ outcome });
  if (!lb)
    return done({
      kind: 'timed-out',
      at: 'lb',
      reason: 'no cloud load balancer is modelled for this Service',
      summary: 'Nothing answers.',
    });
  const cands = targetCandidates(cluster, svc, options.choices.rotation);
  const eligible = cands.filter((c) => c.eligible);
  if (eligible.length === 0)
    return done({
      kind: 'timed-out',
      at: 'lb',
      reason: options.choices.rotation
        ? "no node is in the balancer's rotation, so it has no node to send the connection to"
        : 'every target fails its health check, so the balancer has no node to send the connection to',
      summary: 'No healthy node: the connection times out.',
    });
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
  const proxy = ingress?.ipMode === 'Proxy';
  let after: Packet;
  let text: string;
  if (proxy) {
    after = {
      ...pkt,
      src: lb.backendAddress,
      sport: randomInt(rngPort, 32768, 60999),
      dst: node.internalIP,
      dport: nodePort,
    };
    text = `proxy: accept the client's connection on ${pkt.dst}:${pkt.dport}, open a new one from ${after.src} to ${node.name} ${after.dst}:${after.dport}`;
  } else if (lb.delivery === 'NodePort') {
    after = { ...pkt, dst: node.internalIP, dport: nodePort };
    text = `forward to target ${node.name} ${after.dst}:${after.dport} (NodePort), client address kept`;
  } else {
    after = { ...pkt };
    text =
      lb.implementation === 'DirectServerReturn'
        ? `pass through to target ${node.name}, packet unchanged (direct server return: replies bypass the balancer)`
        : `forward to target ${node.name}, destination ${pkt.dst}:${pkt.dport} kept (ipMode VIP)`;
  }
  const step: StepDraft = {
    direction: 'request',
    at: 'lb',
    from: 'lb',
    to: `node:${node.name}`,
    before: pkt,
    after,
    transform: proxy ? 'proxy' : after.dst !== pkt.dst ? 'DNAT' : 'none',
    decision: { kind: 'lb-target', candidates: cands, chosen, pinned },
    rule: { kind: 'cloud-lb', text },
    narration: {
      title: `The load balancer picks ${node.name}`,
      body: `${proxy ? 'The balancer is a proxy (ipMode: Proxy): it ends the client’s connection and opens its own, from its address, to the NodePort.' : lb.delivery === 'NodePort' ? `The balancer targets NodePorts: it rewrites the destination to ${node.name}:${nodePort} and keeps the client's source address.` : `The balancer keeps the destination ${pkt.dst}:${pkt.dport} (what ipMode VIP declares) and routes the packet to ${node.name}.${lb.implementation === 'DirectServerReturn' ? ' It is a passthrough balancer: it sees only the client’s packets, and the node will answer the client itself.' : ''}`} It chose among the nodes that pass its health check; it knows nothing of pods.`,
    },
  };
  return { step, after, node };
}
