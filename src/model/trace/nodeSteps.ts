/**
 * Turns one node's rule walk (in any kube-proxy mode) into trace steps. Each step is one rule
 * that did something a learner should see — caught the packet, marked it, chose an endpoint,
 * DNATed, dropped, masqueraded — and carries the rules matched since the previous step as
 * its chain trail.
 */
import type { Cluster, ClusterNode, EndpointModel, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import type { HitRole, ModeHit, ModeProcessing, ProxyMode } from '../kube-proxy/types';
import { endpointString } from '../kube-proxy/endpoints';
import type { StepDraft } from './builder';
import { narrateHit } from './narration';
import type { Candidate, Decision, Packet, RuleHit } from './types';

/** Context the steps need. */
export interface NodeStepContext {
  cluster: Cluster;
  svc: ServiceModel;
  node: ClusterNode;
  mode: ProxyMode;
  /** The packet as it reached the node. */
  arrived: Packet;
  /** The source address and port MASQUERADE picked, when it ran. */
  snat?: { ip: string; port: number; iface: string };
  /** Endpoint pinned by the learner, if any. */
  pinnedEndpoint?: string;
}

function toRuleHit(h: ModeHit): RuleHit {
  return { table: h.table, chain: h.chain, ruleId: h.ruleId, text: h.text };
}

function decisionFor(ctx: NodeStepContext, hit: ModeHit): Decision | undefined {
  const choice = hit.choice;
  if (!choice) return undefined;
  const all = ctx.cluster.endpoints[servicePortKey(ctx.svc, ctx.svc.ports[0]?.name ?? '')] ?? [];
  // `ip:port` → the first endpoint listed with it (what a search of `all` would find).
  const ids = all.map(endpointString);
  const byId = new Map<string, EndpointModel>();
  all.forEach((e, i) => {
    const id = ids[i] as string;
    if (!byId.has(id)) byId.set(id, e);
  });
  const candidates: Candidate[] = choice.options.map((o) => {
    const ep = byId.get(o.endpoint);
    const cand: Candidate = {
      id: o.endpoint,
      label: ep ? `${o.endpoint} (${ep.nodeName})` : o.endpoint,
      probability: o.probability,
      eligible: true,
      status: ep?.terminating ? 'serving, terminating' : 'ready',
    };
    if (ep) cand.nodeName = ep.nodeName;
    return cand;
  });
  const inRules = new Set(candidates.map((c) => c.id));
  const localOnly = choice.options.every((o) => byId.get(o.endpoint)?.nodeName === ctx.node.name);
  all.forEach((ep, i) => {
    const id = ids[i] as string;
    if (inRules.has(id)) return;
    candidates.push({
      id,
      label: `${id} (${ep.nodeName})`,
      probability: 0,
      eligible: false,
      status: !ep.ready
        ? 'not ready: left out of the rules'
        : localOnly && ctx.svc.externalTrafficPolicy === 'Local'
          ? `on ${ep.nodeName}: Local policy uses only this node's endpoints`
          : 'not used here',
      nodeName: ep.nodeName,
    });
  });
  const chosen = candidates[choice.chosen]?.id ?? '';
  return { kind: 'endpoint', candidates, chosen, pinned: ctx.pinnedEndpoint === chosen };
}

/** Groups hits into steps: the hits since the previous step, then the step's own hit (and the mark it sets). */
function group(hits: ModeHit[]): {
  lead: ModeHit[];
  groups: { main: ModeHit; role: HitRole; hits: ModeHit[] }[];
} {
  const groups: { main: ModeHit; role: HitRole; hits: ModeHit[] }[] = [];
  let pending: ModeHit[] = [];
  for (const h of hits) {
    const last = groups[groups.length - 1];
    // The mark belongs to the step whose rule jumped to KUBE-MARK-MASQ. In IPVS mode the ipset
    // member that rule matched is recorded between the two; it belongs to that step too.
    if (h.role === 'mark' && last && pending.every((p) => p.table === 'ipset')) {
      last.hits.push(...pending, h);
      pending = [];
    } else if (h.role && h.role !== 'mark') {
      groups.push({ main: h, role: h.role, hits: [...pending, h] });
      pending = [];
    } else pending.push(h);
  }
  const last = groups[groups.length - 1];
  if (last) last.hits.push(...pending);
  return { lead: last ? [] : pending, groups };
}

/**
 * Steps for one node's processing. When no rule acted (a transit node), returns one
 * routing step carrying the matched rules as its trail.
 */
export function nodeSteps(
  ctx: NodeStepContext,
  proc: ModeProcessing,
  flags: Packet['flags'],
): StepDraft[] {
  const place = `node:${ctx.node.name}` as const;
  const { lead, groups } = group(proc.hits);
  const trail: RuleHit[] = [];
  let before: Packet = ctx.arrived;
  const drafts: StepDraft[] = groups.map((g, gi) => {
    trail.push(...g.hits.map(toRuleHit));
    const lastHit = g.hits[g.hits.length - 1] as ModeHit;
    let after: Packet = { ...lastHit.packet, flags };
    if (g.role === 'snat' && ctx.snat) after = { ...after, src: ctx.snat.ip, sport: ctx.snat.port };
    const draft: StepDraft = {
      direction: 'request',
      at: place,
      from: place,
      to: place,
      before,
      after,
      transform:
        g.role === 'dnat'
          ? 'DNAT'
          : g.role === 'snat'
            ? 'SNAT'
            : after.mark !== before.mark
              ? 'mark'
              : 'none',
      rule: {
        kind: 'kube-proxy',
        mode: ctx.mode,
        node: ctx.node.name,
        table: g.main.table,
        chain: g.main.chain,
        ruleId: g.main.ruleId,
        text: g.main.text,
        trail: [...trail],
      },
      narration: narrateHit(g.role, g.main, ctx, g.hits, groups[gi + 1]?.role),
    };
    const decision = g.role === 'choose' ? decisionFor(ctx, g.main) : undefined;
    if (decision) draft.decision = decision;
    before = after;
    return draft;
  });
  if (drafts.length === 0) {
    drafts.push({
      direction: 'request',
      at: place,
      from: place,
      to: place,
      before,
      after: { ...proc.packet, flags },
      transform: 'none',
      rule: { kind: 'routing', text: lead.map((h) => h.text).join('\n') },
      narration: {
        title: `No kube-proxy rule changes it on ${ctx.node.name}`,
        body: `${ctx.node.name} checks the packet against kube-proxy's rules: none of them translates it, so ${ctx.node.name} simply routes it on.`,
      },
    });
  }
  return drafts;
}
