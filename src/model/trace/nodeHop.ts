/**
 * A node's part of the request: the node must be up; kube-proxy's rules (the mode's walker)
 * rewrite the packet and decide its fate; a masquerade draws the new source port; the steps
 * are narrated (`nodeSteps.ts`); the CNI plugin masquerades pod traffic that leaves the pod
 * network; and the connection's conntrack entry on this node is recorded.
 */
import type { Cluster, ClusterNode, ClusterPod } from '../scenario/cluster';
import { findNode, podByIP } from '../scenario/cluster';
import { cidrContains } from '../net/ip';
import type { EndpointChooser, ModeProcessing } from '../kube-proxy/types';
import { pickWeighted, randomInt } from '../random';
import type { Rng } from '../random';
import { newEntry } from './conntrack';
import { nodeSteps } from './nodeSteps';
import type { Next, TraceRun } from './run';
import type { Outcome, Packet } from './types';

/** What a node did with the packet, when the connection goes on. */
export interface NodeCrossing {
  node: ClusterNode;
  /** The packet as it reached the node (`run.pkt` is now the packet that leaves it). */
  arrived: Packet;
  /** The Pod the packet is now addressed to, if any. */
  destPod: ClusterPod | undefined;
}

/** Whether `ip` belongs to the pod network (the clusterCIDR, else any node's podCIDR). */
function inPodNetwork(cluster: Cluster, ip: string): boolean {
  const cidr = cluster.kubeProxy.clusterCIDR;
  if (cidr) return cidrContains(cidr, ip);
  return cluster.nodes.some((n) => n.podCIDR !== '' && cidrContains(n.podCIDR, ip));
}

/** Picks an endpoint: the pinned one when it is among the options, else a seeded draw. */
function chooser(rng: Rng, pinned: string | undefined): EndpointChooser {
  return (options) => {
    const pin = pinned ? options.findIndex((o) => o.endpoint === pinned) : -1;
    if (pin >= 0) return pin;
    return pickWeighted(
      rng,
      options.map((o) => o.probability),
    );
  };
}

/** How the connection ends on the node, when kube-proxy's rules or the kernel end it. */
function fateOutcome(
  run: TraceRun,
  here: Next,
  node: ClusterNode,
  proc: ModeProcessing,
  left: Packet,
): Outcome | undefined {
  if (proc.fate.kind === 'drop' || proc.fate.kind === 'reject')
    return {
      kind: proc.fate.kind === 'drop' ? 'dropped' : 'rejected',
      at: here.place,
      reason: run.steps.last?.narration.body ?? '',
      rule: proc.fate.hit.text,
      summary: `${proc.fate.kind === 'drop' ? 'Dropped' : 'Rejected'} on ${node.name} by ${proc.fate.hit.chain}.`,
    };
  if (proc.fate.kind === 'local')
    return {
      kind: 'rejected',
      at: here.place,
      reason: `nothing on ${node.name} listens on ${left.dst}:${left.dport}, so the kernel answers with a TCP RST`,
      summary: `Connection refused by ${node.name}.`,
    };
  return undefined;
}

/**
 * The request crosses the node at `here` (see the module comment): adds the node's steps,
 * conntrack entry and hop to `run`, and sets `run.pkt` to the packet that leaves the node.
 * @returns the node, the packet as it arrived and the Pod it is now addressed to; or the
 *   outcome when the connection ends here (the node is down, a rule drops or rejects it, or
 *   nothing on the node listens).
 */
export function crossNode(run: TraceRun, here: Next): NodeCrossing | { outcome: Outcome } {
  const { cluster, options, impl, rngPort } = run;
  const node = findNode(cluster, here.place.slice('node:'.length)) as ClusterNode;
  if (!node.ready)
    return {
      outcome: {
        kind: 'timed-out',
        at: here.place,
        reason: `${node.name} is down: nothing on it answers, and the client's SYN retransmissions time out`,
        summary: `${node.name} is down: the connection times out.`,
      },
    };
  const rs = run.rulesOf(node.name);
  const arrived = run.pkt;
  const proc = impl.process(
    rs,
    node,
    arrived,
    here.origin,
    chooser(run.rngEP, options.choices.endpoint),
  );
  let left: Packet = { ...proc.packet, flags: arrived.flags };
  let snat: { ip: string; port: number; iface: string } | undefined;
  const destPod = podByIP(cluster, left.dst);
  if (proc.fate.kind === 'forward' && proc.fate.masquerade) {
    const toLocalPod = destPod?.nodeName === node.name;
    snat = {
      ip: toLocalPod ? node.bridgeIP : node.internalIP,
      // nf_nat_proto.c: --random-fully draws the source port from 1024–65535.
      port: randomInt(rngPort, 1024, 65535),
      iface: toLocalPod ? 'cni0, the bridge to its pods' : 'its interface towards the other node',
    };
    left = { ...left, src: snat.ip, sport: snat.port };
    run.snatted = true;
  }
  for (const d of nodeSteps(
    {
      cluster,
      svc: run.svc,
      node,
      mode: impl.mode,
      arrived,
      ...(snat ? { snat } : {}),
      ...(options.choices.endpoint ? { pinnedEndpoint: options.choices.endpoint } : {}),
    },
    proc,
    arrived.flags,
  ))
    run.steps.add(d);
  const ended = fateOutcome(run, here, node, proc, left);
  if (ended) return { outcome: ended };
  left.mark = 0; // skb marks do not leave the node
  // Pod traffic leaving for an address outside the pod network (another node's IP, or the
  // LB IP when kube-proxy did not catch it) is masqueraded by the CNI plugin's own rule
  // (flannel's and Calico's default), not by kube-proxy.
  const cniMasq = here.origin === 'local-pod' && !destPod && !inPodNetwork(cluster, left.dst);
  if (cniMasq) left = { ...left, src: node.internalIP, sport: randomInt(rngPort, 1024, 65535) };
  const entry = newEntry(node.name, arrived, left);
  run.conntrack.push(entry);
  const last = run.steps.steps[run.steps.steps.length - 1];
  if (last) last.conntrack = entry;
  run.hops.push({ place: here.place, arrived, left, entry });
  run.pkt = left;
  return { node, arrived, destPod };
}
