/**
 * Line diff of two rule dumps, for the rules panel's "compare" view. The diff itself is
 * jsdiff's (`diffArrays`); this only flattens it into marked lines.
 */
import { diffArrays } from 'diff';
import type { RuleLine } from '../model/kube-proxy/types';

/** A line of the comparison: kept, only in the rules after the change (`added`), or only before it (`removed`). */
export interface DiffLine extends RuleLine {
  change: 'same' | 'added' | 'removed';
}

/**
 * What changes in a node's rules from `from` to `to` (e.g. when a toggle flips): lines only
 * in `to` are `added`, lines only in `from` are `removed`, in `to`'s order.
 */
export function diffRuleLines(from: readonly RuleLine[], to: readonly RuleLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  const parts = diffArrays(
    from.map((l) => l.text),
    to.map((l) => l.text),
  );
  for (const part of parts) {
    for (let k = 0; k < part.value.length; k++) {
      if (part.added) out.push({ ...(to[j++] as RuleLine), change: 'added' });
      else if (part.removed) {
        // A removed line is not in the rules after the change: it can match nothing.
        const { text, chain } = from[i++] as RuleLine;
        out.push({ text, ...(chain !== undefined ? { chain } : {}), change: 'removed' });
      } else {
        out.push({ ...(to[j++] as RuleLine), change: 'same' });
        i++;
      }
    }
  }
  return out;
}

/** How many lines were added and removed. */
export function diffCounts(lines: readonly DiffLine[]): { added: number; removed: number } {
  return {
    added: lines.filter((l) => l.change === 'added').length,
    removed: lines.filter((l) => l.change === 'removed').length,
  };
}
