/**
 * Which nodes rewrote the packet so far: read from the trace's kube-proxy steps (their
 * `transform` and the node of their `rule`). Pure.
 */
import type { Trace } from '../../model/trace/types';

/** Per node name: whether kube-proxy did DNAT / SNAT there up to and including step `index`. */
export function natByNode(
  trace: Trace,
  index: number,
): Record<string, { dnat: boolean; snat: boolean }> {
  const out: Record<string, { dnat: boolean; snat: boolean }> = {};
  for (const s of trace.steps.slice(0, index + 1)) {
    if (s.rule?.kind !== 'kube-proxy') continue;
    if (s.transform !== 'DNAT' && s.transform !== 'SNAT') continue;
    const e = (out[s.rule.node] ??= { dnat: false, snat: false });
    if (s.transform === 'DNAT') e.dnat = true;
    else e.snat = true;
  }
  return out;
}
