/**
 * How "What happens" words a dead node's two windows (the model's `DeadNodeWindow`): the
 * balancer's, in the terms of what decides it — health checks for a cloud balancer,
 * memberlist's failure detection for MetalLB — and kube-proxy's stale endpoints, in the node
 * lifecycle controller's. Pure: the numbers are the model's, only the words are chosen here.
 */
import type { ConnectionRecord, DeadNodeWindow, Timeline } from '../../model/time/types';
import { clockText, plural, seconds } from './format';

/** One window as a headline and the sentence that explains its length. */
export interface WindowText {
  headline: string;
  detail: string;
}

/** The words for one dead node: the balancer's window, and the stale-endpoint one when it applies. */
export interface DeadNodeText {
  balancer: WindowText;
  /** Absent when the node had no ready Pod, or no connection could reach one through another node. */
  stale?: WindowText;
}

/** Whether the stale-endpoint window is worth telling (connections could reach the dead node's Pods). */
export function hasStaleWindow(w: DeadNodeWindow): boolean {
  return (
    w.staleEndpoints.length > 0 &&
    (w.staleEndpointConnections > 0 || w.expectedStaleEndpointConnections > 0)
  );
}

/** The words for window `w` of `timeline`. */
export function deadNodeText(w: DeadNodeWindow, timeline: Timeline): DeadNodeText {
  const { healthCheck: hc, provisioning: prov, controlPlane: cp } = timeline.settings;
  const metallb = prov.controller === 'metallb-l2';
  const sent = `${plural(w.connectionsSent, 'new connection')} still sent to it`;
  let balancer: WindowText;
  if (!w.wasInRotation)
    balancer = metallb
      ? {
          headline: `${w.node} failed at ${clockText(w.failedAt)} while another node announced the address: no new connection entered it.`,
          detail:
            'With MetalLB layer 2 all traffic for the address enters the one node whose speaker answers ARP for it.',
        }
      : {
          headline: `${w.node} failed at ${clockText(w.failedAt)} while out of the balancer’s rotation: the balancer sent it no new connections.`,
          detail: `It had not passed its health check (${plural(hc.healthyThreshold, 'passing probe')} in a row brings a node in), so only its Pods could still draw connections.`,
        };
  else if (metallb)
    balancer = {
      headline: `${w.node} was dead but still announcing ${timeline.address} ${span(w)}: ${sent}.`,
      detail: `MetalLB layer 2 runs no health checks. The other speakers notice the node is gone through memberlist’s failure detection (about ${seconds(prov.metallb.failoverDetectMs)} here); then the next speaker in MetalLB’s order sends gratuitous ARP and takes the address over.`,
    };
  else
    balancer = {
      headline: `${w.node} was dead but still in rotation ${span(w)}: ${sent}.`,
      detail: `The balancer only notices after ${plural(hc.unhealthyThreshold, 'failed probe')} in a row, ${hc.intervalSeconds} s apart, the last one waiting ${hc.timeoutSeconds} s: at most ${seconds(w.boundMs)} (interval ${hc.intervalSeconds} s × unhealthy threshold ${hc.unhealthyThreshold}, plus the timeout).`,
    };
  if (!hasStaleWindow(w)) return { balancer };
  const pods = `${w.staleEndpoints.length === 1 ? 'Its Pod' : 'Its Pods'} ${w.staleEndpoints.join(', ')}`;
  const until =
    w.endpointsUpdatedAt === null
      ? 'to the end of the run'
      : `until ${clockText(w.endpointsUpdatedAt)} (${seconds(w.endpointsUpdatedAt - w.failedAt)} after the failure)`;
  const stale: WindowText = {
    headline: `${pods} stayed ${w.staleEndpoints.length === 1 ? 'a ready endpoint' : 'ready endpoints'} ${until}: other nodes still DNATed ${plural(w.staleEndpointConnections, 'new connection')} to ${w.staleEndpoints.length === 1 ? 'it' : 'them'}, and they timed out.`,
    detail: `kube-proxy keeps sending new connections to an endpoint until the EndpointSlice says it is not ready: the node lifecycle controller marks ${w.node} NotReady after --node-monitor-grace-period (${cp.nodeMonitorGracePeriodSeconds} s), its Pods’ endpoints turn ready: false, and kube-proxy syncs ${seconds(cp.endpointPropagationMs)} later (the model expected ${w.expectedStaleEndpointConnections.toFixed(1)} such connections). In a real cluster NotReady lands about 40–55 s after the failure: the kubelet renews its Lease every 10 s, so its last heartbeat is up to 10 s before the failure, and the controller checks every 5 s (--node-monitor-period); the model marks it exactly the grace period after the failure.`,
  };
  return { balancer, stale };
}

function span(w: DeadNodeWindow): string {
  return w.leftRotationAt === null
    ? `from ${clockText(w.failedAt)} to the end of the run`
    : `from ${clockText(w.failedAt)} to ${clockText(w.leftRotationAt)} (${seconds(w.durationMs ?? 0)})`;
}

/**
 * A connection's path in a few words: `node-2 → web-… (cross-node) · SNAT`; for a connection
 * that entered a dead node `blackholed at node-1 (down)`; for one DNATed to a Pod on a dead
 * node `node-2 → 10.244.1.5:8080 on node-1 (down): no answer`.
 */
export function pathText(c: ConnectionRecord, timeline: Timeline): string {
  const epoch = timeline.epochs[c.epoch];
  const down = new Set(epoch?.failedNodes ?? []);
  if (c.outcome === 'no-address') return 'not sent: EXTERNAL-IP <pending>';
  if (c.lbTarget && down.has(c.lbTarget)) return `blackholed at ${c.lbTarget} (down)`;
  const from = c.lbTarget ?? c.client;
  if (c.pod)
    return `${from} → ${c.pod.split('/')[1] ?? c.pod}${c.crossNode ? ' (cross-node)' : ''}${c.snat ? ' · SNAT' : ''}`;
  if (c.endpoint) {
    const ip = c.endpoint.slice(0, c.endpoint.lastIndexOf(':'));
    const node = epoch?.state.endpoints.find((e) => e.ip === ip)?.node;
    return node && down.has(node)
      ? `${from} → ${c.endpoint} on ${node} (down): no answer`
      : `${from} → ${c.endpoint}: no answer`;
  }
  return `${from} → no endpoint`;
}
