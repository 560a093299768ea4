/**
 * What the folded nodes' summary row counts, apart from the row itself (FoldedNodes.tsx), which
 * loads only when a cluster has more nodes than the stage draws in full.
 */
import type { Candidate } from '../../model/trace/types';

/** The folded nodes' counts, from the model's balancer targets and the scene's failed nodes. */
export interface FoldCounts {
  count: number;
  eligible: number;
  failing: number;
  down: number;
}

/** Counts for the summary group (what the model says of each folded node). */
export function foldCounts(
  names: readonly string[],
  health: Record<string, Candidate>,
  failed: readonly string[],
  downNodes: readonly string[],
): FoldCounts {
  let eligible = 0;
  let failing = 0;
  let down = 0;
  for (const n of names) {
    const c = health[n];
    if (c?.eligible) eligible++;
    else if (c) failing++;
    if (failed.includes(n) || downNodes.includes(n)) down++;
  }
  return { count: names.length, eligible, failing, down };
}
