/**
 * The reply path: the pod's SYN-ACK retraces the request's hops backwards, and each hop that
 * translated the connection (a node's conntrack entry, or the balancer) undoes it — no rule
 * is consulted for a reply, conntrack alone restores the addresses the other side expects.
 */
import type { LoadBalancerImplementation } from '../k8s/objects';
import type { StepDraft, StepList } from './builder';
import { isNatEntry, repliedEntry } from './conntrack';
import type { ConntrackEntry, Packet, Place } from './types';

/** A place the request passed, remembered so the reply can retrace it. */
export interface Hop {
  place: Place;
  arrived: Packet;
  left: Packet;
  entry?: ConntrackEntry;
}

/**
 * Whether the reply came back to the client as the connection it opened; when it did,
 * `answeredBy` is the place that sent it to the client (`lb`, or the node under direct server
 * return and MetalLB, or the first node when no balancer was on the path).
 */
export type ReplyResult =
  { established: true; answeredBy: Place } | { established: false; reason: string };

/**
 * The step in which a node sends the reply straight to the client: the balancer is not on the
 * way back (direct server return), or there is none (MetalLB). `pkt` already carries the
 * load-balancer IP as its source: conntrack restored the destination the packet arrived with.
 */
function directStep(
  impl: LoadBalancerImplementation,
  place: Place,
  pkt: Packet,
): Omit<StepDraft, 'direction' | 'at' | 'from' | 'to' | 'before' | 'after' | 'transform'> {
  const node = place.slice('node:'.length);
  const from = `${pkt.src}:${pkt.sport}`;
  const to = `${pkt.dst}:${pkt.dport}`;
  const body =
    impl === 'DirectServerReturn'
      ? `The reply leaves ${node} with source ${from}, the load balancer's address the packet arrived with, and goes straight to the client ${to}. A passthrough balancer handles only the client's packets: the node answers the client directly (direct server return), and the balancer never sees the reply.`
      : impl === 'MetalLB-BGP'
        ? `There is no balancer to come back through: ${node} sends the reply from ${from}, the address MetalLB announces, to the client ${to} by its default route. The router only routes it on.`
        : `There is no balancer to come back through: ${node}, which answers ARP for ${pkt.src}, sends the reply from ${from} straight to the client ${to}.`;
  return {
    rule: {
      kind: 'routing',
      text: `default route: ${pkt.dst} is outside the cluster; source ${pkt.src} kept`,
    },
    narration: {
      title: `${node} answers the client directly`,
      body,
    },
  };
}

/**
 * A short line for the outcome: where the reply went, and what kind of balancer the scene
 * models (issue 14: the scene states it), e.g. "node-3 answers directly (direct server
 * return)". `answeredBy` is {@link ReplyResult}'s.
 */
export function replySentence(
  impl: LoadBalancerImplementation,
  ipMode: 'VIP' | 'Proxy',
  answeredBy: Place,
): string {
  const node = answeredBy.startsWith('node:') ? answeredBy.slice('node:'.length) : 'the node';
  if (answeredBy === 'lb')
    return ipMode === 'Proxy'
      ? 'back through the proxy (ipMode Proxy)'
      : 'back through the balancer (NAT, like AWS NLB)';
  if (impl === 'DirectServerReturn') return `${node} answers directly (direct server return)`;
  return `${node} answers directly: no balancer (${impl === 'MetalLB-BGP' ? 'MetalLB BGP' : 'MetalLB L2'})`;
}

/** What every reply hop reads: the trace's steps and entries and how the reply is routed. */
interface ReplyWalk {
  steps: StepList;
  conntrack: ConntrackEntry[];
  clientLocation: string;
  routesTo: (dst: string, place: Place) => boolean;
  direct: LoadBalancerImplementation | undefined;
}

/** The reply to a packet as it arrived: addresses and ports swapped, a SYN-ACK, no mark. */
function swap(p: Packet): Packet {
  return {
    ...p,
    flags: 'SYN-ACK',
    src: p.dst,
    sport: p.dport,
    dst: p.src,
    dport: p.sport,
    mark: 0,
  };
}

/** `entry` as it reads once the reply has passed, put in its place in `conntrack`. */
function replyEntry(conntrack: ConntrackEntry[], entry: ConntrackEntry): ConntrackEntry {
  const replied = repliedEntry(entry);
  const idx = conntrack.indexOf(entry);
  if (idx >= 0) conntrack[idx] = replied;
  return replied;
}

/** The pod's step: it answers the address it saw. */
function podAnswers(podPlace: Place, to: Place, pkt: Packet): StepDraft {
  return {
    direction: 'reply',
    at: podPlace,
    from: podPlace,
    to,
    before: pkt,
    after: pkt,
    transform: 'none',
    narration: {
      title: 'The pod answers',
      body: `The application replies with a SYN-ACK to the address it saw, ${pkt.dst}:${pkt.dport}.`,
    },
  };
}

/**
 * Asymmetric return: the node at `hop` routes the reply straight out, not back through the
 * node `to` that holds the NAT entry (the IPVS Local fallback, kubernetes#97081), and the
 * client discards a reply from an address it never dialled.
 */
function strayReply(
  w: ReplyWalk,
  hop: Hop & { entry: ConntrackEntry },
  to: Place,
  pkt: Packet,
): ReplyResult {
  const replied = replyEntry(w.conntrack, hop.entry);
  const here = hop.place.slice(5);
  w.steps.add({
    direction: 'reply',
    at: hop.place,
    from: hop.place,
    to: 'client',
    before: pkt,
    after: pkt,
    transform: 'none',
    conntrack: replied,
    rule: { kind: 'routing', text: `default route: ${pkt.dst} is not behind ${to.slice(5)}` },
    narration: {
      title: `${here} sends the reply straight out`,
      body: `${pkt.dst} is not an address of ${to.slice(5)}, so ${here} routes the reply out directly. It never passes ${to.slice(5)}, whose conntrack entry would have translated it back.`,
    },
  });
  const reason = `the reply reaches the client from ${pkt.src}:${pkt.sport}, an address it never dialled, so its TCP stack discards it (the NAT entry is on ${to.slice(5)}, which the reply did not cross)`;
  w.steps.add({
    direction: 'reply',
    at: 'client',
    from: 'client',
    to: 'client',
    before: pkt,
    after: pkt,
    transform: 'none',
    narration: {
      title: 'The client discards the reply',
      body: `The SYN-ACK comes from ${pkt.src}:${pkt.sport}, not from the address the ${w.clientLocation === 'Internet' ? 'client' : 'caller'} dialled, so it matches no connection of the client's and is dropped. The connection never opens.`,
    },
  });
  return { established: false, reason };
}

/**
 * A node's reply hop: its conntrack entry undoes its NAT (or it only routes the reply on).
 * Under direct server return (`w.direct`) the node next to the client answers it itself, in a
 * step of its own.
 * @returns the node's place when it answered the client itself, else undefined.
 */
function nodeReply(
  w: ReplyWalk,
  hop: Hop & { entry: ConntrackEntry },
  to: Place,
  pkt: Packet,
  after: Packet,
  nat: boolean,
): Place | undefined {
  const replied = replyEntry(w.conntrack, hop.entry);
  // The node that answers the client itself keeps the packet for a step of its own.
  const handOff = !!w.direct && to === 'client';
  w.steps.add({
    direction: 'reply',
    at: hop.place,
    from: hop.place,
    to: handOff ? hop.place : to,
    before: pkt,
    after,
    transform: nat ? 'reverse-NAT' : 'none',
    conntrack: replied,
    rule: { kind: 'conntrack', text: replied.text },
    narration: nat
      ? {
          title: `conntrack undoes the NAT on ${hop.place.slice(5)}`,
          body: `The reply matches the entry ${hop.place.slice(5)} made for the SYN. No rule is consulted: conntrack restores the source to ${after.src}:${after.sport} and the destination to ${after.dst}:${after.dport}, so the other side sees the address it expects.`,
        }
      : {
          title: `${hop.place.slice(5)} routes the reply back`,
          body: `This node did not translate the connection; it passes the reply on towards ${after.dst}.`,
        },
  });
  if (!(handOff && w.direct)) return undefined;
  w.steps.add({
    direction: 'reply',
    at: hop.place,
    from: hop.place,
    to: 'client',
    before: after,
    after,
    transform: 'none',
    ...directStep(w.direct, hop.place, after),
  });
  return hop.place;
}

/** The balancer's reply hop: a NAT balancer rewrites the reply, a proxy joins two connections. */
function balancerReply(w: ReplyWalk, hop: Hop, to: Place, pkt: Packet, after: Packet): void {
  const proxied = hop.left.src !== hop.arrived.src;
  const changed = after.src !== pkt.src || after.dst !== pkt.dst || after.sport !== pkt.sport;
  w.steps.add({
    direction: 'reply',
    at: 'lb',
    from: 'lb',
    to,
    before: pkt,
    after,
    transform: proxied ? 'proxy' : changed ? 'reverse-NAT' : 'none',
    rule: {
      kind: 'cloud-lb',
      text: proxied
        ? `backend connection ${pkt.dst}:${pkt.dport} ⇄ ${pkt.src}:${pkt.sport} established; client connection ${after.src}:${after.sport} ⇄ ${after.dst}:${after.dport} relayed`
        : `reply to ${after.dst}:${after.dport} from ${after.src}:${after.sport}`,
    },
    narration: proxied
      ? {
          title: 'The balancer joins its two connections',
          body: `This SYN-ACK ends the handshake of the balancer's own connection to the node. The client's connection to ${after.src}:${after.sport} is a separate TCP connection that the proxy answers itself; from now on it relays the bytes between the two. The client never sees a packet from the cluster.`,
        }
      : {
          title: 'The load balancer answers the client',
          body: `The balancer sends the reply from ${after.src}:${after.sport}, the address the client dialled: a NAT balancer is on the path both ways, so the reply comes back through it.`,
        },
  });
}

/** The client's step: the reply comes from the address it dialled. */
function clientAccepts(pkt: Packet, clientLocation: string): StepDraft {
  return {
    direction: 'reply',
    at: 'client',
    from: 'client',
    to: 'client',
    before: pkt,
    after: pkt,
    transform: 'none',
    narration: {
      title: 'The client gets its SYN-ACK',
      body: `The reply comes from ${pkt.src}:${pkt.sport}, exactly the address the ${clientLocation === 'Internet' ? 'client' : 'caller'} dialled, so its TCP stack accepts it and the connection is established.`,
    },
  };
}

/**
 * The SYN-ACK back: each hop's conntrack entry (or the balancer) undoes what it did.
 * @param routesTo whether a packet for `dst`, sent from a node, is routed to the node of
 *   `place` (its own address or its pod subnet). When a node that did not translate the
 *   connection would route the reply elsewhere, the reply skips the node that holds the NAT
 *   entry and reaches the client from the pod's own address: the client discards it.
 * @param direct set when the reply does not return through the balancer (direct server return,
 *   MetalLB): the balancer's hop is skipped, and the first node sends the reply to the client
 *   itself, in a step of its own.
 */
export function replyPath(
  steps: StepList,
  hops: Hop[],
  conntrack: ConntrackEntry[],
  pod: { namespace: string; name: string; ip: string },
  clientLocation: string,
  routesTo: (dst: string, place: Place) => boolean,
  direct?: LoadBalancerImplementation,
): ReplyResult {
  const w: ReplyWalk = { steps, conntrack, clientLocation, routesTo, direct };
  // Under direct server return the balancer was on the request's path only.
  if (direct) hops = hops.filter((h) => h.place !== 'lb');
  let answeredBy: Place = hops.find((h) => h.place !== 'client')?.place ?? 'client';
  const podHop = hops[hops.length - 1] as Hop;
  let pkt = swap(podHop.arrived);
  const podPlace: Place = `pod:${pod.namespace}/${pod.name}`;
  for (let i = hops.length - 2; i >= -1; i--) {
    const hop = hops[i];
    if (i === hops.length - 2) steps.add(podAnswers(podPlace, hop?.place ?? 'client', pkt));
    if (!hop) break;
    const to: Place = hops[i - 1]?.place ?? 'client';
    const after = swap(hop.arrived);
    const { entry } = hop;
    const nat = entry ? isNatEntry(entry) : after.src !== pkt.src || after.dst !== pkt.dst;
    if (entry && !nat && to.startsWith('node:') && !routesTo(after.dst, to))
      return strayReply(w, { ...hop, entry }, to, pkt);
    if (entry) answeredBy = nodeReply(w, { ...hop, entry }, to, pkt, after, nat) ?? answeredBy;
    else {
      answeredBy = 'lb';
      balancerReply(w, hop, to, pkt, after);
    }
    pkt = after;
  }
  steps.add(clientAccepts(pkt, clientLocation));
  return { established: true, answeredBy };
}
