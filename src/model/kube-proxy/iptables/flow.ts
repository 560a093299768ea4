/**
 * What kube-proxy's rules on one node do to one new packet, over every possible random
 * choice: the verdict, the set of `ip:port` it can be DNATed to, and whether it is marked
 * for masquerade. The answer to "what happens to a packet from X to Y:Z on node N?".
 */
import type { ClusterNode } from '../../scenario/cluster';
import type { IptablesRuleset } from './rule';
import type { Origin } from './pipeline';
import { processPacket } from './pipeline';
import type { WalkPacket } from './walk';

/** The result of {@link flowVerdict}; the JSON shape of `datapath flow --json`. */
export interface FlowResult {
  /** `DNAT` when some path DNATs; else the filter verdict; `NONE` when no kube-proxy rule decides. */
  verdict: 'DNAT' | 'DROP' | 'REJECT' | 'ACCEPT' | 'NONE';
  /** Every `ip:port` the packet can be DNATed to, sorted. */
  endpoints: string[];
  /** Whether the packet is marked for masquerade (SNAT on the way out). */
  masquerade: boolean;
}

/**
 * Explores every combination of `statistic` choices (at most a few hundred for realistic
 * Services) and merges the outcomes.
 */
export function flowVerdict(
  rs: IptablesRuleset,
  node: ClusterNode,
  packet: WalkPacket,
  origin: Origin,
): FlowResult {
  const endpoints = new Set<string>();
  let masquerade = false;
  let verdict: FlowResult['verdict'] = 'NONE';
  const pending: number[][] = [[]];
  let runs = 0;
  while (pending.length > 0 && runs < 10_000) {
    const path = pending.pop() as number[];
    runs++;
    let depth = 0;
    const proc = processPacket(rs, node, packet, origin, (_chain, options) => {
      const d = depth++;
      if (d < path.length) return path[d] ?? 0;
      for (let i = 1; i < options.length; i++) pending.push([...path, i]);
      path.push(0);
      return 0;
    });
    if (proc.dnat) {
      endpoints.add(`${proc.packet.dst}:${proc.packet.dport}`);
      verdict = 'DNAT';
    }
    if (proc.hits.some((h) => h.rule.chain === 'KUBE-MARK-MASQ')) masquerade = true;
    if (verdict !== 'DNAT') {
      if (proc.fate.kind === 'drop') verdict = 'DROP';
      else if (proc.fate.kind === 'reject') verdict = 'REJECT';
      else if (
        proc.hits.some(
          (h) => h.rule.target.kind === 'ACCEPT' && h.rule.chain.startsWith('KUBE-'),
        ) &&
        verdict === 'NONE'
      )
        verdict = 'ACCEPT';
    }
  }
  return { verdict, endpoints: [...endpoints].sort(), masquerade };
}
