/**
 * Nodes over time: a node failing and coming back, `kubectl drain` and `uncordon`,
 * cluster-autoscaler's scale-down (the `ToBeDeletedByClusterAutoscaler` taint, KEP-3836's 503
 * from `/healthz`); and the control plane noticing a silent node — the node lifecycle
 * controller's `Ready=Unknown` and `unreachable:NoExecute` taint after the grace period, the
 * taint eviction after `tolerationSeconds`, MetalLB's memberlist declaring it dead.
 * User events: `fail-node`, `restore-node`, `drain-node`, `uncordon-node`, `scale-down-node`;
 * actions: `notice`, `evict`, `memberlist-dead`.
 */
import { formatSimTime } from '../duration';
import { SIM_EPOCH_MS, TO_BE_DELETED_TAINT } from '../scenario';
import type { SimMs } from '../types';
import type { ActionHandlers, EventHandlers } from './handlerTypes';
import { endpointsChanged } from './kubeProxySync';
import { add } from './messages';
import { reconcile, terminatePod } from './pods';
import { elect } from './provisioning';
import type { Sim } from './state';
import { nodeOf, podList } from './state';
import type { NodeInt } from './types';

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** The node posts `Ready` again after a return: condition, Event and the unreachable taint gone. */
function markReady(sim: Sim, n: NodeInt, t: SimMs): void {
  n.readyCondition = 'True';
  n.taints.delete(UNREACHABLE);
  const node = n.name;
  add(
    sim,
    t,
    'node-condition',
    'kubelet',
    `${node} Ready → True (kubelet posts its status again).`,
    {
      node,
    },
  );
  add(sim, t, 'k8s-event', 'node-lifecycle-controller', `Node ${node} status is now: NodeReady`, {
    reason: 'NodeReady',
    node,
  });
  add(
    sim,
    t,
    'taint',
    'node-lifecycle-controller',
    `node.kubernetes.io/unreachable removed from ${node}.`,
    { node },
  );
}

/** After a return: Pods deleted while it was down are gone; the others restart and get ready again. */
function restartPods(sim: Sim, node: string, t: SimMs): void {
  for (const p of podList(sim)) {
    if (p.node !== node) continue;
    if (p.phase === 'Terminating') {
      sim.pods.delete(p.key);
      add(
        sim,
        t,
        'pod',
        'kubelet',
        `${p.name} was deleted while ${node} was down; its kubelet finishes the deletion and the Pod is gone.`,
        { pod: p.key, node: p.node },
      );
      continue;
    }
    p.ready = false;
    p.gen++;
    sim.agenda.push(t + sim.cfg.cp.readinessDelayMs, { kind: 'pod-ready', pod: p.key, gen: p.gen });
  }
}

/** What scaling `node` down means for the balancer's health check, for kube-proxy's note. */
function scaleDownHealthText(sim: Sim, node: string): string {
  const { controller, hc } = sim.cfg;
  if (controller !== 'cloud') return '';
  const how =
    sim.apiPolicy === 'Cluster' && hc.clusterTarget === 'healthz'
      ? `the health check drains ${node}: ${hc.unhealthyThreshold} failed probes take it out of rotation`
      : sim.apiPolicy === 'Local'
        ? `under Local the health check follows ${node}'s local endpoints, which go as its Pods are evicted`
        : `a TCP check to the NodePort does not see the taint: ${node} stays in rotation until it is gone`;
  return ` The service controller does not change the balancer's targets for the taint alone, so ${how}.`;
}

/** The user's node events. */
export const nodeEvents = {
  'fail-node': (sim, ev, t) => {
    const n = nodeOf(sim, ev.node);
    const { cp, prov, metallb } = sim.cfg;
    if (!n.up) {
      add(sim, t, 'note', 'user', `${ev.node} is already down.`, { node: ev.node });
      return;
    }
    n.up = false;
    n.gen++;
    sim.outages.push({ node: ev.node, from: t, to: null });
    add(
      sim,
      t,
      'event',
      'user',
      `${ev.node} fails (powered off): its kubelet, kube-proxy and Pods stop; nothing on it answers — not health checks, not connections.`,
      { node: ev.node },
    );
    add(
      sim,
      t,
      'connections',
      'conntrack',
      `Connections open through ${ev.node} — entering it from the balancer, or ending at one of its Pods — are blackholed: their packets reach a machine that no longer answers, so no RST comes back and each client retransmits until it gives up. Connections on other paths are untouched: conntrack keeps them on their Pods.`,
      { node: ev.node },
    );
    sim.agenda.push(t + cp.nodeMonitorGracePeriodSeconds * 1000, {
      kind: 'notice',
      node: ev.node,
      gen: n.gen,
    });
    if (metallb)
      sim.agenda.push(t + prov.metallb.failoverDetectMs, {
        kind: 'memberlist-dead',
        node: ev.node,
        gen: n.gen,
      });
  },
  'restore-node': (sim, ev, t) => {
    const n = nodeOf(sim, ev.node);
    if (n.up) {
      add(sim, t, 'note', 'user', `${ev.node} is already up.`, { node: ev.node });
      return;
    }
    n.up = true;
    n.gen++;
    n.upSince = t;
    const o = [...sim.outages].reverse().find((x) => x.node === ev.node && x.to === null);
    if (o) o.to = t;
    add(
      sim,
      t,
      'event',
      'user',
      `${ev.node} is back: kubelet and kube-proxy start again; kube-proxy answers health checks at once, its Pods restart their containers.`,
      { node: ev.node },
    );
    if (n.readyCondition !== 'True') markReady(sim, n, t);
    restartPods(sim, ev.node, t);
    endpointsChanged(sim, t);
    if (sim.cfg.metallb) {
      sim.speakers.add(ev.node);
      elect(sim, t, `${ev.node}'s speaker rejoined memberlist`);
    }
    reconcile(sim, t);
  },
  'drain-node': (sim, ev, t) => {
    const n = nodeOf(sim, ev.node);
    add(sim, t, 'event', 'user', `kubectl drain ${ev.node}: cordon, then evict every Pod on it.`, {
      node: ev.node,
    });
    if (!n.unschedulable) {
      n.unschedulable = true;
      n.taints.add(UNSCHEDULABLE);
      add(sim, t, 'k8s-event', 'kubelet', `Node ${ev.node} status is now: NodeNotSchedulable`, {
        reason: 'NodeNotSchedulable',
        node: ev.node,
      });
    }
    if (sim.apiPolicy === 'Cluster' && sim.cfg.controller === 'cloud')
      add(
        sim,
        t,
        'note',
        'kube-proxy',
        `Cordoning does not fail kube-proxy's /healthz (only a deletionTimestamp or the ToBeDeletedByClusterAutoscaler taint does), so ${ev.node} stays in the balancer's rotation and forwards new connections to Pods on other nodes.`,
        { node: ev.node },
      );
    for (const p of podList(sim))
      if (p.node === ev.node) terminatePod(sim, p, t, `evicted by kubectl drain ${ev.node}`);
    reconcile(sim, t);
  },
  'uncordon-node': (sim, ev, t) => {
    const n = nodeOf(sim, ev.node);
    add(sim, t, 'event', 'user', `kubectl uncordon ${ev.node}.`, { node: ev.node });
    if (n.unschedulable) {
      n.unschedulable = false;
      n.taints.delete(UNSCHEDULABLE);
      add(sim, t, 'k8s-event', 'kubelet', `Node ${ev.node} status is now: NodeSchedulable`, {
        reason: 'NodeSchedulable',
        node: ev.node,
      });
    }
    reconcile(sim, t);
  },
  'scale-down-node': (sim, ev, t) => {
    const n = nodeOf(sim, ev.node);
    add(
      sim,
      t,
      'event',
      'user',
      `cluster-autoscaler scales ${ev.node} down: it adds the taint ${TO_BE_DELETED_TAINT}:NoSchedule, then evicts the node's Pods.`,
      { node: ev.node },
    );
    if (n.taints.has(TO_BE_DELETED_TAINT)) {
      add(sim, t, 'note', 'user', `${ev.node} already has ${TO_BE_DELETED_TAINT}.`, {
        node: ev.node,
      });
      return;
    }
    n.taints.add(TO_BE_DELETED_TAINT);
    n.taintedAt = t;
    add(
      sim,
      t,
      'taint',
      'cluster-autoscaler',
      `${TO_BE_DELETED_TAINT}=${Math.floor((SIM_EPOCH_MS + t) / 1000)}:NoSchedule added to ${ev.node}: no new Pod lands there.`,
      { node: ev.node },
    );
    if (n.up)
      add(
        sim,
        t,
        'note',
        'kube-proxy',
        `kube-proxy on ${ev.node} sees the taint on its Node: from now on its /healthz on port 10256 answers 503 with "nodeEligible":false (KEP-3836), while the node keeps forwarding the connections it gets.${scaleDownHealthText(sim, ev.node)}`,
        { node: ev.node },
      );
    for (const p of podList(sim))
      if (p.node === ev.node)
        terminatePod(sim, p, t, `evicted by cluster-autoscaler scaling ${ev.node} down`);
    add(
      sim,
      t,
      'note',
      'cluster-autoscaler',
      `Once the Pods are gone cluster-autoscaler deletes the machine; this run keeps ${ev.node} up so the drain can be watched (schedule "fail ${ev.node}" to power it off).`,
      { node: ev.node },
    );
    reconcile(sim, t);
  },
} satisfies Pick<
  EventHandlers,
  'fail-node' | 'restore-node' | 'drain-node' | 'uncordon-node' | 'scale-down-node'
>;

/** Whether an action scheduled for `gen` of `node` still applies: the same outage, node still down. */
function stillDown(sim: Sim, node: string, gen: number): boolean {
  const n = nodeOf(sim, node);
  return n.gen === gen && !n.up;
}

/** The node lifecycle controller's notice of a silent node: Ready → Unknown, tainted, Pods not ready. */
function notice(sim: Sim, node: string, gen: number, t: SimMs): void {
  if (!stillDown(sim, node, gen)) return;
  const n = nodeOf(sim, node);
  const { cp, controller } = sim.cfg;
  n.readyCondition = 'Unknown';
  n.taints.add(UNREACHABLE);
  add(
    sim,
    t,
    'node-condition',
    'node-lifecycle-controller',
    `${node} Ready → Unknown (NodeStatusUnknown: Kubelet stopped posting node status.) — ${cp.nodeMonitorGracePeriodSeconds} s (--node-monitor-grace-period) after its last heartbeat.`,
    { node },
  );
  add(
    sim,
    t,
    'k8s-event',
    'node-lifecycle-controller',
    `Node ${node} status is now: NodeNotReady`,
    {
      reason: 'NodeNotReady',
      node,
    },
  );
  add(
    sim,
    t,
    'taint',
    'node-lifecycle-controller',
    `node.kubernetes.io/unreachable:NoExecute added to ${node}; its Pods tolerate it for ${cp.unreachableTolerationSeconds} s.`,
    { node },
  );
  if (controller === 'cloud')
    add(
      sim,
      t,
      'note',
      'service-controller',
      `The service controller leaves ${node} registered with the balancer (StableLoadBalancerNodeSet, beta and on by default since 1.27, GA in 1.30: node readiness no longer changes the targets); only the health check keeps traffic away from it.`,
      { node },
    );
  for (const p of podList(sim))
    if (p.node === node && p.ready) {
      p.ready = false;
      add(
        sim,
        t,
        'pod',
        'node-lifecycle-controller',
        `${p.name} Ready → False (its node is not ready).`,
        { pod: p.key, node: p.node },
      );
    }
  endpointsChanged(sim, t);
  sim.agenda.push(t + cp.unreachableTolerationSeconds * 1000, { kind: 'evict', node, gen });
}

/** The control plane's actions on a silent node. */
export const nodeActions = {
  notice: (sim, a, t) => notice(sim, a.node, a.gen, t),
  evict: (sim, a, t) => {
    if (!stillDown(sim, a.node, a.gen)) return;
    const { cp } = sim.cfg;
    for (const p of podList(sim))
      if (p.node === a.node && p.phase !== 'Terminating') {
        add(sim, t, 'k8s-event', 'node-lifecycle-controller', `Marking for deletion Pod ${p.key}`, {
          reason: 'TaintManagerEviction',
          pod: p.key,
          node: p.node,
        });
        terminatePod(
          sim,
          p,
          t,
          `evicted: ${a.node} unreachable for ${cp.unreachableTolerationSeconds} s; it stays Terminating until the kubelet confirms`,
        );
      }
    reconcile(sim, t);
  },
  'memberlist-dead': (sim, a, t) => {
    if (!stillDown(sim, a.node, a.gen)) return;
    sim.speakers.delete(a.node);
    add(
      sim,
      t,
      'note',
      'metallb-speaker',
      `memberlist on the other speakers declares ${a.node} dead (${formatSimTime(sim.cfg.prov.metallb.failoverDetectMs)} after it failed).`,
      { node: a.node },
    );
    elect(sim, t, `${a.node}'s speaker left memberlist`);
  },
} satisfies Pick<ActionHandlers, 'notice' | 'evict' | 'memberlist-dead'>;
