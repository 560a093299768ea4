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
  /** `unregistered` before the node was a target (or for a node that never is one). */
  state: 'in' | 'out' | 'unregistered';
  reason: string;
  /** A target registered but not (yet) passing: out of rotation, never in it so far. */
  neverPassed?: boolean;
}

/** Where the balancer's targets come from: when they were registered and which nodes they are. */
export interface Registration {
  /** When the targets were registered (every one is out of rotation until it passes); null: never. */
  registeredAt: SimMs | null;
  /** The registered nodes. */
  targets: readonly string[];
  /** Nodes already in rotation at t = 0 (a run that starts provisioned). */
  inAtStart?: readonly string[];
}

/** A timeline's {@link Registration}. */
export function registrationOf(timeline: Timeline): Registration {
  return {
    registeredAt: timeline.registeredAt,
    targets: timeline.targets,
    inAtStart: timeline.epochs[0]?.inRotation ?? [],
  };
}

/**
 * A node's rotation state over [0, horizon), from the timeline's rotation changes. A node
 * registered as a target is out of rotation from its registration until its first change
 * ("never passed"), so a node that never passes a probe is drawn out, not "not a target".
 */
export function rotationSpans(
  changes: readonly RotationChange[],
  node: string,
  horizonMs: SimMs,
  registration: Registration = { registeredAt: null, targets: [] },
): RotationSpan[] {
  const mine = changes.filter((c) => c.node === node);
  const spans: RotationSpan[] = [];
  let from = 0;
  let state: RotationSpan['state'] = 'unregistered';
  let reason = 'not a target of the load balancer yet';
  let never = false;
  const push = (to: SimMs) => {
    if (to > from) spans.push({ from, to, state, reason, ...(never ? { neverPassed: true } : {}) });
  };
  const reg = registration.targets.includes(node) ? registration.registeredAt : null;
  if (registration.inAtStart?.includes(node)) {
    state = 'in';
    reason = 'in rotation when the run starts';
  } else if (reg !== null && !mine.some((c) => c.at <= reg)) {
    push(Math.min(reg, horizonMs));
    from = reg;
    state = 'out';
    never = true;
    reason = 'registered as a target: out of rotation until it passes its health check';
  }
  for (const c of mine) {
    push(c.at);
    from = Math.max(from, c.at);
    state = c.inRotation ? 'in' : 'out';
    never = false;
    reason = c.reason;
  }
  push(horizonMs);
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
