/**
 * Turns one node's rule walk into trace steps. Each step is one rule that did something a
 * learner should see (caught the packet, marked it, chose an endpoint, DNATed, dropped,
 * masqueraded); the rules matched on the way there form the step's chain trail.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import type { IptablesRuleset, Rule } from '../kube-proxy/iptables/rule';
import type { Hit, WalkPacket } from '../kube-proxy/iptables/walk';
import { statisticOptions } from '../kube-proxy/iptables/walk';
import type { NodeProcessing } from '../kube-proxy/iptables/pipeline';
import { endpointString } from '../kube-proxy/endpoints';
import type { StepDraft } from './builder';
import type { Candidate, Decision, Packet, RuleHit } from './types';

type Kind = 'capture' | 'firewall' | 'ext' | 'choose' | 'dnat' | 'drop' | 'snat';

function kindOf(hit: Hit, seenChains: Set<string>): Kind | undefined {
  const r = hit.rule;
  const t = r.target;
  if (t.kind === 'DNAT') return 'dnat';
  if (t.kind === 'DROP' || t.kind === 'REJECT') return 'drop';
  if (r.table !== 'nat') return undefined;
  if (
    (r.chain === 'KUBE-SERVICES' || r.chain === 'KUBE-NODEPORTS') &&
    t.kind === 'jump' &&
    /^KUBE-(EXT|SVC|SVL|FW)-/.test(t.chain)
  )
    return 'capture';
  if (r.chain.startsWith('KUBE-FW-')) return 'firewall';
  if (r.chain.startsWith('KUBE-EXT-') && !seenChains.has(r.chain)) return 'ext';
  if (/^KUBE-(SVC|SVL)-/.test(r.chain) && t.kind === 'jump' && t.chain.startsWith('KUBE-SEP-'))
    return 'choose';
  return undefined;
}

function toHit(h: Hit): RuleHit {
  return { table: h.rule.table, chain: h.rule.chain, ruleId: h.rule.id, text: h.rule.text };
}

function toPacket(p: WalkPacket, flags: Packet['flags']): Packet {
  return { ...p, flags };
}

/** Context the narration needs. */
export interface NodeStepContext {
  cluster: Cluster;
  svc: ServiceModel;
  node: ClusterNode;
  rules: IptablesRuleset;
  /** The packet as it reached the node. */
  arrived: Packet;
  /** The source address and port MASQUERADE picked, when it ran. */
  snat?: { ip: string; port: number; iface: string };
  /** Endpoint pinned by the learner, if any. */
  pinnedEndpoint?: string;
}

function decisionFor(ctx: NodeStepContext, rule: Rule, chosenChain: string): Decision {
  const chain = ctx.rules.tables.nat.find((c) => c.name === rule.chain);
  const options = chain ? statisticOptions(chain) : [];
  const sepTarget = (sep: string) =>
    ctx.rules.tables.nat.find((c) => c.name === sep)?.rules.find((r) => r.target.kind === 'DNAT');
  const candidates: Candidate[] = options.map((o) => {
    const dnat = sepTarget(o.target);
    const to = dnat?.target.kind === 'DNAT' ? dnat.target.to : o.target;
    const ep = (
      ctx.cluster.endpoints[servicePortKey(ctx.svc, ctx.svc.ports[0]?.name ?? '')] ?? []
    ).find((e) => endpointString(e) === to);
    return {
      id: to,
      label: `${to}${ep ? ` (${ep.nodeName})` : ''}`,
      probability: o.probability,
      eligible: true,
      status: ep?.terminating ? 'serving, terminating' : 'ready',
      ...(ep ? { nodeName: ep.nodeName } : {}),
    };
  });
  const local = rule.chain.startsWith('KUBE-SVL-');
  const inRules = new Set(candidates.map((c) => c.id));
  for (const ep of ctx.cluster.endpoints[servicePortKey(ctx.svc, ctx.svc.ports[0]?.name ?? '')] ??
    []) {
    const id = endpointString(ep);
    if (inRules.has(id)) continue;
    candidates.push({
      id,
      label: `${id} (${ep.nodeName})`,
      probability: 0,
      eligible: false,
      status: !ep.ready
        ? `not ready: left out of the rules`
        : local
          ? `on ${ep.nodeName}: Local policy uses only this node's endpoints`
          : 'not used by this chain',
      nodeName: ep.nodeName,
    });
  }
  const chosen = options.find((o) => o.target === chosenChain);
  const chosenId = candidates[options.indexOf(chosen as (typeof options)[number])]?.id ?? '';
  return {
    kind: 'endpoint',
    candidates,
    chosen: chosenId,
    pinned: ctx.pinnedEndpoint === chosenId,
  };
}

function narrate(
  kind: Kind,
  hit: Hit,
  ctx: NodeStepContext,
  group: Hit[],
  next: Kind | undefined,
): { title: string; body: string } {
  const { node, svc, arrived } = ctx;
  const r = hit.rule;
  const t = r.target;
  const target = t.kind === 'jump' ? t.chain : '';
  const port = svc.ports[0];
  switch (kind) {
    case 'capture': {
      const fellThrough = next === 'drop' || next === undefined;
      const tail = fellThrough
        ? ` But ${target} has no rule for this packet: it comes back un-translated.`
        : '';
      if (r.chain === 'KUBE-NODEPORTS')
        return {
          title: `KUBE-NODEPORTS catches :${port?.nodePort ?? arrived.dport}`,
          body: `The packet is addressed to ${node.name}'s own address on port ${arrived.dport}. KUBE-SERVICES sends every packet for a local address to KUBE-NODEPORTS, whose rule for ${arrived.dport} jumps to the Service's external chain ${target}.${tail}`,
        };
      if (r.text.includes('loadbalancer IP'))
        return {
          title: `The load-balancer IP rule catches ${arrived.dst}:${arrived.dport}`,
          body: `The packet still carries the load balancer's address. Because the ingress has ipMode VIP, kube-proxy wrote a KUBE-SERVICES rule for ${arrived.dst}:${arrived.dport}, so ${node.name} takes it as the Service's external traffic instead of routing it on.${tail}`,
        };
      return {
        title: `KUBE-SERVICES catches the ClusterIP`,
        body: `The packet is addressed to the Service's ClusterIP ${arrived.dst}:${arrived.dport}, a virtual address no interface owns. kube-proxy's rule for it jumps to ${target}.${tail}`,
      };
    }
    case 'firewall':
      return {
        title: 'loadBalancerSourceRanges check',
        body: `${r.chain} lets only the allowed source ranges through to the Service. ${t.kind === 'none' ? 'This source is not in them: the packet will be dropped by KUBE-PROXY-FIREWALL.' : `${arrived.src} is allowed.`}`,
      };
    case 'ext': {
      const marked = group.some((h) => h.rule.chain === 'KUBE-MARK-MASQ');
      if (svc.externalTrafficPolicy === 'Cluster')
        return {
          title: 'Marked for masquerade (externalTrafficPolicy: Cluster)',
          body: `Under Cluster policy the endpoint may be on any node, so ${r.chain} marks the packet with 0x4000 for SNAT and hands it to the KUBE-SVC chain, which spreads over every ready endpoint.`,
        };
      if (r.text.includes('pod traffic'))
        return {
          title: 'Pod traffic is short-circuited',
          body: `The source is a pod. Under Local policy kube-proxy still lets pods reach every endpoint without going out to the balancer: ${r.chain} jumps straight to KUBE-SVC, without SNAT.`,
        };
      if (marked)
        return {
          title: 'Traffic from the node itself',
          body: `The source is one of ${node.name}'s own addresses. ${r.chain} marks it for masquerade and sends it to KUBE-SVC (every endpoint), since the node's address would not work as a return address on another node anyway.`,
        };
      return {
        title: 'Local policy: only this node’s endpoints',
        body: `externalTrafficPolicy is Local, so ${r.chain} sends external traffic to ${target || 'the KUBE-SVL chain'}, which holds only the endpoints on ${node.name}, and does not mark it: the client's address will reach the pod.`,
      };
    }
    case 'choose': {
      const local = r.chain.startsWith('KUBE-SVL-');
      return {
        title: 'kube-proxy picks an endpoint',
        body: `${r.chain} holds one rule per ${local ? 'local ' : ''}ready endpoint, tried in order with "statistic --mode random" so that each gets an equal share. The balancer chose only the node; this rule chooses the pod.`,
      };
    }
    case 'dnat':
      return {
        title: `DNAT to ${t.kind === 'DNAT' ? t.to : ''}`,
        body: `${r.chain} rewrites the destination to the pod's address and target port. conntrack records the translation so the reply can be translated back.`,
      };
    case 'drop': {
      const reject = t.kind === 'REJECT';
      const why = r.text.includes('has no local endpoints')
        ? `externalTrafficPolicy is Local and ${node.name} has no ready endpoint of its own, so kube-proxy drops external traffic here rather than forward it to another node (that would need SNAT and lose the client's address).`
        : r.text.includes('has no endpoints')
          ? 'The Service has no ready endpoint anywhere, so kube-proxy rejects the connection (ICMP port unreachable) instead of leaving it to time out.'
          : r.chain === 'KUBE-PROXY-FIREWALL'
            ? 'The source address is outside loadBalancerSourceRanges.'
            : 'A kube-proxy filter rule ends the packet here.';
      return { title: `${reject ? 'Rejected' : 'Dropped'} by ${r.chain}`, body: why };
    }
    case 'snat': {
      const s = ctx.snat;
      return {
        title: `Masquerade (SNAT) to ${s?.ip ?? node.internalIP}`,
        body: `The packet carries the 0x4000 mark, so KUBE-POSTROUTING masquerades it: the source becomes ${node.name}'s address on the way out${s ? ` (${s.ip}, the address of ${s.iface}; port ${s.port} picked by --random-fully)` : ''}. The pod will see this address, not the client's.`,
      };
    }
  }
}

/**
 * Steps for one node's processing. When no rule acted (a transit node), returns one
 * routing step carrying the matched rules as its trail.
 */
export function nodeSteps(
  ctx: NodeStepContext,
  proc: NodeProcessing,
  flags: Packet['flags'],
): StepDraft[] {
  const place = `node:${ctx.node.name}` as const;
  // A step's hits: the rules matched since the previous step, its own rule, and the MARK
  // that rule's jump to KUBE-MARK-MASQ sets. What is left after the last step belongs to it.
  const groups: { kind: Kind; hits: Hit[]; main: Hit }[] = [];
  let pending: Hit[] = [];
  const seen = new Set<string>();
  for (const phase of proc.phases) {
    const hits = phase.result.hits;
    // POSTROUTING that masquerades is one step: KUBE-POSTROUTING clears the mark, then MASQUERADE.
    const masq =
      phase.hook === 'POSTROUTING'
        ? hits.find((h) => h.rule.target.kind === 'MASQUERADE')
        : undefined;
    if (masq) {
      groups.push({ kind: 'snat', hits: [...pending, ...hits], main: masq });
      pending = [];
      continue;
    }
    for (const h of hits) {
      const k = kindOf(h, seen);
      seen.add(h.rule.chain);
      const last = groups[groups.length - 1];
      if (k) {
        groups.push({ kind: k, hits: [...pending, h], main: h });
        pending = [];
      } else if (last && pending.length === 0 && h.rule.chain === 'KUBE-MARK-MASQ')
        last.hits.push(h);
      else pending.push(h);
    }
  }
  const lead: Hit[] = [];
  if (groups.length > 0) groups[groups.length - 1]?.hits.push(...pending);
  else lead.push(...pending);
  const trail: RuleHit[] = lead.map(toHit);
  let before: Packet = ctx.arrived;
  const drafts: StepDraft[] = [];
  groups.forEach((g, gi) => {
    const main = g.main;
    trail.push(...g.hits.map(toHit));
    const lastHit = g.hits[g.hits.length - 1] as Hit;
    let after = toPacket(lastHit.packet, flags);
    if (g.kind === 'snat' && ctx.snat) after = { ...after, src: ctx.snat.ip, sport: ctx.snat.port };
    const draft: StepDraft = {
      direction: 'request',
      at: place,
      from: place,
      to: place,
      before,
      after,
      transform:
        g.kind === 'dnat'
          ? 'DNAT'
          : g.kind === 'snat'
            ? 'SNAT'
            : after.mark !== before.mark
              ? 'mark'
              : 'none',
      rule: {
        kind: 'kube-proxy',
        mode: 'iptables',
        node: ctx.node.name,
        table: main.rule.table,
        chain: main.rule.chain,
        ruleId: main.rule.id,
        text: main.rule.text,
        trail: [...trail],
      },
      narration: narrate(g.kind, main, ctx, g.hits, groups[gi + 1]?.kind),
    };
    if (g.kind === 'choose' && main.rule.target.kind === 'jump')
      draft.decision = decisionFor(ctx, main.rule, main.rule.target.chain);
    drafts.push(draft);
    before = after;
  });
  if (drafts.length === 0) {
    const after = toPacket(proc.packet, flags);
    drafts.push({
      direction: 'request',
      at: place,
      from: place,
      to: place,
      before,
      after,
      transform: 'none',
      rule: { kind: 'routing', text: proc.hits.map((h) => h.rule.text).join('\n') },
      narration: {
        title: `No kube-proxy rule changes it on ${ctx.node.name}`,
        body: `${ctx.node.name} checks the packet against kube-proxy's rules: none translates it${proc.dnat ? '' : ` (${before.dst} is not a Service address)`}, so ${ctx.node.name} simply routes it on.`,
      },
    });
  }
  return drafts;
}
