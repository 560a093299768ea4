/**
 * The run's log: every {@link TimelineEntry} the managers write ({@link add}), in the order
 * they write them, sorted by time at the end ({@link sortedEntries}); and the few phrases
 * more than one manager's messages share.
 */
import type { Actor, SimMs, TimelineEntry, TimelineEntryKind } from '../types';
import type { Sim } from './state';

/** What an entry may name besides its message: a Kubernetes Event reason, a node, a Pod key. */
export interface EntryExtra {
  reason?: string;
  node?: string;
  /** `namespace/name`. */
  pod?: string;
}

/** Records one entry at `at` (simulated ms); entries at the same time keep this order. */
export function add(
  sim: Sim,
  at: SimMs,
  kind: TimelineEntryKind,
  actor: Actor,
  message: string,
  extra: EntryExtra = {},
): void {
  sim.entries.push({ at, seq: sim.entrySeq++, kind, actor, message, ...extra });
}

/** The entries sorted by (`at`, insertion order), `seq` renumbered 0, 1, … (sorts in place). */
export function sortedEntries(sim: Sim): TimelineEntry[] {
  const { entries } = sim;
  entries.sort((a, b) => a.at - b.at || a.seq - b.seq);
  entries.forEach((e, i) => (e.seq = i));
  return entries;
}

/** The nodes that are not the cloud balancer's targets, and why, e.g. "node-2 (labelled …)". */
export function excludedText(sim: Sim): string {
  const { nodeOrder, targets } = sim.cfg;
  const out = nodeOrder.filter((n) => !targets.includes(n));
  return `${out.join(', ')} (labelled node.kubernetes.io/exclude-from-external-load-balancers)`;
}

/** The published address: `address`, or `hostname (DNS: address)` for a balancer that publishes a name. */
export function addressText(sim: Sim): string {
  const { hostname, address } = sim.cfg;
  return hostname !== undefined ? `${hostname} (DNS: ${address})` : address;
}

/** The Service's ports as its creation is told: `80:31000/TCP, 443:31443/TCP`. */
export function portsText(sim: Sim): string {
  return sim.base.ports.map((p) => `${p.port}:${p.nodePort}/${p.protocol}`).join(', ');
}
