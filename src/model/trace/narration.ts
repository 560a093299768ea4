/**
 * Plain-language narration for kube-proxy steps, per role and per mode. The facts come from
 * the hit (its chain and rule text) and the resolved cluster, never from the view.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import type { HitRole, ModeHit, ProxyMode } from '../kube-proxy/types';
import type { Packet } from './types';

/** What narration needs to know about the node step. */
export interface NarrationContext {
  cluster: Cluster;
  svc: ServiceModel;
  node: ClusterNode;
  mode: ProxyMode;
  arrived: Packet;
  snat?: { ip: string; port: number; iface: string };
}

type Text = { title: string; body: string };

/** The masquerade mark of the mode: `1 << nftables.masqueradeBit` in nftables mode, else `iptables.`'s. */
function masqueradeMark(ctx: NarrationContext): string {
  const kp = ctx.cluster.kubeProxy;
  const bit = ctx.mode === 'nftables' ? kp.nftablesMasqueradeBit : kp.masqueradeBit;
  return `0x${(2 ** bit).toString(16)}`;
}

function target(hit: ModeHit): string {
  return /(?:-j|goto|jump) ([\w-]+(?:\/[\w./-]+)?)\s*$/.exec(hit.text)?.[1] ?? hit.chain;
}

function capture(hit: ModeHit, ctx: NarrationContext, fellThrough: boolean): Text {
  const { node, svc, arrived, mode } = ctx;
  const kind =
    arrived.dst === svc.clusterIP
      ? 'ClusterIP'
      : svc.ingress.some((i) => i.ip === arrived.dst)
        ? 'LB'
        : svc.externalIPs.includes(arrived.dst)
          ? 'ExternalIP'
          : 'NodePort';
  const tail = fellThrough
    ? ` But the Service's external chain has no rule for this packet on ${node.name}: it comes back un-translated.`
    : '';
  const how =
    mode === 'iptables'
      ? kind === 'NodePort'
        ? `KUBE-SERVICES sends every packet for a local address to KUBE-NODEPORTS, whose rule for ${arrived.dport} jumps to the Service's external chain ${target(hit)}.`
        : `kube-proxy's KUBE-SERVICES rule for ${arrived.dst}:${arrived.dport} jumps to ${target(hit)}.`
      : mode === 'nftables'
        ? `The services chain looks the destination up in kube-proxy's ${kind === 'NodePort' ? 'service-nodeports' : 'service-ips'} verdict map and goes to the Service's chain.`
        : `The address and port are an IPVS virtual server on ${node.name} (kube-proxy put ${kind === 'NodePort' ? 'the node port in an ipset' : `${arrived.dst} on the kube-ipvs0 dummy interface`}), so the kernel takes the packet as the Service's.`;
  if (kind === 'NodePort')
    return {
      title: `The NodePort :${arrived.dport} is caught`,
      body: `The packet is addressed to ${node.name}'s own address on port ${arrived.dport}. ${how}${tail}`,
    };
  if (kind === 'ExternalIP')
    return {
      title: `The external IP ${arrived.dst}:${arrived.dport} is caught`,
      body: `The packet is addressed to ${arrived.dst}, one of the Service's spec.externalIPs. Kubernetes does not route that address (the network does), but kube-proxy programs it on every node, so ${node.name} takes it as the Service's external traffic. ${how}${tail}`,
    };
  if (kind === 'LB')
    return {
      title: `The load-balancer IP ${arrived.dst}:${arrived.dport} is caught`,
      body: `The packet still carries the load balancer's address. Because the ingress has ipMode VIP, kube-proxy programmed ${arrived.dst}:${arrived.dport} on every node, so ${node.name} takes it as the Service's external traffic instead of routing it on. ${how}${tail}`,
    };
  return {
    title: 'The ClusterIP is caught',
    body: `The packet is addressed to the Service's ClusterIP ${arrived.dst}:${arrived.dport}, a virtual address. ${how}${tail}`,
  };
}

function ext(hit: ModeHit, ctx: NarrationContext, group: ModeHit[]): Text {
  const { node, svc } = ctx;
  const marked = group.some((h) => h.role === 'mark') || hit.packet.mark !== 0;
  if (svc.externalTrafficPolicy === 'Cluster')
    return {
      title: 'Marked for masquerade (externalTrafficPolicy: Cluster)',
      body: `Under Cluster policy the endpoint may be on any node, so ${hit.chain} marks the packet (0x4000) for SNAT and hands it on to choose among every ready endpoint.`,
    };
  if (/pod traffic|short-circuit pod/.test(hit.text))
    return {
      title: 'Pod traffic is short-circuited',
      body: `The source is a pod. Under Local policy kube-proxy still lets pods reach every endpoint without going out to the balancer, and without SNAT.`,
    };
  if (marked)
    return {
      title: 'Traffic from the node itself',
      body: `The source is one of ${node.name}'s own addresses. Under Local policy kube-proxy still sends host traffic to every endpoint, and marks it for masquerade: the source the kernel picked for a connection to a local address (the load-balancer IP or a node port) may be that very address, which would not work as a return address for a pod.`,
    };
  return {
    title: 'Local policy: only this node’s endpoints',
    body: `externalTrafficPolicy is Local, so external traffic goes only to the endpoints on ${node.name}, unmarked: the client's address will reach the pod.`,
  };
}

function choose(hit: ModeHit, ctx: NarrationContext): Text {
  const n = hit.choice?.options.length ?? 0;
  const how =
    ctx.mode === 'iptables'
      ? `${hit.chain} holds one rule per endpoint, tried in order with "statistic --mode random"`
      : ctx.mode === 'nftables'
        ? `${hit.chain} draws "numgen random mod ${n}" and jumps through a verdict map`
        : `IPVS's scheduler picks one of the virtual server's ${n} real servers`;
  return {
    title: 'kube-proxy picks an endpoint',
    body: `${how}, so each of the ${n} usable endpoint${n === 1 ? '' : 's'} gets an equal share. The balancer chose only the node; this chooses the pod.`,
  };
}

function drop(hit: ModeHit, ctx: NarrationContext, role: HitRole): Text {
  const { cluster, svc, node } = ctx;
  const eps = cluster.endpoints[servicePortKey(svc, svc.ports[0]?.name ?? '')] ?? [];
  const usable = (e: (typeof eps)[number]) => e.ready || (e.serving && e.terminating);
  const why = !eps.some(usable)
    ? 'The Service has no ready endpoint anywhere, so kube-proxy rejects the connection (ICMP port unreachable) instead of leaving it to time out.'
    : svc.externalTrafficPolicy === 'Local' &&
        !eps.some((e) => e.nodeName === node.name && usable(e))
      ? `externalTrafficPolicy is Local and ${node.name} has no ready endpoint of its own, so kube-proxy drops external traffic here rather than forward it to another node (that would need SNAT and lose the client's address).`
      : svc.loadBalancerSourceRanges.length > 0
        ? 'The source address is outside loadBalancerSourceRanges.'
        : 'A kube-proxy filter rule ends the packet here.';
  return { title: `${role === 'reject' ? 'Rejected' : 'Dropped'} by ${hit.chain}`, body: why };
}

/**
 * The title and body of the step whose main hit is `hit`.
 * @param next the role of the following step on this node, if any (a capture followed by
 *   nothing or a drop means the packet fell through the Service's chain)
 */
export function narrateHit(
  role: HitRole,
  hit: ModeHit,
  ctx: NarrationContext,
  group: ModeHit[],
  next: HitRole | undefined,
): Text {
  switch (role) {
    case 'capture':
      return capture(hit, ctx, next === undefined || next === 'drop' || next === 'reject');
    case 'firewall':
      return {
        title: 'loadBalancerSourceRanges check',
        body: `${hit.chain} lets only the allowed source ranges through to the Service.`,
      };
    case 'ext':
    case 'mark':
      return ext(hit, ctx, group);
    case 'choose':
      return choose(hit, ctx);
    case 'dnat': {
      const to = `${hit.packet.dst}:${hit.packet.dport}`;
      return {
        title: `DNAT to ${to}`,
        body:
          ctx.mode === 'ipvs'
            ? `IPVS forwards the connection in Masq (NAT) mode: the destination becomes the pod's address and target port. conntrack records the translation so the reply can be translated back.`
            : `${hit.chain} rewrites the destination to the pod's address and target port. conntrack records the translation so the reply can be translated back.`,
      };
    }
    case 'drop':
    case 'reject':
      return drop(hit, ctx, role);
    case 'snat': {
      const s = ctx.snat;
      return {
        title: `Masquerade (SNAT) to ${s?.ip ?? ctx.node.internalIP}`,
        body: `The packet carries the ${masqueradeMark(ctx)} mark, so kube-proxy's postrouting rule masquerades it: the source becomes ${ctx.node.name}'s address on the way out${s ? ` (${s.ip}, the address of ${s.iface}; port ${s.port}, picked at random)` : ''}. The pod will see this address, not the client's.`,
      };
    }
  }
}
