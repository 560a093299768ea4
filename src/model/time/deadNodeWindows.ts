/**
 * The windows of a node outage (see `DeadNodeWindow`, ./connectionTypes.ts): new connections
 * the balancer still sent to the dead node until it left the rotation, and new connections
 * other nodes still DNATed to its Pods until kube-proxy stopped using their endpoints — each
 * counted in the workload and against what the epochs' path probabilities expect — and the
 * sentences the CLI words them with.
 */
import { formatSimTime } from './duration';
import type { Outage } from './engine/index';
import { epochIndexAt } from './epochIndex';
import type {
  ConnectionRecord,
  ControlPlaneSettings,
  DeadNodeWindow,
  EntryPaths,
  Epoch,
  HealthCheckSettings,
  ProvisioningSettings,
  RotationChange,
  SimMs,
} from './types';

/** The IP of an endpoint `ip:port` (or an IP alone). */
function ipOf(endpoint: string): string {
  const i = endpoint.lastIndexOf(':');
  return i < 0 ? endpoint : endpoint.slice(0, i);
}

/** A window's connections: how many opened in it matched, and how many the model expected. */
interface WindowCount {
  count: number;
  expected: number;
}

/**
 * The workload's connections opened in [`from`, `to`) that `match`, and the expected number:
 * Σ over the epochs they opened in of (connections × the share of the entries `entryMay`
 * admits × the weight of each slot `path` admits).
 */
function windowCount(
  records: readonly ConnectionRecord[],
  epochs: readonly Epoch[],
  from: SimMs,
  to: SimMs,
  match: (r: ConnectionRecord) => boolean,
  entryMay: (e: EntryPaths) => boolean,
  path: (e: EntryPaths, slot: number) => boolean,
): WindowCount {
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
}

/**
 * When the balancer stopped sending the dead node new connections: the rotation change that
 * took it out during the outage (null: never in the run), or the failure itself when it was
 * not in the rotation then.
 */
function leftRotation(
  o: Outage,
  atFailure: Epoch | undefined,
  rotation: readonly RotationChange[],
): { wasIn: boolean; leftAt: SimMs | null } {
  const wasIn = atFailure ? atFailure.state.inRotation.includes(o.node) : false;
  const left = wasIn
    ? rotation.find(
        (r) =>
          r.node === o.node && !r.inRotation && r.at >= o.from && (o.to === null || r.at <= o.to),
      )
    : undefined;
  return { wasIn, leftAt: wasIn ? (left ? left.at : null) : o.from };
}

/**
 * When kube-proxy elsewhere stopped DNATing to the dead node's endpoints that were ready at
 * the failure (`stale`): the first epoch after the failure in which none of them is ready, else
 * the node's return when it is within the run; null when neither.
 */
function endpointsUpdatedAt(
  o: Outage,
  stale: readonly string[],
  epochs: readonly Epoch[],
  horizon: SimMs,
): SimMs | null {
  if (stale.length === 0) return null;
  for (const e of epochs) {
    if (e.from <= o.from) continue;
    if (o.to !== null && e.from >= o.to) break;
    if (!e.state.endpoints.some((x) => stale.includes(x.ip) && x.ready)) return e.from;
  }
  return o.to !== null && o.to <= horizon ? o.to : null;
}

/**
 * Whether slot `j` of an entry's paths ends at one of `stale`'s IPs: the class's fact, found
 * once per slots array.
 */
function staleSlotTest(stale: readonly string[]): (e: EntryPaths, j: number) => boolean {
  const staleSlots = new WeakMap<EntryPaths['slots'], Uint8Array>();
  return (e, j) => {
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
}

/** Both windows of one outage (see {@link deadNodeWindows}). */
function outageWindows(
  o: Outage,
  rotation: readonly RotationChange[],
  epochs: readonly Epoch[],
  records: readonly ConnectionRecord[],
  boundMs: SimMs,
  horizon: SimMs,
): DeadNodeWindow {
  const atFailure = epochs[epochIndexAt(epochs, o.from)];
  const { wasIn, leftAt } = leftRotation(o, atFailure, rotation);
  const end = Math.min(leftAt ?? o.to ?? horizon, o.to ?? horizon, horizon);
  // Window 1: the balancer still sends new connections to the dead node.
  const w1 = windowCount(
    records,
    epochs,
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
  const updatedAt = endpointsUpdatedAt(o, stale, epochs, horizon);
  const end2 = Math.min(updatedAt ?? horizon, horizon);
  const viaOther = (lbTarget: string | null, endpoint: string | null) =>
    lbTarget !== o.node && endpoint !== null && stale.includes(ipOf(endpoint));
  const w2: WindowCount =
    stale.length > 0
      ? windowCount(
          records,
          epochs,
          o.from,
          end2,
          (r) => viaOther(r.lbTarget, r.endpoint),
          (e) => e.lbTarget !== o.node,
          staleSlotTest(stale),
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
}

/**
 * The two windows of every outage (see `DeadNodeWindow`): new connections the balancer
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
  return outages.map((o) => outageWindows(o, rotation, epochs, records, boundMs, horizon));
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
