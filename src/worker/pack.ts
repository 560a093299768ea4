/**
 * Packing a node's rule listing into three strings for postMessage and back (`PackedRules`):
 * one string clones in a memcpy, 40,000 `{ text, ruleId, chain }` objects do not.
 * Only the listing travels (mode, node, lines: what the view reads); a mode's own tables,
 * which its walker reads, stay in the worker. Lossless for lines without a newline in them
 * (the modes' dumps have none).
 */
import type { ModeRuleset, RuleLine } from '../model/kube-proxy/types';
import type { PackedRules } from './protocol';

/** `rs` packed. */
export function packRules(rs: ModeRuleset): PackedRules {
  const n = rs.lines.length;
  const text = new Array<string>(n);
  const ids = new Array<string>(n);
  const chains = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const l = rs.lines[i]!;
    text[i] = l.text;
    ids[i] = l.ruleId ?? '';
    chains[i] = l.chain ?? '';
  }
  return {
    mode: rs.mode,
    nodeName: rs.nodeName,
    text: text.join('\n'),
    ruleIds: ids.join('\n'),
    chains: chains.join('\n'),
  };
}

/** The ruleset `p` was packed from (lines with no id or chain have no such key). */
export function unpackRules(p: PackedRules): ModeRuleset {
  const text = p.text === '' ? [] : p.text.split('\n');
  const ids = p.ruleIds.split('\n');
  const chains = p.chains.split('\n');
  const lines: RuleLine[] = text.map((t, i) => {
    const line: RuleLine = { text: t };
    const id = ids[i];
    const chain = chains[i];
    if (id) line.ruleId = id;
    if (chain) line.chain = chain;
    return line;
  });
  return { mode: p.mode, nodeName: p.nodeName, lines };
}
