/**
 * The cloud balancer's health checks: each target probed every interval (staggered), the
 * answer kube-proxy (or nobody) gives, and the consecutive successes and failures that move a
 * node in and out of the rotation. Actions: `probe`, `probe-result`.
 */
import { probeNode } from '../../cloud/healthCheck';
import type { HealthCheckResult } from '../../cloud/healthCheck';
import type { ServiceModel } from '../../scenario/cluster';
import { applyScene } from '../../scenario/scene';
import { resolveCluster } from '../../scenario/resolve';
import { pickService } from '../../trace/trace';
import { markNodesDown } from '../down';
import { formatSimTime } from '../duration';
import { SIM_EPOCH_MS, TO_BE_DELETED_TAINT, snapshot } from '../scenario';
import type { SimMs } from '../types';
import { add } from './messages';
import type { Sim } from './state';
import { nodeOf, standingOf, world } from './state';
import type { ActionHandlers } from './handlerTypes';
import type { ProbeDraft, StateCluster } from './types';

/** The resolved cluster of the current state, for probes (cached per state, see `Sim.clusters`). */
export function currentCluster(sim: Sim): StateCluster {
  const { lastCluster, version, base } = sim;
  if (lastCluster && lastCluster.version === version) return lastCluster.hit;
  const st = world(sim);
  const key = JSON.stringify({ ...st, inRotation: [], announcingNode: null });
  let hit = sim.clusters.get(key);
  if (!hit) {
    const { controller, address } = sim.cfg;
    const snap = snapshot(base, st, { controller, address }, false);
    const cluster = markNodesDown(
      resolveCluster(applyScene(snap.objects, snap.scene)),
      snap.scene.downNodes,
    );
    hit = { cluster, svc: pickService(cluster, base.serviceKey), scene: snap.scene };
    sim.clusters.set(key, hit);
  }
  sim.lastCluster = { version, hit };
  return hit;
}

/** Schedules every target's first probe from `t0`: target i of N at t0 + floor(i × interval / N). */
export function scheduleProbes(sim: Sim, t0: SimMs): void {
  const { targets, intervalMs } = sim.cfg;
  targets.forEach((n, i) => {
    sim.agenda.push(t0 + Math.floor((i * intervalMs) / targets.length), { kind: 'probe', node: n });
  });
}

/** What a probe of node `name` sent at `t` gets back (not yet counted). */
export function probeFor(sim: Sim, name: string, t: SimMs): ProbeDraft {
  const n = nodeOf(sim, name);
  const { hc, hcnp, timeoutMs } = sim.cfg;
  const { cluster, svc } = currentCluster(sim);
  const cnode = cluster.nodes.find((x) => x.name === name);
  const local = sim.lb.hcPolicy === 'Local';
  const hcSvc: ServiceModel = {
    ...svc,
    externalTrafficPolicy: sim.lb.hcPolicy,
    healthCheckNodePort: local ? svc.healthCheckNodePort || hcnp : 0,
  };
  const r: HealthCheckResult = cnode
    ? probeNode(
        cluster,
        hcSvc,
        { ...cnode, ready: n.up },
        {
          clusterCheck: hc.clusterTarget,
          clock: {
            nowMs: SIM_EPOCH_MS + t,
            lastSyncMs: SIM_EPOCH_MS + Math.max(n.lastSync, n.upSince),
            startedMs: SIM_EPOCH_MS + n.upSince,
          },
          nodeEligible: !n.taints.has(TO_BE_DELETED_TAINT),
        },
      )
    : { node: name, target: '', status: null, body: '', healthy: false, summary: 'no such node' };
  if (!n.up)
    return {
      at: t,
      doneAt: t + timeoutMs,
      node: name,
      target: r.target,
      status: null,
      body: '',
      ok: false,
      summary: `no answer: timed out after ${formatSimTime(timeoutMs)} (node down)`,
    };
  if (local && sim.kp.policy !== 'Local')
    return {
      at: t,
      doneAt: t,
      node: name,
      target: r.target,
      status: null,
      body: '',
      ok: false,
      summary:
        'connection refused: kube-proxy serves no healthCheckNodePort for a Cluster-policy Service',
    };
  return {
    at: t,
    doneAt: t,
    node: name,
    target: r.target,
    status: r.status,
    body: r.body,
    ok: r.healthy,
    summary: r.summary,
  };
}

/** Counts a probe's result: the node leaves or joins the rotation at a threshold. */
export function applyProbe(sim: Sim, rec: ProbeDraft): void {
  const { hc } = sim.cfg;
  const st = standingOf(sim, rec.node);
  if (rec.ok) {
    st.succ++;
    st.fail = 0;
  } else {
    st.fail++;
    st.succ = 0;
  }
  const t = rec.doneAt;
  if (st.inRotation && st.fail >= hc.unhealthyThreshold) {
    st.inRotation = false;
    const reason = `${st.fail} consecutive failed probe${st.fail === 1 ? '' : 's'} (unhealthy threshold ${hc.unhealthyThreshold})`;
    sim.rotation.push({ at: t, node: rec.node, inRotation: false, reason });
    add(
      sim,
      t,
      'rotation',
      'balancer',
      `${rec.node} leaves the balancer's rotation: ${reason}. New connections no longer go to it.`,
      { node: rec.node },
    );
  } else if (!st.inRotation && st.succ >= hc.healthyThreshold) {
    st.inRotation = true;
    const reason = `${st.succ} consecutive successful probe${st.succ === 1 ? '' : 's'} (healthy threshold ${hc.healthyThreshold})`;
    sim.rotation.push({ at: t, node: rec.node, inRotation: true, reason });
    add(sim, t, 'rotation', 'balancer', `${rec.node} joins the balancer's rotation: ${reason}.`, {
      node: rec.node,
    });
  }
  sim.probes.push({
    ...rec,
    consecutiveSuccesses: st.succ,
    consecutiveFailures: st.fail,
    inRotation: st.inRotation,
  });
}

/**
 * A run that starts provisioned: each target's standing follows the answer it gives at t = 0
 * (in rotation with the healthy threshold met, or out with the unhealthy one).
 */
export function settleStanding(sim: Sim): void {
  const { hc, targets } = sim.cfg;
  for (const n of targets) {
    const r = probeFor(sim, n, 0);
    const st = standingOf(sim, n);
    st.inRotation = r.ok;
    st.succ = r.ok ? hc.healthyThreshold : 0;
    st.fail = r.ok ? 0 : hc.unhealthyThreshold;
  }
}

/** The health checks' actions. */
export const healthCheckActions = {
  probe: (sim, a, t) => {
    if (!sim.lb.registered || sim.cfg.controller !== 'cloud') return;
    const rec = probeFor(sim, a.node, t);
    if (rec.doneAt === t) applyProbe(sim, rec);
    else sim.agenda.push(rec.doneAt, { kind: 'probe-result', rec });
    sim.agenda.push(t + sim.cfg.intervalMs, { kind: 'probe', node: a.node });
  },
  'probe-result': (sim, a) => applyProbe(sim, a.rec),
} satisfies Pick<ActionHandlers, 'probe' | 'probe-result'>;
