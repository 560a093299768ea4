/**
 * The EndpointSlice and kube-proxy: the EndpointSlice controller writes every change of the
 * Pods' conditions ({@link endpointsChanged}); kube-proxy on every node applies it (and any
 * change of `externalTrafficPolicy`) `endpointPropagationMs` later, two changes in the same
 * millisecond in one sync. Action: `sync`; user event: `set-policy` (`kubectl patch svc`).
 */
import { endpointsOf } from '../scenario';
import type { SimMs } from '../types';
import type { ActionHandlers, EventHandlers } from './handlerTypes';
import { add } from './messages';
import { elect } from './provisioning';
import type { Sim } from './state';
import { podList, strip } from './state';
import type { ActionOf } from './types';

/** Schedules kube-proxy's sync of the API's endpoints and policy as of `t` (batched per millisecond). */
export function scheduleSync(sim: Sim, t: SimMs): void {
  const at = t + sim.cfg.cp.endpointPropagationMs;
  const pending = sim.pendingSync;
  if (pending && pending.at === at) {
    pending.action.endpoints = sim.apiEndpoints;
    pending.action.policy = sim.apiPolicy;
    return;
  }
  const action: ActionOf<'sync'> = {
    kind: 'sync',
    endpoints: sim.apiEndpoints,
    policy: sim.apiPolicy,
  };
  sim.pendingSync = { at, action };
  sim.agenda.push(at, action);
}

/**
 * The EndpointSlice controller after a Pod changed at `t`: when the endpoints differ from the
 * API's, it records what changed and kube-proxy's sync is scheduled.
 */
export function endpointsChanged(sim: Sim, t: SimMs): void {
  const next = endpointsOf(podList(sim).map(strip));
  const key = JSON.stringify(next);
  if (key === sim.apiEndpointsKey) return;
  const before = new Map(sim.apiEndpoints.map((e) => [e.pod, e]));
  const parts: string[] = [];
  for (const e of next) {
    const b = before.get(e.pod);
    const cond = `ready:${e.ready} serving:${e.serving} terminating:${e.terminating}`;
    if (!b) parts.push(`${e.ip} (${e.pod.split('/')[1] ?? ''}) added, ${cond}`);
    else if (b.ready !== e.ready || b.serving !== e.serving || b.terminating !== e.terminating)
      parts.push(`${e.ip} now ${cond}`);
    before.delete(e.pod);
  }
  for (const e of before.values()) parts.push(`${e.ip} removed`);
  sim.apiEndpoints = next;
  sim.apiEndpointsKey = key;
  add(
    sim,
    t,
    'endpoints',
    'endpointslice-controller',
    `EndpointSlice of ${sim.base.serviceKey}: ${parts.join('; ')}.`,
  );
  scheduleSync(sim, t);
}

/** kube-proxy's action. */
export const kubeProxyActions = {
  sync: (sim, a, t) => {
    const { kp } = sim;
    const changedPolicy = kp.policy !== a.policy;
    const changedEps = JSON.stringify(kp.endpoints) !== JSON.stringify(a.endpoints);
    if (!changedPolicy && !changedEps) return;
    kp.endpoints = a.endpoints;
    kp.policy = a.policy;
    for (const n of sim.nodes.values()) if (n.up) n.lastSync = t;
    const ready = a.endpoints.filter((e) => e.ready).map((e) => e.ip);
    const term = a.endpoints.filter((e) => !e.ready && e.serving && e.terminating).map((e) => e.ip);
    add(
      sim,
      t,
      'kube-proxy-sync',
      'kube-proxy',
      `kube-proxy on every node rewrites its rules: ${changedPolicy ? `externalTrafficPolicy ${a.policy}; ` : ''}ready endpoints ${ready.join(', ') || 'none'}${term.length ? `; serving-and-terminating ${term.join(', ')} (used only where no ready endpoint is left)` : ''}. Open connections keep their conntrack entries.`,
    );
    elect(sim, t, 'endpoints or policy changed');
  },
} satisfies Pick<ActionHandlers, 'sync'>;

/** `kubectl patch svc … externalTrafficPolicy`: kube-proxy follows; so does the cloud's service controller. */
export const policyEvents = {
  'set-policy': (sim, ev, t) => {
    if (ev.policy === sim.apiPolicy) {
      add(sim, t, 'note', 'user', `externalTrafficPolicy is already ${ev.policy}.`);
      return;
    }
    const from = sim.apiPolicy;
    sim.apiPolicy = ev.policy;
    add(
      sim,
      t,
      'event',
      'user',
      `kubectl patch svc ${sim.base.name}: externalTrafficPolicy ${from} → ${ev.policy}${ev.policy === 'Local' ? `; the API server allocates healthCheckNodePort ${sim.cfg.hcnp}` : '; the API server releases healthCheckNodePort'}.`,
    );
    scheduleSync(sim, t);
    if (sim.cfg.controller === 'cloud' && sim.lb.registered)
      sim.agenda.push(t + sim.cfg.prov.informerDelayMs, {
        kind: 'svc-policy',
        from,
        to: ev.policy,
      });
  },
} satisfies Pick<EventHandlers, 'set-policy'>;
