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
 */
import { createRng } from '../random';
import { drawPath, drawTable } from './pathDraw';
import type { DrawTable } from './pathDraw';
import { ExpectedSums, pathAt, shareRow } from './pathSet';
import { CLIENT_SYN_TIMEOUT_MS, ESTABLISHED_RETRANSMIT_TIMEOUT_MS } from './defaults';
import { formatSimTime } from './duration';
import type { Outage, PodEnd } from './engine/index';
import type {
  ConnectionFate,
  ConnectionRecord,
  ConnectionStats,
  ConnectionWorkload,
  ControlPlaneSettings,
  DeadNodeWindow,
  HealthCheckSettings,
  ProvisioningSettings,
  EntryPaths,
  Epoch,
  PathOption,
  RotationChange,
  ShareRow,
  SimMs,
} from './types';

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

/** The epoch index for time `t` (last epoch for t past the end). */
export function epochIndexAt(epochs: readonly { from: SimMs; to: SimMs }[], t: SimMs): number {
  let lo = 0;
  let hi = epochs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((epochs[mid] as { from: SimMs }).from <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
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

/**
 * Σ over epochs of (connections × path probability) per entry node and per Pod, summed in
 * the flat path list's order (epoch, entry, slot) with its arithmetic, so the numbers are the
 * flat list's to the last bit; without a map lookup per path (10 million at 1,000 nodes).
 */
function expectedCounts(
  perEpoch: ReadonlyMap<number, number>,
  epochs: readonly Epoch[],
): { expNode: Map<string, number>; expPod: Map<string, number> } {
  const expNode = new Map<string, number>();
  const sums = new ExpectedSums();
  for (const [ei, n] of perEpoch)
    for (const e of epochs[ei]?.byEntry ?? []) {
      const node = sums.add(e, n, e.entryNode ? (expNode.get(e.entryNode) ?? 0) : 0);
      if (e.entryNode && e.slots.weights.length > 0) expNode.set(e.entryNode, node);
    }
  const expPod = sums.perPod();
  return { expNode, expPod };
}

/**
 * Per-node (where connections entered) and per-Pod counts of `records` (the workload's
 * only, long-lived ones excluded), against the share the model's probabilities expect,
 * weighted by how many connections each epoch got.
 */
export function statsOf(
  records: readonly ConnectionRecord[],
  epochs: readonly Epoch[],
  nodeNames: readonly string[],
  homeNode: string | null,
): ConnectionStats {
  const rows = records.filter((r) => !r.longLived);
  const total = rows.length;
  const perEpoch = new Map<number, number>();
  for (const r of rows) perEpoch.set(r.epoch, (perEpoch.get(r.epoch) ?? 0) + 1);
  const { expNode, expPod } = expectedCounts(perEpoch, epochs);
  const node = new Map<string, ShareRow>();
  const pod = new Map<string, ShareRow>();
  for (const n of nodeNames) shareRow(node, n);
  for (const id of expPod.keys()) shareRow(pod, id);
  let delivered = 0;
  let cross = 0;
  let snat = 0;
  for (const r of rows) {
    const entry = r.lbTarget ?? homeNode;
    if (entry) {
      const nr = shareRow(node, entry);
      nr.count++;
      if (r.crossNode) nr.crossNode++;
      if (r.snat) nr.snat++;
    }
    if (r.outcome === 'delivered' && r.pod) {
      delivered++;
      const pr = shareRow(pod, r.pod);
      pr.count++;
      if (r.crossNode) pr.crossNode++;
      if (r.snat) pr.snat++;
      if (r.crossNode) cross++;
      if (r.snat) snat++;
    }
  }
  const finish = (m: Map<string, ShareRow>, exp: Map<string, number>) =>
    [...m.values()].map((r) => ({
      ...r,
      share: total ? r.count / total : 0,
      expectedShare: total ? (exp.get(r.id) ?? 0) / total : 0,
    }));
  return {
    total,
    delivered,
    failed: total - delivered,
    perNode: finish(node, expNode),
    perPod: finish(pod, expPod).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    crossNode: cross,
    snat,
  };
}

/** The IP of an endpoint `ip:port` (or an IP alone). */
function ipOf(endpoint: string): string {
  const i = endpoint.lastIndexOf(':');
  return i < 0 ? endpoint : endpoint.slice(0, i);
}

/**
 * The two windows of every outage (see {@link DeadNodeWindow}): new connections the balancer
 * still sent to the dead node, and new connections other nodes still DNATed to its Pods until
 * kube-proxy stopped using their endpoints. Counts are of the workload (long-lived
 * connections apart); expectations are Σ over epochs of (connections opened in the window in
 * that epoch × the probability of the matching paths).
 */
export function deadNodeWindows(
  outages: readonly Outage[],
  rotation: readonly RotationChange[],
  epochs: readonly Epoch[],
  records: readonly ConnectionRecord[],
  boundMs: SimMs,
  horizon: SimMs,
): DeadNodeWindow[] {
  return outages.map((o) => {
    const atFailure = epochs[epochIndexAt(epochs, o.from)];
    const wasIn = atFailure ? atFailure.state.inRotation.includes(o.node) : false;
    const left = wasIn
      ? rotation.find(
          (r) =>
            r.node === o.node && !r.inRotation && r.at >= o.from && (o.to === null || r.at <= o.to),
        )
      : undefined;
    const leftAt = wasIn ? (left ? left.at : null) : o.from;
    const end = Math.min(leftAt ?? o.to ?? horizon, o.to ?? horizon, horizon);
    // Window 1: the balancer still sends new connections to the dead node.
    const expectedFor = (
      from: SimMs,
      to: SimMs,
      match: (r: ConnectionRecord) => boolean,
      entryMay: (e: EntryPaths) => boolean,
      path: (e: EntryPaths, slot: number) => boolean,
    ): { count: number; expected: number } => {
      let count = 0;
      const perEpoch = new Map<number, number>();
      for (const r of records) {
        if (r.longLived || r.openedAt < from || r.openedAt >= to) continue;
        perEpoch.set(r.epoch, (perEpoch.get(r.epoch) ?? 0) + 1);
        if (match(r)) count++;
      }
      let expected = 0;
      for (const [ei, n] of perEpoch)
        for (const e of epochs[ei]?.byEntry ?? []) {
          if (!entryMay(e)) continue;
          const w = e.slots.weights;
          for (let j = 0; j < w.length; j++)
            if (path(e, j)) expected += n * (e.share * (w[j] as number));
        }
      return { count, expected };
    };
    const w1 = expectedFor(
      o.from,
      end,
      (r) => r.lbTarget === o.node,
      (e) => e.lbTarget === o.node,
      () => true,
    );
    // Window 2: kube-proxy elsewhere still DNATs to the dead node's ready endpoints, until the
    // first epoch (after the failure) in which none of them is ready any more.
    const stale = (atFailure?.state.endpoints ?? [])
      .filter((e) => e.node === o.node && e.ready)
      .map((e) => e.ip);
    let updatedAt: SimMs | null = null;
    if (stale.length > 0) {
      for (const e of epochs) {
        if (e.from <= o.from) continue;
        if (o.to !== null && e.from >= o.to) break;
        if (!e.state.endpoints.some((x) => stale.includes(x.ip) && x.ready)) {
          updatedAt = e.from;
          break;
        }
      }
      if (updatedAt === null && o.to !== null && o.to <= horizon) updatedAt = o.to;
    }
    const end2 = Math.min(updatedAt ?? horizon, horizon);
    const viaOther = (lbTarget: string | null, endpoint: string | null) =>
      lbTarget !== o.node && endpoint !== null && stale.includes(ipOf(endpoint));
    // Whether a slot's endpoint is stale is the class's fact: found once per slots array.
    const staleSlots = new WeakMap<EntryPaths['slots'], Uint8Array>();
    const isStale = (e: EntryPaths, j: number) => {
      let m = staleSlots.get(e.slots);
      if (!m) {
        const staleIPs = new Set(stale);
        m = new Uint8Array(
          e.slots.endpoints.map((x) => (x !== null && staleIPs.has(ipOf(x)) ? 1 : 0)),
        );
        staleSlots.set(e.slots, m);
      }
      return m[j] === 1;
    };
    const w2 =
      stale.length > 0
        ? expectedFor(
            o.from,
            end2,
            (r) => viaOther(r.lbTarget, r.endpoint),
            (e) => e.lbTarget !== o.node,
            isStale,
          )
        : { count: 0, expected: 0 };
    return {
      node: o.node,
      failedAt: o.from,
      wasInRotation: wasIn,
      leftRotationAt: leftAt,
      durationMs: leftAt === null ? null : leftAt - o.from,
      boundMs,
      connectionsSent: w1.count,
      expectedConnectionsSent: w1.expected,
      staleEndpoints: stale,
      endpointsUpdatedAt: updatedAt,
      staleEndpointConnections: w2.count,
      expectedStaleEndpointConnections: w2.expected,
    };
  });
}

/** The settings {@link describeWindow} words a window with (a {@link Timeline}'s `settings`). */
export interface WindowContext {
  healthCheck: HealthCheckSettings;
  provisioning: ProvisioningSettings;
  controlPlane: ControlPlaneSettings;
}

const n = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

/**
 * A window in sentences, for the CLI (the view words it with the same numbers): the
 * balancer's window in the health check's terms (MetalLB: memberlist's failover, no probes),
 * then the stale-endpoint window in the node lifecycle controller's.
 */
export function describeWindow(w: DeadNodeWindow, ctx: WindowContext): string {
  const hc = ctx.healthCheck;
  const metallb = ctx.provisioning.controller === 'metallb-l2';
  const t = formatSimTime;
  const parts: string[] = [];
  if (!w.wasInRotation)
    parts.push(
      metallb
        ? `${w.node} died at ${t(w.failedAt)}; it was not the node announcing the address, so no new connection entered it.`
        : `${w.node} died at ${t(w.failedAt)}; it was not in the balancer's rotation then, so the balancer sent it no new connections.`,
    );
  else if (w.leftRotationAt === null)
    parts.push(
      `${w.node} died at ${t(w.failedAt)} and was never ${metallb ? 'replaced as the announcing node' : 'taken out of rotation'} in the run; ${n(w.connectionsSent, 'new connection')} went to it.`,
    );
  else if (metallb)
    parts.push(
      `${w.node} died at ${t(w.failedAt)} while it answered ARP for the address; MetalLB runs no health checks: another speaker took the address over at ${t(w.leftRotationAt)} (${t(w.durationMs ?? 0)}), once memberlist declared ${w.node} dead (failure detection, about ${t(ctx.provisioning.metallb.failoverDetectMs)} here); ${n(w.connectionsSent, 'new connection')} went to it meanwhile (the model expected ${w.expectedConnectionsSent.toFixed(1)}).`,
    );
  else
    parts.push(
      `${w.node} died at ${t(w.failedAt)} and left the rotation at ${t(w.leftRotationAt)} (${t(w.durationMs ?? 0)}: ${n(hc.unhealthyThreshold, 'failed probe')} in a row, ${hc.intervalSeconds} s apart, the last waiting ${hc.timeoutSeconds} s; at most ${t(w.boundMs)} with these settings); ${n(w.connectionsSent, 'new connection')} went to it meanwhile (the model expected ${w.expectedConnectionsSent.toFixed(1)}).`,
    );
  if (
    w.staleEndpoints.length > 0 &&
    (w.staleEndpointConnections > 0 || w.expectedStaleEndpointConnections > 0)
  ) {
    const pods = `${w.staleEndpoints.length === 1 ? 'Its Pod' : 'Its Pods'} ${w.staleEndpoints.join(', ')}`;
    const until =
      w.endpointsUpdatedAt === null
        ? 'to the end of the run'
        : `until ${t(w.endpointsUpdatedAt)}, when kube-proxy synced after the node lifecycle controller marked ${w.node} NotReady (--node-monitor-grace-period ${ctx.controlPlane.nodeMonitorGracePeriodSeconds} s after the failure, then ${t(ctx.controlPlane.endpointPropagationMs)} to kube-proxy)`;
    parts.push(
      `${pods} stayed ready in the EndpointSlice ${until}: other nodes still DNATed ${n(w.staleEndpointConnections, 'new connection')} to ${w.staleEndpoints.length === 1 ? 'it' : 'them'}, and they timed out (the model expected ${w.expectedStaleEndpointConnections.toFixed(1)}).`,
    );
  }
  return parts.join(' ');
}
