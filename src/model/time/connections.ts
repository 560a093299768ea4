/**
 * Many connections over the timeline: each connection's path is drawn from its epoch's path
 * probabilities with the seeded generator (no trace per connection), and what then happens
 * to it follows from the outages and Pod terminations after it opened.
 *
 * What happens to a connection already open (TCP):
 * - A change of endpoints or rules does not move it: kube-proxy's DNAT lives in the conntrack
 *   entry created by its first packet, and kube-proxy never deletes TCP conntrack entries
 *   (only UDP/SCTP ones, for endpoints that went away). It stays on its Pod.
 * - A node on its path dies (the node the balancer chose, or the Pod's node): blackholed.
 *   The machine answers nothing, so no RST comes back; the client retransmits until
 *   `tcp_retries2` gives up (about 15 minutes on Linux). The balancer does not move it
 *   either: GCP's default connection tracking keeps established connections on their
 *   backend even when it turns unhealthy (`connectionPersistenceOnUnhealthyBackends`
 *   DEFAULT_FOR_PROTOCOL).
 * - Its Pod terminates gracefully: it keeps flowing through the grace period (the endpoint
 *   is `terminating`; conntrack keeps it) and is `drained` if it closes in time; if it is
 *   still open when the process exits (SIGKILL at the end of the grace period) it is `reset`:
 *   the kernel closes the dead process's socket (a FIN, or an RST when data was left unread),
 *   either way before the application finished the exchange.
 *
 * The summary of the workload is ./connectionStats.ts, the windows of a node outage
 * ./deadNodeWindows.ts; both are re-exported here.
 */
import { createRng } from '../random';
import { drawPath, drawTable } from './pathDraw';
import type { DrawTable } from './pathDraw';
import { pathAt } from './pathSet';
import { CLIENT_SYN_TIMEOUT_MS, ESTABLISHED_RETRANSMIT_TIMEOUT_MS } from './defaults';
import type { Outage, PodEnd } from './engine/index';
import { epochIndexAt } from './epochIndex';
import type {
  ConnectionFate,
  ConnectionRecord,
  ConnectionWorkload,
  EntryPaths,
  Epoch,
  PathOption,
  SimMs,
} from './types';

export { epochIndexAt } from './epochIndex';
export { statsOf } from './connectionStats';
export { deadNodeWindows, describeWindow } from './deadNodeWindows';
export type { WindowContext } from './deadNodeWindows';

/** Per (epoch, path): what can end a connection that took it, found once. */
interface PathFate {
  /** First time a node on the path goes down after the epoch started; Infinity if never. */
  failAt: SimMs;
  failNode: string;
  /** When the Pod's process exits with its node up; Infinity if never. */
  exitAt: SimMs;
  sigkill: boolean;
  /** When the Pod started terminating (deletionTimestamp), Infinity if never. */
  deletedAt: SimMs;
}

function pathFate(
  path: PathOption,
  epoch: { from: SimMs },
  outages: Outage[],
  podEnds: Map<string, PodEnd>,
): PathFate {
  let failAt = Infinity;
  let failNode = '';
  for (const o of outages) {
    if (o.from < epoch.from) continue;
    if ((o.node === path.entryNode || o.node === path.podNode) && o.from < failAt) {
      failAt = o.from;
      failNode = o.node;
    }
  }
  const end = path.pod ? podEnds.get(path.pod) : undefined;
  return {
    failAt,
    failNode,
    exitAt: end?.exitAt ?? Infinity,
    sigkill: end?.sigkill ?? false,
    deletedAt: end?.deletedAt ?? Infinity,
  };
}

const NOT_DELIVERED: Record<string, { fate: ConnectionFate; reason: string; delay: number }> = {
  'timed-out': {
    fate: 'timed-out',
    reason: `its SYN got no answer (a dead node or Pod on the path, or no target); the client gives up after ${CLIENT_SYN_TIMEOUT_MS / 1000} s of retransmissions (tcp_syn_retries 6)`,
    delay: CLIENT_SYN_TIMEOUT_MS,
  },
  dropped: {
    fate: 'timed-out',
    reason: `kube-proxy's rules dropped its SYN (e.g. Local policy with no local endpoint); the client retransmits and gives up after ${CLIENT_SYN_TIMEOUT_MS / 1000} s`,
    delay: CLIENT_SYN_TIMEOUT_MS,
  },
  rejected: {
    fate: 'refused',
    reason:
      'rejected: no endpoints (ICMP port unreachable / TCP RST), the client sees "connection refused" at once',
    delay: 0,
  },
  'no-address': { fate: 'no-address', reason: 'nothing to dial: EXTERNAL-IP <pending>', delay: 0 },
};

/** Settles one delivered connection's fate (its words: {@link fateReason}). */
function settle(
  closesAt: SimMs,
  horizon: SimMs,
  pf: PathFate,
): { fate: ConnectionFate; endedAt: SimMs | null } {
  if (pf.failAt < closesAt && pf.failAt <= pf.exitAt && pf.failAt <= horizon)
    return { fate: 'blackholed', endedAt: pf.failAt };
  if (pf.exitAt < closesAt && pf.exitAt <= horizon) return { fate: 'reset', endedAt: pf.exitAt };
  if (closesAt > horizon) return { fate: 'open', endedAt: null };
  if (pf.deletedAt < closesAt) return { fate: 'drained', endedAt: closesAt };
  return { fate: 'completed', endedAt: closesAt };
}

/** Why a delivered connection on `path` ended as `fate`: the same words for every connection on it. */
function fateReason(fate: ConnectionFate, pf: PathFate, path: PathOption): string {
  const podName = path.pod?.split('/')[1] ?? '';
  switch (fate) {
    case 'blackholed':
      return `${pf.failNode} died while it was open: its packets now reach a machine that answers nothing, so no RST comes back; the client retransmits for about ${Math.round(ESTABLISHED_RETRANSMIT_TIMEOUT_MS / 60_000)} minutes (tcp_retries2 15) before giving up. The balancer keeps the established flow on its backend.`;
    case 'reset':
      return pf.sigkill
        ? `still open when ${podName} was killed (SIGKILL at the end of its grace period): the kernel closed the socket for the dead process (a FIN, or an RST if data was left unread) and the Pod's network is torn down, so the application never finished the exchange.`
        : `still open when ${podName}'s application exited after SIGTERM: its socket was closed under it.`;
    case 'open':
      return `still open at the end of the run, on ${podName}`;
    case 'drained':
      return `its Pod ${podName} was terminating, but conntrack kept the connection on it (the endpoint was serving and terminating) and it closed normally before the Pod exited.`;
    default:
      return `closed normally by its client, on ${podName}`;
  }
}

/** Inputs of {@link drawConnections}. */
export interface DrawInput {
  epochs: Epoch[];
  /** Paths per epoch for a long-lived connection's client (the workload client's are `epoch.byEntry`). */
  pathsFor: (epoch: number, client: string) => EntryPaths[];
  workload: ConnectionWorkload;
  client: string;
  seed: number;
  horizon: SimMs;
  outages: Outage[];
  podEnds: Map<string, PodEnd>;
}

/** A path connections took: what can end them, and the words for each fate (found once). */
interface Taken {
  path: PathOption;
  fate: PathFate;
  reasons: Partial<Record<ConnectionFate, string>>;
}

/** One epoch's paths ready to draw: the table, and the paths drawn so far with their fates. */
interface Drawer {
  table: DrawTable;
  /** Flat index → the path and what can end it, found the first time a connection takes it. */
  seen: Map<number, Taken>;
  epoch: Epoch;
}

function drawer(epoch: Epoch, entries: readonly EntryPaths[]): Drawer {
  return { table: drawTable(entries), seen: new Map(), epoch };
}

/** Draws every connection of the workload and the long-lived ones, and settles their fates. */
export function drawConnections(d: DrawInput): ConnectionRecord[] {
  const { epochs, workload: w } = d;
  const out: ConnectionRecord[] = new Array(w.count);
  // Tables are built for the epochs connections open in (most paths are never drawn: a
  // path's fate is found the first time a connection takes it).
  const drawers: (Drawer | undefined)[] = new Array(epochs.length);
  const rng = createRng((d.seed * 2654435761 + 7) >>> 0);
  let ei = 0;
  for (let i = 0; i < w.count; i++) {
    const t = w.startMs + Math.floor((i * w.periodMs) / w.count);
    while (ei < epochs.length - 1 && (epochs[ei + 1] as Epoch).from <= t) ei++;
    const epoch = epochs[ei] as Epoch;
    const dr = (drawers[ei] ??= drawer(epoch, epoch.byEntry));
    out[i] = record(`c${i}`, d.client, t, t + w.holdMs, ei, dr, rng(), d, false);
  }
  const rngLong = createRng((d.seed * 2246822519 + 11) >>> 0);
  (w.longLived ?? []).forEach((l, j) => {
    const ei2 = epochIndexAt(epochs, l.openedAt);
    const epoch = epochs[ei2] as Epoch;
    const dr = drawer(epoch, d.pathsFor(ei2, l.client));
    out.push(
      record(`long${j}`, l.client, l.openedAt, l.closesAt ?? Infinity, ei2, dr, rngLong(), d, true),
    );
  });
  return out;
}

function record(
  id: string,
  client: string,
  openedAt: SimMs,
  closesAt: SimMs,
  ei: number,
  dr: Drawer,
  u: number,
  d: DrawInput,
  longLived: boolean,
): ConnectionRecord {
  const drawn = drawPath(dr.table, u);
  if (!drawn)
    return {
      id,
      client,
      openedAt,
      epoch: ei,
      lbTarget: null,
      endpoint: null,
      pod: null,
      podNode: null,
      crossNode: false,
      snat: false,
      outcome: 'no-address',
      fate: 'no-address',
      endedAt: openedAt,
      fateReason: 'no path',
      longLived,
    };
  let hit = dr.seen.get(drawn.index);
  if (!hit) {
    const path = pathAt(dr.table.entries[drawn.entry] as EntryPaths, drawn.slot);
    hit = { path, fate: pathFate(path, dr.epoch, d.outages, d.podEnds), reasons: {} };
    dr.seen.set(drawn.index, hit);
  }
  const { path: p, fate: pf } = hit;
  let fate: ConnectionFate;
  let endedAt: SimMs | null;
  let reason: string;
  if (p.outcome !== 'delivered') {
    const nd = NOT_DELIVERED[p.outcome] ?? NOT_DELIVERED['timed-out'];
    fate = nd!.fate;
    endedAt = openedAt + nd!.delay;
    reason = nd!.reason;
  } else {
    const s = settle(closesAt, d.horizon, pf);
    fate = s.fate;
    endedAt = s.endedAt;
    reason = hit.reasons[fate] ??= fateReason(fate, pf, p);
    if (longLived && (fate === 'open' || fate === 'completed')) {
      const changes = d.epochs.filter(
        (e) => e.from > openedAt && e.from < Math.min(closesAt, d.horizon),
      ).length;
      if (changes > 0)
        reason += `; the cluster changed ${changes} time${changes === 1 ? '' : 's'} meanwhile (rules, rotation, endpoints), but conntrack kept it on the same Pod`;
    }
  }
  return {
    id,
    client,
    openedAt,
    epoch: ei,
    lbTarget: p.lbTarget,
    endpoint: p.endpoint,
    pod: p.pod,
    podNode: p.podNode,
    crossNode: p.crossNode,
    snat: p.snat,
    outcome: p.outcome,
    fate,
    endedAt,
    fateReason: reason,
    longLived,
  };
}
