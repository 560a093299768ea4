/**
 * Read-only views over a trace that several components share. They only pick values the
 * model already computed; they decide nothing.
 */
import type {
  Candidate,
  ConntrackEntry,
  Place,
  RuleHit,
  Trace,
  TraceStep,
} from '../model/trace/types';

/** The balancer's view of each target (health check status and share), as the model computed it. */
export function lbTargetHealth(targets: readonly Candidate[]): Record<string, Candidate> {
  const out: Record<string, Candidate> = {};
  for (const c of targets) out[c.id] = c;
  return out;
}

export interface Hop {
  from: Place;
  to: Place;
  stepIndex: number;
  direction: TraceStep['direction'];
}

/** The moves the packet made up to and including step `index`, in order. */
export function hopsUpTo(trace: Trace, index: number): Hop[] {
  return trace.steps
    .slice(0, index + 1)
    .filter((s) => s.from !== s.to)
    .map((s) => ({ from: s.from, to: s.to, stepIndex: s.index, direction: s.direction }));
}

/** Rule ids matched on `node` up to and including step `index` (every step's chain trail). */
export function matchedRuleIds(trace: Trace, index: number, node: string): Set<string> {
  const ids = new Set<string>();
  for (const s of trace.steps.slice(0, index + 1))
    if (s.rule?.kind === 'kube-proxy' && s.rule.node === node) {
      for (const h of s.rule.trail) ids.add(h.ruleId);
      ids.add(s.rule.ruleId);
    }
  return ids;
}

/** The chains the packet entered on `node` up to step `index` (names without table). */
export function followedChains(trace: Trace, index: number, node: string): Set<string> {
  const names = new Set<string>();
  for (const s of trace.steps.slice(0, index + 1))
    if (s.rule?.kind === 'kube-proxy' && s.rule.node === node) {
      for (const h of s.rule.trail) names.add(h.chain);
      names.add(s.rule.chain);
    }
  return names;
}

/** The chain trail of a kube-proxy step, or an empty list. */
export function trailOf(step: TraceStep | undefined): RuleHit[] {
  return step?.rule?.kind === 'kube-proxy' ? step.rule.trail : [];
}

/** `ip:port`, as the packet label and the inspector print it. */
export const hostPort = (ip: string, port: number) => `${ip}:${port}`;

/** `0x4000`, or `0` when unmarked. */
export const formatMarkValue = (mark: number) => (mark === 0 ? '0' : `0x${mark.toString(16)}`);

/** A probability as a percentage: 50%, 33.3%. */
export function percent(p: number): string {
  const v = p * 100;
  return `${Number.isInteger(v) ? v : v.toFixed(1)}%`;
}

/** One connection on one node: the node and its original tuple (a reply updates the entry). */
export const conntrackKey = (e: ConntrackEntry) =>
  `${e.node} ${e.original.src}:${e.original.sport} ${e.original.dst}:${e.original.dport}`;

export interface SeenEntry {
  /** The entry as it stands at the current step (the latest update wins). */
  entry: ConntrackEntry;
  /** The step that confirmed (created) it. */
  createdAt: number;
}

/**
 * The entries the trace created up to step `index`, per node in the order the nodes first
 * got one, each in its state at that step.
 */
export function conntrackUpTo(
  trace: Trace,
  index: number,
): { node: string; entries: SeenEntry[] }[] {
  const byKey = new Map<string, SeenEntry>();
  for (const s of trace.steps.slice(0, index + 1)) {
    if (!s.conntrack) continue;
    const k = conntrackKey(s.conntrack);
    const seen = byKey.get(k);
    byKey.set(k, { entry: s.conntrack, createdAt: seen ? seen.createdAt : s.index });
  }
  const groups = new Map<string, SeenEntry[]>();
  for (const seen of byKey.values()) {
    const list = groups.get(seen.entry.node) ?? [];
    list.push(seen);
    groups.set(seen.entry.node, list);
  }
  return [...groups].map(([node, entries]) => ({ node, entries }));
}

/**
 * A name short enough for a label in the drawing: long cloud node names
 * (`gke-prod-default-pool-6f1c2a3b-4kxz`) keep their start and their distinguishing end. The
 * full name stays in the element's title and accessible name.
 */
export function shortName(name: string, max = 16): string {
  if (name.length <= max) return name;
  const tail = Math.ceil((max - 1) / 2);
  return `${name.slice(0, max - 1 - tail)}…${name.slice(-tail)}`;
}
