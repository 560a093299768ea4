/**
 * The Service's Pods: the ReplicaSet keeps `spec.replicas` active ({@link reconcile}: new
 * Pods named as `util/rand.String` names them and placed by the scheduler's filters; the
 * ReplicaSet's victim order on a scale-down), graceful termination ({@link terminatePod}:
 * deletionTimestamp, SIGTERM, the app's exit or SIGKILL after the grace period), and readiness.
 * Actions: `pod-ready`, `pod-exit`; user events: `kill-pod`, `scale`.
 */
import { TO_BE_DELETED_TAINT, nextPodIP } from '../scenario';
import type { SimMs } from '../types';
import type { ActionHandlers, EventHandlers } from './handlerTypes';
import { endpointsChanged } from './kubeProxySync';
import { add } from './messages';
import type { Sim } from './state';
import { activePods, nodeOf, podList } from './state';
import type { PodInt } from './types';

/** k8s.io/apimachinery `util/rand.String`'s alphabet (no vowels, no look-alikes). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The nodes a new Pod may land on, in node order: the scheduler's filters that matter here,
 * NodeReady, NodeUnschedulable (cordon) and TaintToleration (cluster-autoscaler's taint, a
 * control plane's NoSchedule taint, …).
 */
function schedulable(sim: Sim): string[] {
  return sim.cfg.nodeOrder.filter((n) => {
    const x = nodeOf(sim, n);
    return (
      x.readyCondition === 'True' &&
      !x.unschedulable &&
      !x.taints.has(TO_BE_DELETED_TAINT) &&
      x.blocking.length === 0
    );
  });
}

/** A fresh Pod name `<rsPrefix>-<5 letters>` no Pod of the run has. */
function newPodName(sim: Sim): string {
  const { base } = sim;
  let name: string;
  do {
    let suffix = '';
    for (let i = 0; i < 5; i++)
      suffix += NAME_ALPHABET[Math.floor(sim.rngNames() * NAME_ALPHABET.length)];
    name = `${base.rsPrefix}-${suffix}`;
  } while (sim.pods.has(`${base.namespace}/${name}`));
  return name;
}

/** The ReplicaSet creates one Pod and the scheduler places it; false when no node fits. */
function createPod(sim: Sim, t: SimMs): boolean {
  const { base } = sim;
  const candidates = schedulable(sim);
  const first = candidates[0];
  if (first === undefined) {
    add(
      sim,
      t,
      'k8s-event',
      'scheduler',
      `0/${sim.cfg.nodeOrder.length} nodes are available for a new ${base.rsPrefix} Pod: every node is not ready, unschedulable or has a taint the Pod does not tolerate.`,
      { reason: 'FailedScheduling' },
    );
    return false;
  }
  const active = activePods(sim);
  // "Round-robin": the node with the fewest active replicas, ties in node order (what the
  // scheduler's default spreading tends to, made deterministic).
  let node = first;
  let best = Infinity;
  for (const c of candidates) {
    const k = active.filter((p) => p.node === c).length;
    if (k < best) {
      best = k;
      node = c;
    }
  }
  const name = newPodName(sim);
  const used = new Set([...sim.pods.values()].map((p) => p.ip));
  const ip = nextPodIP(nodeOf(sim, node).podCIDR || '10.244.0.0/24', used);
  const key = `${base.namespace}/${name}`;
  sim.pods.set(key, {
    key,
    name,
    namespace: base.namespace,
    ip,
    node,
    phase: 'Pending',
    ready: false,
    gen: 0,
    createdAt: t,
  });
  add(sim, t, 'k8s-event', 'replicaset-controller', `Created pod: ${name}`, {
    reason: 'SuccessfulCreate',
    pod: key,
  });
  add(sim, t, 'k8s-event', 'scheduler', `Successfully assigned ${key} to ${node}`, {
    reason: 'Scheduled',
    pod: key,
    node,
  });
  sim.agenda.push(t + sim.cfg.cp.readinessDelayMs, { kind: 'pod-ready', pod: key, gen: 0 });
  return true;
}

/**
 * Deletes Pod `p` gracefully at `t` (`why` says who): deletionTimestamp set, and on a node that
 * is up SIGTERM, then its exit (the app's, or SIGKILL after the grace period). A Pod already
 * terminating is left as it is.
 */
export function terminatePod(sim: Sim, p: PodInt, t: SimMs, why: string): void {
  if (p.phase === 'Terminating') return;
  const { cp, graceMs } = sim.cfg;
  p.phase = 'Terminating';
  p.deletedAt = t;
  p.gen++;
  sim.podEnds.set(p.key, { deletedAt: t, exitAt: null, sigkill: false });
  const node = nodeOf(sim, p.node);
  add(
    sim,
    t,
    'pod',
    'api-server',
    `${p.name}: deletionTimestamp set (${why}); terminationGracePeriodSeconds ${cp.terminationGracePeriodSeconds}.`,
    { pod: p.key, node: p.node },
  );
  if (node.up) {
    add(sim, t, 'k8s-event', 'kubelet', `Stopping container (SIGTERM to ${p.name})`, {
      reason: 'Killing',
      pod: p.key,
      node: p.node,
    });
    const appExit = cp.appExitAfterSigtermMs;
    const sigkill = appExit === undefined || appExit >= graceMs;
    sim.agenda.push(t + (sigkill ? graceMs : appExit), {
      kind: 'pod-exit',
      pod: p.key,
      gen: p.gen,
      sigkill,
    });
  }
  endpointsChanged(sim, t);
}

/**
 * The ReplicaSet at `t`: creates Pods up to `spec.replicas` (until none fits), or terminates
 * the surplus in its victim order; then the EndpointSlice follows.
 */
export function reconcile(sim: Sim, t: SimMs): void {
  let active = activePods(sim);
  let guard = 0;
  while (active.length < sim.desired && guard++ < 200) {
    if (!createPod(sim, t)) break;
    active = activePods(sim);
  }
  if (active.length > sim.desired) {
    // ReplicaSet's victim order (controller_utils ActivePods): not-ready first, then Pods
    // on the nodes with most replicas, then the newest.
    const perNode = (n: string) => active.filter((p) => p.node === n).length;
    const victims = [...active].sort(
      (a, b) =>
        Number(a.ready) - Number(b.ready) ||
        perNode(b.node) - perNode(a.node) ||
        b.createdAt - a.createdAt ||
        (a.key < b.key ? 1 : -1),
    );
    for (const v of victims.slice(0, active.length - sim.desired))
      terminatePod(sim, v, t, 'scaled down');
  }
  endpointsChanged(sim, t);
}

/** The kubelet's actions on Pods. */
export const podActions = {
  'pod-ready': (sim, a, t) => {
    const p = sim.pods.get(a.pod);
    if (!p || p.gen !== a.gen || p.phase === 'Terminating') return;
    if (!nodeOf(sim, p.node).up) return;
    p.phase = 'Running';
    p.ready = true;
    add(sim, t, 'pod', 'kubelet', `${p.name} on ${p.node} is Ready (its readiness probe passes).`, {
      pod: p.key,
      node: p.node,
    });
    endpointsChanged(sim, t);
  },
  'pod-exit': (sim, a, t) => {
    const p = sim.pods.get(a.pod);
    if (!p || p.gen !== a.gen) return;
    if (!nodeOf(sim, p.node).up) return;
    const { cp } = sim.cfg;
    sim.pods.delete(a.pod);
    sim.podEnds.set(p.key, { deletedAt: p.deletedAt ?? t, exitAt: t, sigkill: a.sigkill });
    add(
      sim,
      t,
      'pod',
      'kubelet',
      a.sigkill
        ? `${p.name}: the ${cp.terminationGracePeriodSeconds} s grace period is over; the kubelet sends SIGKILL and the Pod is gone. Connections still open to it end unfinished: the kernel closes their sockets (a FIN, or an RST if data was left unread).`
        : `${p.name}: the application exits after SIGTERM; the Pod is gone. Connections still open to it are closed by its kernel.`,
      { pod: p.key, node: p.node },
    );
    endpointsChanged(sim, t);
  },
} satisfies Pick<ActionHandlers, 'pod-ready' | 'pod-exit'>;

/** `kubectl delete pod` and `kubectl scale deployment`. */
export const podEvents = {
  'kill-pod': (sim, ev, t) => {
    const p =
      sim.pods.get(ev.pod) ??
      [...sim.pods.values()].find((x) => x.name === ev.pod || x.key === ev.pod);
    add(
      sim,
      t,
      'event',
      'user',
      `kubectl delete pod ${ev.pod}.`,
      p ? { pod: p.key, node: p.node } : {},
    );
    if (!p) {
      add(
        sim,
        t,
        'note',
        'user',
        `No Pod "${ev.pod}" backs ${sim.base.serviceKey} at this time (Pods: ${
          podList(sim)
            .map((x) => x.name)
            .join(', ') || 'none'
        }).`,
      );
      return;
    }
    terminatePod(sim, p, t, 'kubectl delete pod');
    reconcile(sim, t);
  },
  scale: (sim, ev, t) => {
    const from = sim.desired;
    sim.desired = ev.replicas;
    add(sim, t, 'event', 'user', `kubectl scale deployment --replicas=${ev.replicas}.`);
    if (from !== sim.desired)
      add(
        sim,
        t,
        'k8s-event',
        'deployment-controller',
        `Scaled ${sim.desired > from ? 'up' : 'down'} replica set ${sim.base.rsPrefix} to ${sim.desired} from ${from}`,
        { reason: 'ScalingReplicaSet' },
      );
    reconcile(sim, t);
  },
} satisfies Pick<EventHandlers, 'kill-pod' | 'scale'>;
