/**
 * The last hop of the request: the node hands the packet to a Pod on its own subnet. The
 * outcome says who the Pod sees as the client; then the SYN-ACK retraces the hops
 * (`reply.ts`), and a reply that takes another way back leaves the connection unopened.
 */
import type { ClusterNode, ClusterPod } from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import { cidrContains } from '../net/ip';
import { replyRoute } from '../cloud/implementation';
import { replyPath, replySentence } from './reply';
import type { Next, TraceRun } from './run';
import type { Outcome, Place } from './types';

/** Whether a packet for `dst`, sent from a node, is routed to the node of `place`. */
function routesTo(run: TraceRun, dst: string, place: Place): boolean {
  const n = findNode(run.cluster, place.slice('node:'.length));
  return !!n && (n.addresses.includes(dst) || (n.podCIDR !== '' && cidrContains(n.podCIDR, dst)));
}

/** The step into the Pod and its hop; the packet is unchanged. */
function intoPod(run: TraceRun, here: Next, node: ClusterNode, destPod: ClusterPod): void {
  const { pkt } = run;
  run.steps.add({
    direction: 'request',
    at: here.place,
    from: here.place,
    to: `pod:${destPod.namespace}/${destPod.name}`,
    before: pkt,
    after: pkt,
    transform: 'none',
    rule: {
      kind: 'routing',
      text: `${destPod.ip} dev cni0 (${node.podCIDR} is this node's pod subnet)`,
    },
    narration: {
      title: `Into the pod ${destPod.name}`,
      body: `${destPod.ip} is on ${node.name}'s own pod subnet, so the node hands the packet to the pod through its bridge. The application sees a connection from ${pkt.src}:${pkt.sport}.`,
    },
  });
  run.hops.push({ place: `pod:${destPod.namespace}/${destPod.name}`, arrived: pkt, left: pkt });
}

/**
 * Delivers the request to `destPod`, a Pod on `node` (the node at `here`), and sends the reply
 * back (see the module comment).
 * @returns `delivered` (with the reply's route when a balancer or MetalLB carried the
 *   connection), or `timed-out` when the reply does not come back as the connection opened.
 */
export function deliverToPod(
  run: TraceRun,
  here: Next,
  node: ClusterNode,
  destPod: ClusterPod,
): Outcome {
  const { client, lb, lbAddress, ingress, hops } = run;
  intoPod(run, here, node, destPod);
  const { pkt } = run;
  const outcome: Outcome = {
    kind: 'delivered',
    pod: `${destPod.namespace}/${destPod.name}`,
    podIP: destPod.ip,
    node: node.name,
    sourceIPSeenByPod: pkt.src,
    clientIPPreserved: pkt.src === client.address,
    crossedNodes: run.crossed,
    snat: run.snatted,
    summary: `Delivered to ${destPod.name} (${destPod.ip}) on ${node.name}; it sees the connection coming from ${pkt.src}${pkt.src === client.address ? ', the client itself' : ''}.`,
  };
  // Where the reply goes: only a connection that came through the balancer (or MetalLB's
  // node) has a say; a client on a node, or one dialling a node, is answered as it dialled.
  // A hostname-only ingress has no ipMode (the API allows it only beside an ip): the
  // balancer behind the name delivers to the NodePort, as with VIP.
  const ipMode = ingress?.ipMode ?? 'VIP';
  const route =
    lb && lbAddress && (run.viaMetalLB || hops.some((h) => h.place === 'lb'))
      ? replyRoute(lb.implementation, ipMode)
      : undefined;
  const reply = replyPath(
    run.steps,
    hops,
    run.conntrack,
    destPod,
    client.location,
    (dst, place) => routesTo(run, dst, place),
    route === 'direct' && lb ? lb.implementation : undefined,
  );
  if (!reply.established)
    return {
      kind: 'timed-out',
      at: 'client',
      reason: reply.reason,
      summary: `The SYN reached ${destPod.name}, but the reply took another way back: the connection never opens.`,
    };
  if (route && lb) outcome.reply = replySentence(lb.implementation, ipMode, reply.answeredBy);
  return outcome;
}
