/**
 * The health lanes' data, from the timeline: per node, its rotation intervals and probes; and
 * how a probe's result is told (shape and text, never colour alone). Pure.
 */
import type { ProbeRecord, RotationChange, SimMs, Timeline } from '../../model/time/types';

/** A probe's result as the lanes draw it. */
export type ProbeMark = 'ok' | 'fail' | 'timeout';

/** ✓ for an answer that passes, ✗ for an HTTP error, ∅ for no answer in time (⌛ has no glyph in Debian's default fonts). */
export function probeMark(p: ProbeRecord): ProbeMark {
  if (p.ok) return 'ok';
  return p.status === null ? 'timeout' : 'fail';
}

/** `✓ 200`, `✗ 503`, `∅ timeout` (a TCP check that connects has no status: `✓ connected`). */
export function probeResultText(p: ProbeRecord): string {
  switch (probeMark(p)) {
    case 'ok':
      return p.status === null ? '✓ connected' : `✓ ${p.status}`;
    case 'fail':
      return `✗ ${p.status}`;
    case 'timeout':
      return '∅ timeout';
  }
}

/** One interval of a node's rotation state (`unregistered`: before the balancer ever judged it). */
export interface RotationSpan {
  from: SimMs;
  to: SimMs;
  /** `registered: false` before the node was ever a target. */
  state: 'in' | 'out' | 'unregistered';
  reason: string;
}

/** A node's rotation state over [0, horizon), from the timeline's rotation changes. */
export function rotationSpans(
  changes: readonly RotationChange[],
  node: string,
  horizonMs: SimMs,
): RotationSpan[] {
  const mine = changes.filter((c) => c.node === node);
  const spans: RotationSpan[] = [];
  let from = 0;
  let state: RotationSpan['state'] = 'unregistered';
  let reason = 'not a target of the load balancer yet';
  for (const c of mine) {
    if (c.at > from) spans.push({ from, to: c.at, state, reason });
    from = c.at;
    state = c.inRotation ? 'in' : 'out';
    reason = c.reason;
  }
  if (horizonMs > from) spans.push({ from, to: horizonMs, state, reason });
  return spans;
}

/** The rotation state of `node` at `at`. */
export function rotationAt(
  changes: readonly RotationChange[],
  node: string,
  at: SimMs,
): RotationSpan['state'] {
  let state: RotationSpan['state'] = 'unregistered';
  for (const c of changes) {
    if (c.at > at) break;
    if (c.node === node) state = c.inRotation ? 'in' : 'out';
  }
  return state;
}

/** The nodes of the run, in the cluster's order (the order of the first epoch's state). */
export function laneNodes(timeline: Timeline): string[] {
  return timeline.epochs[0]?.state.nodes.map((n) => n.name) ?? [];
}

/** A probe as one sentence: `t = 25 s · node-1 · http://10.0.1.11:10256/healthz → ✗ 503 (…)`. */
export function probeSentence(p: ProbeRecord, unhealthyThreshold: number): string {
  const t = `t = ${p.at / 1000} s`;
  const streak = p.ok
    ? `${p.consecutiveSuccesses} in a row passed`
    : `${p.consecutiveFailures} of ${unhealthyThreshold} failed in a row`;
  return `${t} · ${p.node} · ${p.target} → ${probeResultText(p)} (${p.summary}); ${streak}; ${p.inRotation ? 'in rotation' : 'out of rotation'} after it.`;
}
