/**
 * What kube-proxy's rules on one node do to one new packet, over every possible random
 * choice: the verdict, the set of `ip:port` it can be DNATed to, and whether it is marked
 * for masquerade. The answer to "what happens to a packet from X to Y:Z on node N?", in any
 * kube-proxy mode.
 */
import type { ClusterNode } from '../scenario/cluster';
import type { ModePacket, ModeRuleset, Origin, ProxyModeImpl } from './types';

/** The result of {@link flowVerdict}; the JSON shape of `datapath flow --json`. */
export interface FlowResult {
  /** `DNAT` when some path DNATs; else the filter verdict; `NONE` when no kube-proxy rule decides. */
  verdict: 'DNAT' | 'DROP' | 'REJECT' | 'ACCEPT' | 'NONE';
  /** Every `ip:port` the packet can be DNATed to, sorted. */
  endpoints: string[];
  /** Whether the packet is marked for masquerade (SNAT on the way out). */
  masquerade: boolean;
}

/** The most walks {@link flowVerdict} makes: far above one per endpoint of the biggest Service. */
export const MAX_FLOW_WALKS = 1_000_000;

/**
 * Explores every combination of endpoint choices (one walk per endpoint a choice point offers:
 * 10,000 for a Service with 10,000 endpoints) and merges the outcomes.
 * @throws {Error} when the combinations need more than {@link MAX_FLOW_WALKS} walks (the
 *   answer would be incomplete).
 */
export function flowVerdict(
  impl: ProxyModeImpl,
  rs: ModeRuleset,
  node: ClusterNode,
  packet: ModePacket,
  origin: Origin,
): FlowResult {
  const endpoints = new Set<string>();
  let masquerade = false;
  let verdict: FlowResult['verdict'] = 'NONE';
  const pending: number[][] = [[]];
  for (let runs = 0; pending.length > 0; runs++) {
    if (runs >= MAX_FLOW_WALKS)
      throw new Error(
        `flow: more than ${MAX_FLOW_WALKS.toLocaleString('en-US')} combinations of endpoint choices`,
      );
    const path = pending.pop() as number[];
    let depth = 0;
    const proc = impl.process(rs, node, packet, origin, (options) => {
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
    if (
      proc.hits.some((h) => h.role === 'mark' || h.role === 'snat') ||
      (proc.fate.kind === 'forward' && proc.fate.masquerade)
    )
      masquerade = true;
    if (verdict === 'DNAT') continue;
    if (proc.fate.kind === 'drop') verdict = 'DROP';
    else if (proc.fate.kind === 'reject') verdict = 'REJECT';
    else if (
      verdict === 'NONE' &&
      proc.hits.some(
        (h) => /(^|\s)(-j ACCEPT|accept)$/.test(h.text) && /KUBE-|kube/.test(h.chain + h.text),
      )
    )
      verdict = 'ACCEPT';
  }
  return { verdict, endpoints: [...endpoints].sort(), masquerade };
}
