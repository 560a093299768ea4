/**
 * iptables mode behind the common {@link ProxyModeImpl} contract: the generator as is, and
 * the netfilter pipeline's hits tagged with the role each rule plays for the trace.
 */
import type { ClusterNode } from '../../scenario/cluster';
import type {
  ChoiceOption,
  EndpointChooser,
  HitRole,
  ModeHit,
  ModePacket,
  ModeProcessing,
  Origin,
  ProxyModeImpl,
} from '../types';
import { generateIptables } from './generate';
import { processPacket } from './pipeline';
import type { Chain, IptablesRuleset, Rule } from './rule';
import type { Hit, StatisticOption } from './walk';
import { chainIndex, findChain } from './walk';

/** The role of a matched iptables rule, from the chain it is in and where it jumps. */
function roleOf(rule: Rule, seenChains: ReadonlySet<string>): HitRole | undefined {
  const t = rule.target;
  if (t.kind === 'DNAT') return 'dnat';
  if (t.kind === 'DROP') return 'drop';
  if (t.kind === 'REJECT') return 'reject';
  if (t.kind === 'MASQUERADE') return 'snat';
  if (t.kind === 'MARK' && rule.chain === 'KUBE-MARK-MASQ') return 'mark';
  if (rule.table !== 'nat') return undefined;
  if (
    (rule.chain === 'KUBE-SERVICES' || rule.chain === 'KUBE-NODEPORTS') &&
    t.kind === 'jump' &&
    /^KUBE-(EXT|SVC|SVL|FW)-/.test(t.chain)
  )
    return 'capture';
  if (rule.chain.startsWith('KUBE-FW-')) return 'firewall';
  if (rule.chain.startsWith('KUBE-EXT-') && !seenChains.has(rule.chain)) return 'ext';
  if (/^KUBE-(SVC|SVL)-/.test(rule.chain) && t.kind === 'jump' && t.chain.startsWith('KUBE-SEP-'))
    return 'choose';
  return undefined;
}

/** The `ip:port` a KUBE-SEP chain DNATs to (`sep` itself when it has no DNAT rule). */
function sepEndpoint(nat: ReadonlyMap<string, Chain>, rs: IptablesRuleset, sep: string): string {
  const chain = nat.get(sep) ?? findChain(rs, 'nat', sep);
  const dnat = chain?.rules.find((r) => r.target.kind === 'DNAT');
  return dnat?.target.kind === 'DNAT' ? dnat.target.to : sep;
}

/**
 * A cascade's options as endpoints, made once per options list (the walk gives the same list
 * for the same chain each time; a KUBE-SEP chain's name is a hash of its endpoint, so the
 * endpoint it DNATs to is the same in every ruleset that has it).
 */
const endpointOptions = new WeakMap<readonly StatisticOption[], ChoiceOption[]>();

/**
 * Runs one new packet through the node's iptables rules.
 * @param choose picks among a KUBE-SVC/KUBE-SVL chain's endpoints (given with the
 *   probabilities the `statistic` cascade gives them)
 */
export function processIptables(
  rs: IptablesRuleset,
  node: ClusterNode,
  packet: ModePacket,
  origin: Origin,
  choose: EndpointChooser,
): ModeProcessing {
  const choices = new Map<string, { options: ChoiceOption[]; chosen: number }>();
  const nat = chainIndex(rs, 'nat');
  const proc = processPacket(rs, node, packet, origin, (chain, options: StatisticOption[]) => {
    let opts = endpointOptions.get(options);
    if (!opts) {
      opts = options.map((o) => ({
        endpoint: sepEndpoint(nat, rs, o.target),
        probability: o.probability,
      }));
      endpointOptions.set(options, opts);
    }
    const chosen = choose(opts);
    choices.set(chain, { options: opts, chosen });
    return chosen;
  });
  const seen = new Set<string>();
  const hits: ModeHit[] = proc.hits.map((h: Hit) => {
    const role = roleOf(h.rule, seen);
    seen.add(h.rule.chain);
    const hit: ModeHit = {
      ruleId: h.rule.id,
      table: h.rule.table,
      chain: h.rule.chain,
      text: h.rule.text,
      packet: { ...h.packet },
    };
    if (role) hit.role = role;
    const choice = role === 'choose' ? choices.get(h.rule.chain) : undefined;
    if (choice) hit.choice = choice;
    return hit;
  });
  const fate = proc.fate;
  let modeFate: ModeProcessing['fate'];
  switch (fate.kind) {
    case 'drop':
    case 'reject': {
      const rule = fate.rule;
      modeFate = { kind: fate.kind, hit: hits.find((h) => h.ruleId === rule.id) as ModeHit };
      break;
    }
    case 'local':
      modeFate = { kind: 'local' };
      break;
    case 'forward':
      modeFate = { kind: 'forward', masquerade: fate.masquerade };
      break;
  }
  return { hits, packet: proc.packet, dnat: proc.dnat, fate: modeFate };
}

/** kube-proxy's iptables mode (the default on Linux). */
export const iptablesMode: ProxyModeImpl<IptablesRuleset> = {
  mode: 'iptables',
  generate: generateIptables,
  process: processIptables,
};
