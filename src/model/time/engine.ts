/**
 * The discrete-event simulation: a virtual clock runs an agenda of actions (the user's
 * events, the balancer's probes, the control plane's reactions), each at a simulated
 * millisecond, and records what happened. Between two changes of state the cluster is
 * constant: an {@link Epoch}.
 *
 * Who does what, and the Kubernetes source of each reaction:
 * - Provisioning: the cloud-controller-manager's service controller
 *   (`k8s.io/cloud-provider` `controllers/service/controller.go`): events
 *   `EnsuringLoadBalancer`, `EnsuredLoadBalancer`; on a policy change `ExternalTrafficPolicy`
 *   and `HealthCheckNodePort` (`needsUpdate`). With StableLoadBalancerNodeSet (beta and on by
 *   default since 1.27, GA in 1.30) a node's readiness no longer changes the balancer's targets:
 *   only health checks do. Nodes labelled `node.kubernetes.io/exclude-from-external-load-balancers`
 *   are never targets (`nodeIncludedPredicate`).
 * - cluster-autoscaler's scale-down: the taint `ToBeDeletedByClusterAutoscaler:NoSchedule`, then
 *   its Pods are evicted; kube-proxy's `/healthz` answers 503 with `"nodeEligible":false`
 *   (`pkg/proxy/healthcheck/proxy_health.go` `SyncNode`, KEP-3836) while the node still
 *   forwards, and the service controller does not resync targets for the taint alone
 *   (`shouldSyncUpdatedNode`), so the health check drains it.
 * - A silent node: the node lifecycle controller marks it `Ready=Unknown` after
 *   `--node-monitor-grace-period`, taints it `node.kubernetes.io/unreachable:NoExecute`,
 *   marks its Pods not ready (their endpoints turn `ready: false`), and the taint eviction
 *   evicts them after the toleration's `tolerationSeconds` (300).
 * - Graceful termination: `deletionTimestamp` set, endpoint `ready: false, serving: true,
 *   terminating: true` while the app still passes readiness, SIGKILL after
 *   `terminationGracePeriodSeconds`.
 * - kube-proxy applies every EndpointSlice/Service change `endpointPropagationMs` later.
 * - MetalLB layer 2: `IPAllocated` by the controller, `nodeAssigned` by the announcing
 *   speaker, failover after memberlist declares the node dead.
 */
import { probeNode } from '../cloud/healthCheck';
import type { HealthCheckResult } from '../cloud/healthCheck';
import type { Cluster, ServiceModel } from '../scenario/cluster';
import { DEFAULT_HEALTH_CHECK_NODE_PORT } from '../scenario/scene';
import type { SceneOptions } from '../scenario/scene';
import { applyScene } from '../scenario/scene';
import { resolveCluster } from '../scenario/resolve';
import { pickService } from '../trace/trace';
import { externalIPColumn } from '../k8s/kubectlColumns';
import { createRng } from '../random';
import type { Rng } from '../random';
import { markNodesDown } from './down';
import { formatSimTime } from './duration';
import { firstPoolAddress, macOf, metallbLeader } from './metallb';
import { Agenda } from './queue';
import type { Base } from './scenario';
import {
  EXCLUDE_LB_LABEL,
  SIM_EPOCH_MS,
  TO_BE_DELETED_TAINT,
  blockingTaints,
  endpointsOf,
  excludedFromCloudBalancer,
  nextPodIP,
  snapshot,
} from './scenario';
import type { TaintLike, TolerationLike } from './scenario';
import type { Settings } from './settings';
import type {
  Actor,
  EndpointState,
  NodeState,
  PodState,
  ProbeRecord,
  RotationChange,
  SimMs,
  SvcRow,
  TimelineEntry,
  TimelineEntryKind,
  TimelineEvent,
  WorldState,
} from './types';
import { humanDuration } from './duration';

/** An epoch before its paths are computed. */
export interface RawEpoch {
  from: SimMs;
  to: SimMs;
  state: WorldState;
  key: string;
}

/** When a Pod stopped running (its process exited), and why. */
export interface PodEnd {
  /** deletionTimestamp (SIGTERM), if it was deleted. */
  deletedAt: SimMs | null;
  /** When its process exited with the node up (SIGKILL or by itself); null if never within the run. */
  exitAt: SimMs | null;
  sigkill: boolean;
}

/** A node failure as it happened: for the dead-node windows and connection fates. */
export interface Outage {
  node: string;
  from: SimMs;
  /** When it came back; null if never within the run. */
  to: SimMs | null;
}

/** Everything the simulation produced, before connections are drawn. */
export interface EngineResult {
  epochs: RawEpoch[];
  entries: TimelineEntry[];
  probes: ProbeRecord[];
  rotation: RotationChange[];
  svc: SvcRow[];
  outages: Outage[];
  podEnds: Map<string, PodEnd>;
  /** The address the balancer or MetalLB publishes. */
  address: string;
  /** When the cloud balancer's targets were registered; null if never. */
  registeredAt: SimMs | null;
  /** The nodes registered as targets (every node not excluded from external load balancers). */
  targets: string[];
  /**
   * The states the probes saw, resolved: key `JSON.stringify` of the state with an empty
   * rotation and no announcing node (the rotation is not in the objects).
   */
  clusters: ReadonlyMap<string, StateCluster>;
}

/**
 * One state resolved as `prepare` in paths.ts resolves it: `snapshot`'s objects under its
 * scene, nodes down marked. Read-only: the probes and the path tracing share it.
 */
export interface StateCluster {
  cluster: Cluster;
  svc: ServiceModel;
  /** `snapshot`'s scene (its rotation is the state's when first resolved). */
  scene: SceneOptions;
}

type Action =
  | { kind: 'user'; ev: TimelineEvent }
  | { kind: 'probe'; node: string }
  | { kind: 'probe-result'; rec: ProbeDraft }
  | { kind: 'sync'; endpoints: EndpointState[]; policy: 'Cluster' | 'Local' }
  | { kind: 'notice'; node: string; gen: number }
  | { kind: 'evict'; node: string; gen: number }
  | { kind: 'memberlist-dead'; node: string; gen: number }
  | { kind: 'pod-ready'; pod: string; gen: number }
  | { kind: 'pod-exit'; pod: string; gen: number; sigkill: boolean }
  | { kind: 'ensuring' }
  | { kind: 'built' }
  | { kind: 'registered' }
  | { kind: 'metallb-assign' }
  | { kind: 'svc-policy'; from: 'Cluster' | 'Local'; to: 'Cluster' | 'Local' }
  | { kind: 'hc-switch'; policy: 'Cluster' | 'Local' };

type ProbeDraft = Omit<ProbeRecord, 'consecutiveSuccesses' | 'consecutiveFailures' | 'inRotation'>;

interface NodeInt {
  name: string;
  ip: string;
  podCIDR: string;
  up: boolean;
  readyCondition: 'True' | 'False' | 'Unknown';
  unschedulable: boolean;
  taints: Set<string>;
  gen: number;
  upSince: SimMs;
  /** When `ToBeDeletedByClusterAutoscaler` was added. */
  taintedAt?: SimMs;
  /** Input taints (kept as they are) that keep the Service's new Pods off the node. */
  blocking: TaintLike[];
  /** Labelled `node.kubernetes.io/exclude-from-external-load-balancers`. */
  excludeLabel: boolean;
  /** The service controller leaves it out of the cloud balancer's targets (the label, not false). */
  excludedFromCloud: boolean;
  /** kube-proxy's last successful rules sync on this node (`lastUpdated` in `/healthz`). */
  lastSync: SimMs;
}

interface PodInt extends PodState {
  gen: number;
  createdAt: SimMs;
}

interface HcInt {
  succ: number;
  fail: number;
  inRotation: boolean;
}

/** k8s.io/apimachinery `util/rand.String`'s alphabet (no vowels, no look-alikes). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function sortByKey<T extends { key: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Runs the agenda to the horizon. */
export function runEngine(base: Base, s: Settings): EngineResult {
  const hc = s.healthCheck;
  const prov = s.provisioning;
  const cp = s.controlPlane;
  // The service controller and MetalLB act only on type LoadBalancer (controller.go wantsLoadBalancer).
  const controller = base.type === 'LoadBalancer' ? prov.controller : 'none';
  const metallb = controller === 'metallb-l2';
  const address = metallb ? firstPoolAddress(prov.metallb.poolRange) : base.cloudAddress;
  // An AWS-style cloud balancer publishes its DNS name, not `address` (MetalLB always an IP).
  const hostname = controller === 'cloud' ? base.cloudHostname : undefined;
  const horizon = s.horizonMs;
  const I = hc.intervalSeconds * 1000;
  const T = hc.timeoutSeconds * 1000;
  const G = cp.terminationGracePeriodSeconds * 1000;
  const rngNames: Rng = createRng((s.seed ^ 0x5bd1e995) >>> 0);

  const agenda = new Agenda<Action>();
  const entries: TimelineEntry[] = [];
  const probes: ProbeRecord[] = [];
  const rotation: RotationChange[] = [];
  const svcRows: SvcRow[] = [];
  const outages: Outage[] = [];
  const podEnds = new Map<string, PodEnd>();
  let seq = 0;
  const add = (
    at: SimMs,
    kind: TimelineEntryKind,
    actor: Actor,
    message: string,
    extra: { reason?: string; node?: string; pod?: string } = {},
  ) => {
    entries.push({ at, seq: seq++, kind, actor, message, ...extra });
  };

  // ---- state -------------------------------------------------------------------------
  const rawNodes = new Map(
    base.objects
      .filter((o): o is Extract<typeof o, { kind: 'Node' }> => o.kind === 'Node')
      .map((o) => [o.metadata?.name ?? '', o]),
  );
  // The Service's Pods' tolerations (the first backend Pod's, as a template for new ones).
  const template = base.objects.find(
    (o): o is Extract<typeof o, { kind: 'Pod' }> =>
      o.kind === 'Pod' &&
      base.initialBackendKeys.includes(
        `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`,
      ),
  );
  const tolerations: TolerationLike[] = template?.spec?.tolerations ?? [];
  const nodes = new Map<string, NodeInt>();
  for (const n of base.nodes) {
    const raw = rawNodes.get(n.name);
    const cond = raw?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    const taints = new Set<string>();
    const kept: TaintLike[] = [];
    for (const t of raw?.spec?.taints ?? [])
      if (
        t.key === 'node.kubernetes.io/unreachable' ||
        t.key === 'node.kubernetes.io/unschedulable' ||
        t.key === TO_BE_DELETED_TAINT
      )
        taints.add(t.key);
      else kept.push(t);
    const labels = raw?.metadata?.labels;
    nodes.set(n.name, {
      name: n.name,
      ip: n.ip,
      podCIDR: n.podCIDR,
      up: true,
      readyCondition: cond === 'True' ? 'True' : cond === 'False' ? 'False' : 'Unknown',
      unschedulable: raw?.spec?.unschedulable === true,
      taints,
      gen: 0,
      upSince: 0,
      blocking: blockingTaints(kept, tolerations),
      excludeLabel: labels?.[EXCLUDE_LB_LABEL] !== undefined,
      excludedFromCloud: excludedFromCloudBalancer(labels),
      lastSync: 0,
    });
  }
  const nodeOrder = base.nodes.map((n) => n.name);
  const pods = new Map<string, PodInt>();
  for (const p of base.initialPods) pods.set(p.key, { ...p, gen: 0, createdAt: 0 });
  let desired = [...pods.values()].filter((p) => p.phase !== 'Terminating').length;
  let apiPolicy = base.scene.externalTrafficPolicy;
  const podList = () => sortByKey([...pods.values()]);
  const strip = (p: PodInt): PodState => {
    const { gen: _g, createdAt: _c, ...rest } = p;
    return rest;
  };
  let apiEndpoints = endpointsOf(podList().map(strip));
  let apiEndpointsKey = JSON.stringify(apiEndpoints);
  const kp = { endpoints: apiEndpoints, policy: apiPolicy };
  const lb = {
    registered: false,
    published: false,
    hcPolicy: apiPolicy,
    leader: null as string | null,
  };
  const hcState = new Map<string, HcInt>(
    nodeOrder.map((n) => [n, { succ: 0, fail: 0, inRotation: false }]),
  );
  // The cloud balancer's targets: every node the service controller includes.
  const targets = nodeOrder.filter((n) => !(nodes.get(n) as NodeInt).excludedFromCloud);
  let registeredAt: SimMs | null = null;
  // MetalLB's speakers that may announce: alive in memberlist and not excluded by the label.
  const speakers = new Set(nodeOrder);
  const mayAnnounce = (n: string) =>
    speakers.has(n) && (prov.metallb.ignoreExcludeLb || !(nodes.get(n) as NodeInt).excludeLabel);
  const hcnpOf = (): number => {
    const raw = base.objects.find(
      (o) =>
        o.kind === 'Service' &&
        `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}` === base.serviceKey,
    );
    const v = raw?.kind === 'Service' ? raw.spec?.healthCheckNodePort : undefined;
    return v ?? DEFAULT_HEALTH_CHECK_NODE_PORT;
  };
  const hcnp = hcnpOf();

  const world = (): WorldState => {
    const nodeStates: NodeState[] = nodeOrder.map((name) => {
      const n = nodes.get(name) as NodeInt;
      return {
        name,
        up: n.up,
        readyCondition: n.readyCondition,
        unschedulable: n.unschedulable,
        taints: [...n.taints].sort(),
        ...(n.taintedAt !== undefined ? { taintedAt: n.taintedAt } : {}),
      };
    });
    const inRotation = metallb
      ? lb.published && lb.leader
        ? [lb.leader]
        : []
      : lb.registered
        ? nodeOrder.filter((n) => hcState.get(n)?.inRotation)
        : [];
    return {
      nodes: nodeStates,
      pods: podList().map(strip),
      endpoints: kp.endpoints,
      policy: kp.policy,
      published: lb.published,
      inRotation,
      announcingNode: metallb ? lb.leader : null,
    };
  };

  // Every action but a probe's may change the world; a probe changes only the health-check
  // counters and, through `rotation`, who is in rotation. `version` counts the actions that
  // may, so the world is read again (and compared with the last one) only after one of them.
  let version = 0;
  // The resolved cluster of the current state, for probes (cached per state).
  const clusterCache = new Map<string, StateCluster>();
  let lastCluster: { version: number; hit: StateCluster } | undefined;
  const currentCluster = () => {
    if (lastCluster && lastCluster.version === version) return lastCluster.hit;
    const st = world();
    const key = JSON.stringify({ ...st, inRotation: [], announcingNode: null });
    let hit = clusterCache.get(key);
    if (!hit) {
      const snap = snapshot(base, st, { controller, address }, false);
      const cluster = markNodesDown(
        resolveCluster(applyScene(snap.objects, snap.scene)),
        snap.scene.downNodes,
      );
      hit = { cluster, svc: pickService(cluster, base.serviceKey), scene: snap.scene };
      clusterCache.set(key, hit);
    }
    lastCluster = { version, hit };
    return hit;
  };

  // ---- svc rows -----------------------------------------------------------------------
  const ports = base.ports
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`))
    .join(',');
  const svcRow = (t: SimMs) => {
    svcRows.push({
      at: t,
      NAME: base.name,
      TYPE: base.type,
      'CLUSTER-IP': base.clusterIP,
      'EXTERNAL-IP': externalIPColumn({
        type: base.type,
        ...(base.externalIPs ? { externalIPs: base.externalIPs } : {}),
        ingress: !lb.published ? [] : hostname !== undefined ? [{ hostname }] : [{ ip: address }],
      }),
      'PORT(S)': ports,
      AGE: humanDuration(t),
    });
  };

  // ---- helpers --------------------------------------------------------------------------
  // kube-proxy batches changes: two changes in the same millisecond make one sync.
  let pendingSync: { at: SimMs; action: Extract<Action, { kind: 'sync' }> } | undefined;
  const scheduleSync = (t: SimMs) => {
    const at = t + cp.endpointPropagationMs;
    if (pendingSync && pendingSync.at === at) {
      pendingSync.action.endpoints = apiEndpoints;
      pendingSync.action.policy = apiPolicy;
      return;
    }
    const action: Extract<Action, { kind: 'sync' }> = {
      kind: 'sync',
      endpoints: apiEndpoints,
      policy: apiPolicy,
    };
    pendingSync = { at, action };
    agenda.push(at, action);
  };

  const endpointsChanged = (t: SimMs) => {
    const next = endpointsOf(podList().map(strip));
    const key = JSON.stringify(next);
    if (key === apiEndpointsKey) return;
    const before = new Map(apiEndpoints.map((e) => [e.pod, e]));
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
    apiEndpoints = next;
    apiEndpointsKey = key;
    add(
      t,
      'endpoints',
      'endpointslice-controller',
      `EndpointSlice of ${base.serviceKey}: ${parts.join('; ')}.`,
    );
    scheduleSync(t);
  };

  const scheduleProbes = (t0: SimMs) => {
    targets.forEach((n, i) => {
      // Stagger: target i of N is first probed at t0 + floor(i × interval / N).
      agenda.push(t0 + Math.floor((i * I) / targets.length), { kind: 'probe', node: n });
    });
  };

  const probeFor = (name: string, t: SimMs): ProbeDraft => {
    const n = nodes.get(name) as NodeInt;
    const { cluster, svc } = currentCluster();
    const cnode = cluster.nodes.find((x) => x.name === name);
    const local = lb.hcPolicy === 'Local';
    const hcSvc: ServiceModel = {
      ...svc,
      externalTrafficPolicy: lb.hcPolicy,
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
        doneAt: t + T,
        node: name,
        target: r.target,
        status: null,
        body: '',
        ok: false,
        summary: `no answer: timed out after ${formatSimTime(T)} (node down)`,
      };
    if (local && kp.policy !== 'Local')
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
  };

  const applyProbe = (rec: ProbeDraft) => {
    const st = hcState.get(rec.node) as HcInt;
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
      rotation.push({ at: t, node: rec.node, inRotation: false, reason });
      add(
        t,
        'rotation',
        'balancer',
        `${rec.node} leaves the balancer's rotation: ${reason}. New connections no longer go to it.`,
        { node: rec.node },
      );
    } else if (!st.inRotation && st.succ >= hc.healthyThreshold) {
      st.inRotation = true;
      const reason = `${st.succ} consecutive successful probe${st.succ === 1 ? '' : 's'} (healthy threshold ${hc.healthyThreshold})`;
      rotation.push({ at: t, node: rec.node, inRotation: true, reason });
      add(t, 'rotation', 'balancer', `${rec.node} joins the balancer's rotation: ${reason}.`, {
        node: rec.node,
      });
    }
    probes.push({
      ...rec,
      consecutiveSuccesses: st.succ,
      consecutiveFailures: st.fail,
      inRotation: st.inRotation,
    });
  };

  const elect = (t: SimMs, why: string) => {
    if (!metallb || !lb.published) return;
    const alive = nodeOrder.filter(mayAnnounce);
    const next = metallbLeader(alive, address, kp.policy, kp.endpoints);
    if (next === lb.leader) return;
    const prev = lb.leader;
    lb.leader = next;
    if (prev) {
      rotation.push({
        at: t,
        node: prev,
        inRotation: false,
        reason: `no longer the announcing node (${why})`,
      });
    }
    if (next) {
      rotation.push({ at: t, node: next, inRotation: true, reason: `announcing node (${why})` });
      const ip = nodes.get(next)?.ip ?? '';
      add(
        t,
        'k8s-event',
        'metallb-speaker',
        `announcing from node "${next}" with protocol "layer2"`,
        {
          reason: 'nodeAssigned',
          node: next,
        },
      );
      add(
        t,
        'arp',
        'metallb-speaker',
        `${next}'s speaker sends gratuitous ARP "${address} is-at ${macOf(ip)}" and from now on answers "who-has ${address}" with its own MAC: all traffic for ${address} enters ${next}${prev ? `, no longer ${prev}` : ''} (${why}).`,
        { node: next },
      );
    } else {
      add(
        t,
        'note',
        'metallb-speaker',
        `No speaker may announce ${address} (${why}): nothing answers ARP for it, so connections to it time out.`,
      );
    }
  };

  // The scheduler's filters that matter here: NodeReady, NodeUnschedulable (cordon) and
  // TaintToleration (cluster-autoscaler's taint, a control plane's NoSchedule taint, …).
  const schedulable = () =>
    nodeOrder.filter((n) => {
      const x = nodes.get(n) as NodeInt;
      return (
        x.readyCondition === 'True' &&
        !x.unschedulable &&
        !x.taints.has(TO_BE_DELETED_TAINT) &&
        x.blocking.length === 0
      );
    });

  const createPod = (t: SimMs) => {
    const candidates = schedulable();
    if (candidates.length === 0) {
      add(
        t,
        'k8s-event',
        'scheduler',
        `0/${nodeOrder.length} nodes are available for a new ${base.rsPrefix} Pod: every node is not ready, unschedulable or has a taint the Pod does not tolerate.`,
        { reason: 'FailedScheduling' },
      );
      return false;
    }
    const active = [...pods.values()].filter((p) => p.phase !== 'Terminating');
    // "Round-robin": the node with the fewest active replicas, ties in node order (what the
    // scheduler's default spreading tends to, made deterministic).
    let node = candidates[0] as string;
    let best = Infinity;
    for (const c of candidates) {
      const k = active.filter((p) => p.node === c).length;
      if (k < best) {
        best = k;
        node = c;
      }
    }
    let name: string;
    do {
      let suffix = '';
      for (let i = 0; i < 5; i++)
        suffix += NAME_ALPHABET[Math.floor(rngNames() * NAME_ALPHABET.length)];
      name = `${base.rsPrefix}-${suffix}`;
    } while (pods.has(`${base.namespace}/${name}`));
    const used = new Set([...pods.values()].map((p) => p.ip));
    const ip = nextPodIP((nodes.get(node) as NodeInt).podCIDR || '10.244.0.0/24', used);
    const key = `${base.namespace}/${name}`;
    pods.set(key, {
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
    add(t, 'k8s-event', 'replicaset-controller', `Created pod: ${name}`, {
      reason: 'SuccessfulCreate',
      pod: key,
    });
    add(t, 'k8s-event', 'scheduler', `Successfully assigned ${key} to ${node}`, {
      reason: 'Scheduled',
      pod: key,
      node,
    });
    agenda.push(t + cp.readinessDelayMs, { kind: 'pod-ready', pod: key, gen: 0 });
    return true;
  };

  const terminatePod = (p: PodInt, t: SimMs, why: string) => {
    if (p.phase === 'Terminating') return;
    p.phase = 'Terminating';
    p.deletedAt = t;
    p.gen++;
    podEnds.set(p.key, { deletedAt: t, exitAt: null, sigkill: false });
    const node = nodes.get(p.node) as NodeInt;
    add(
      t,
      'pod',
      'api-server',
      `${p.name}: deletionTimestamp set (${why}); terminationGracePeriodSeconds ${cp.terminationGracePeriodSeconds}.`,
      { pod: p.key, node: p.node },
    );
    if (node.up) {
      add(t, 'k8s-event', 'kubelet', `Stopping container (SIGTERM to ${p.name})`, {
        reason: 'Killing',
        pod: p.key,
        node: p.node,
      });
      const appExit = cp.appExitAfterSigtermMs;
      const sigkill = appExit === undefined || appExit >= G;
      agenda.push(t + (sigkill ? G : appExit), {
        kind: 'pod-exit',
        pod: p.key,
        gen: p.gen,
        sigkill,
      });
    }
    endpointsChanged(t);
  };

  const reconcile = (t: SimMs) => {
    let active = [...pods.values()].filter((p) => p.phase !== 'Terminating');
    let guard = 0;
    while (active.length < desired && guard++ < 200) {
      if (!createPod(t)) break;
      active = [...pods.values()].filter((p) => p.phase !== 'Terminating');
    }
    if (active.length > desired) {
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
      for (const v of victims.slice(0, active.length - desired)) terminatePod(v, t, 'scaled down');
    }
    endpointsChanged(t);
  };

  // ---- actions --------------------------------------------------------------------------
  const userEvent = (ev: TimelineEvent, t: SimMs) => {
    switch (ev.kind) {
      case 'fail-node': {
        const n = nodes.get(ev.node) as NodeInt;
        if (!n.up) {
          add(t, 'note', 'user', `${ev.node} is already down.`, { node: ev.node });
          return;
        }
        n.up = false;
        n.gen++;
        outages.push({ node: ev.node, from: t, to: null });
        add(
          t,
          'event',
          'user',
          `${ev.node} fails (powered off): its kubelet, kube-proxy and Pods stop; nothing on it answers — not health checks, not connections.`,
          { node: ev.node },
        );
        add(
          t,
          'connections',
          'conntrack',
          `Connections open through ${ev.node} — entering it from the balancer, or ending at one of its Pods — are blackholed: their packets reach a machine that no longer answers, so no RST comes back and each client retransmits until it gives up. Connections on other paths are untouched: conntrack keeps them on their Pods.`,
          { node: ev.node },
        );
        agenda.push(t + cp.nodeMonitorGracePeriodSeconds * 1000, {
          kind: 'notice',
          node: ev.node,
          gen: n.gen,
        });
        if (metallb)
          agenda.push(t + prov.metallb.failoverDetectMs, {
            kind: 'memberlist-dead',
            node: ev.node,
            gen: n.gen,
          });
        return;
      }
      case 'restore-node': {
        const n = nodes.get(ev.node) as NodeInt;
        if (n.up) {
          add(t, 'note', 'user', `${ev.node} is already up.`, { node: ev.node });
          return;
        }
        n.up = true;
        n.gen++;
        n.upSince = t;
        const o = [...outages].reverse().find((x) => x.node === ev.node && x.to === null);
        if (o) o.to = t;
        add(
          t,
          'event',
          'user',
          `${ev.node} is back: kubelet and kube-proxy start again; kube-proxy answers health checks at once, its Pods restart their containers.`,
          { node: ev.node },
        );
        if (n.readyCondition !== 'True') {
          n.readyCondition = 'True';
          n.taints.delete('node.kubernetes.io/unreachable');
          add(
            t,
            'node-condition',
            'kubelet',
            `${ev.node} Ready → True (kubelet posts its status again).`,
            { node: ev.node },
          );
          add(
            t,
            'k8s-event',
            'node-lifecycle-controller',
            `Node ${ev.node} status is now: NodeReady`,
            { reason: 'NodeReady', node: ev.node },
          );
          add(
            t,
            'taint',
            'node-lifecycle-controller',
            `node.kubernetes.io/unreachable removed from ${ev.node}.`,
            { node: ev.node },
          );
        }
        for (const p of podList()) {
          if (p.node !== ev.node) continue;
          if (p.phase === 'Terminating') {
            pods.delete(p.key);
            add(
              t,
              'pod',
              'kubelet',
              `${p.name} was deleted while ${ev.node} was down; its kubelet finishes the deletion and the Pod is gone.`,
              { pod: p.key, node: p.node },
            );
            continue;
          }
          p.ready = false;
          p.gen++;
          agenda.push(t + cp.readinessDelayMs, { kind: 'pod-ready', pod: p.key, gen: p.gen });
        }
        endpointsChanged(t);
        if (metallb) {
          speakers.add(ev.node);
          elect(t, `${ev.node}'s speaker rejoined memberlist`);
        }
        reconcile(t);
        return;
      }
      case 'drain-node': {
        const n = nodes.get(ev.node) as NodeInt;
        add(t, 'event', 'user', `kubectl drain ${ev.node}: cordon, then evict every Pod on it.`, {
          node: ev.node,
        });
        if (!n.unschedulable) {
          n.unschedulable = true;
          n.taints.add('node.kubernetes.io/unschedulable');
          add(t, 'k8s-event', 'kubelet', `Node ${ev.node} status is now: NodeNotSchedulable`, {
            reason: 'NodeNotSchedulable',
            node: ev.node,
          });
        }
        if (apiPolicy === 'Cluster' && controller === 'cloud')
          add(
            t,
            'note',
            'kube-proxy',
            `Cordoning does not fail kube-proxy's /healthz (only a deletionTimestamp or the ToBeDeletedByClusterAutoscaler taint does), so ${ev.node} stays in the balancer's rotation and forwards new connections to Pods on other nodes.`,
            { node: ev.node },
          );
        for (const p of podList())
          if (p.node === ev.node) terminatePod(p, t, `evicted by kubectl drain ${ev.node}`);
        reconcile(t);
        return;
      }
      case 'uncordon-node': {
        const n = nodes.get(ev.node) as NodeInt;
        add(t, 'event', 'user', `kubectl uncordon ${ev.node}.`, { node: ev.node });
        if (n.unschedulable) {
          n.unschedulable = false;
          n.taints.delete('node.kubernetes.io/unschedulable');
          add(t, 'k8s-event', 'kubelet', `Node ${ev.node} status is now: NodeSchedulable`, {
            reason: 'NodeSchedulable',
            node: ev.node,
          });
        }
        reconcile(t);
        return;
      }
      case 'scale-down-node': {
        const n = nodes.get(ev.node) as NodeInt;
        add(
          t,
          'event',
          'user',
          `cluster-autoscaler scales ${ev.node} down: it adds the taint ${TO_BE_DELETED_TAINT}:NoSchedule, then evicts the node's Pods.`,
          { node: ev.node },
        );
        if (n.taints.has(TO_BE_DELETED_TAINT)) {
          add(t, 'note', 'user', `${ev.node} already has ${TO_BE_DELETED_TAINT}.`, {
            node: ev.node,
          });
          return;
        }
        n.taints.add(TO_BE_DELETED_TAINT);
        n.taintedAt = t;
        add(
          t,
          'taint',
          'cluster-autoscaler',
          `${TO_BE_DELETED_TAINT}=${Math.floor((SIM_EPOCH_MS + t) / 1000)}:NoSchedule added to ${ev.node}: no new Pod lands there.`,
          { node: ev.node },
        );
        if (n.up)
          add(
            t,
            'note',
            'kube-proxy',
            `kube-proxy on ${ev.node} sees the taint on its Node: from now on its /healthz on port 10256 answers 503 with "nodeEligible":false (KEP-3836), while the node keeps forwarding the connections it gets.${
              controller === 'cloud'
                ? ` The service controller does not change the balancer's targets for the taint alone, so ${apiPolicy === 'Cluster' && hc.clusterTarget === 'healthz' ? `the health check drains ${ev.node}: ${hc.unhealthyThreshold} failed probes take it out of rotation` : apiPolicy === 'Local' ? `under Local the health check follows ${ev.node}'s local endpoints, which go as its Pods are evicted` : `a TCP check to the NodePort does not see the taint: ${ev.node} stays in rotation until it is gone`}.`
                : ''
            }`,
            { node: ev.node },
          );
        for (const p of podList())
          if (p.node === ev.node)
            terminatePod(p, t, `evicted by cluster-autoscaler scaling ${ev.node} down`);
        add(
          t,
          'note',
          'cluster-autoscaler',
          `Once the Pods are gone cluster-autoscaler deletes the machine; this run keeps ${ev.node} up so the drain can be watched (schedule "fail ${ev.node}" to power it off).`,
          { node: ev.node },
        );
        reconcile(t);
        return;
      }
      case 'kill-pod': {
        const p =
          pods.get(ev.pod) ?? [...pods.values()].find((x) => x.name === ev.pod || x.key === ev.pod);
        add(
          t,
          'event',
          'user',
          `kubectl delete pod ${ev.pod}.`,
          p ? { pod: p.key, node: p.node } : {},
        );
        if (!p) {
          add(
            t,
            'note',
            'user',
            `No Pod "${ev.pod}" backs ${base.serviceKey} at this time (Pods: ${
              podList()
                .map((x) => x.name)
                .join(', ') || 'none'
            }).`,
          );
          return;
        }
        terminatePod(p, t, 'kubectl delete pod');
        reconcile(t);
        return;
      }
      case 'scale': {
        const from = desired;
        desired = ev.replicas;
        add(t, 'event', 'user', `kubectl scale deployment --replicas=${ev.replicas}.`);
        if (from !== desired)
          add(
            t,
            'k8s-event',
            'deployment-controller',
            `Scaled ${desired > from ? 'up' : 'down'} replica set ${base.rsPrefix} to ${desired} from ${from}`,
            { reason: 'ScalingReplicaSet' },
          );
        reconcile(t);
        return;
      }
      case 'set-policy': {
        if (ev.policy === apiPolicy) {
          add(t, 'note', 'user', `externalTrafficPolicy is already ${ev.policy}.`);
          return;
        }
        const from = apiPolicy;
        apiPolicy = ev.policy;
        add(
          t,
          'event',
          'user',
          `kubectl patch svc ${base.name}: externalTrafficPolicy ${from} → ${ev.policy}${ev.policy === 'Local' ? `; the API server allocates healthCheckNodePort ${hcnp}` : '; the API server releases healthCheckNodePort'}.`,
        );
        scheduleSync(t);
        if (controller === 'cloud' && lb.registered)
          agenda.push(t + prov.informerDelayMs, { kind: 'svc-policy', from, to: ev.policy });
        return;
      }
    }
  };

  const handle = (a: Action, t: SimMs) => {
    switch (a.kind) {
      case 'user':
        userEvent(a.ev, t);
        return;
      case 'probe': {
        if (!lb.registered || controller !== 'cloud') return;
        const rec = probeFor(a.node, t);
        if (rec.doneAt === t) applyProbe(rec);
        else agenda.push(rec.doneAt, { kind: 'probe-result', rec });
        agenda.push(t + I, { kind: 'probe', node: a.node });
        return;
      }
      case 'probe-result':
        applyProbe(a.rec);
        return;
      case 'sync': {
        const changedPolicy = kp.policy !== a.policy;
        const changedEps = JSON.stringify(kp.endpoints) !== JSON.stringify(a.endpoints);
        if (!changedPolicy && !changedEps) return;
        kp.endpoints = a.endpoints;
        kp.policy = a.policy;
        for (const n of nodes.values()) if (n.up) n.lastSync = t;
        const ready = a.endpoints.filter((e) => e.ready).map((e) => e.ip);
        const term = a.endpoints
          .filter((e) => !e.ready && e.serving && e.terminating)
          .map((e) => e.ip);
        add(
          t,
          'kube-proxy-sync',
          'kube-proxy',
          `kube-proxy on every node rewrites its rules: ${changedPolicy ? `externalTrafficPolicy ${a.policy}; ` : ''}ready endpoints ${ready.join(', ') || 'none'}${term.length ? `; serving-and-terminating ${term.join(', ')} (used only where no ready endpoint is left)` : ''}. Open connections keep their conntrack entries.`,
        );
        elect(t, 'endpoints or policy changed');
        return;
      }
      case 'notice': {
        const n = nodes.get(a.node) as NodeInt;
        if (n.gen !== a.gen || n.up) return;
        n.readyCondition = 'Unknown';
        n.taints.add('node.kubernetes.io/unreachable');
        add(
          t,
          'node-condition',
          'node-lifecycle-controller',
          `${a.node} Ready → Unknown (NodeStatusUnknown: Kubelet stopped posting node status.) — ${cp.nodeMonitorGracePeriodSeconds} s (--node-monitor-grace-period) after its last heartbeat.`,
          { node: a.node },
        );
        add(
          t,
          'k8s-event',
          'node-lifecycle-controller',
          `Node ${a.node} status is now: NodeNotReady`,
          { reason: 'NodeNotReady', node: a.node },
        );
        add(
          t,
          'taint',
          'node-lifecycle-controller',
          `node.kubernetes.io/unreachable:NoExecute added to ${a.node}; its Pods tolerate it for ${cp.unreachableTolerationSeconds} s.`,
          { node: a.node },
        );
        if (controller === 'cloud')
          add(
            t,
            'note',
            'service-controller',
            `The service controller leaves ${a.node} registered with the balancer (StableLoadBalancerNodeSet, beta and on by default since 1.27, GA in 1.30: node readiness no longer changes the targets); only the health check keeps traffic away from it.`,
            { node: a.node },
          );
        for (const p of podList())
          if (p.node === a.node && p.ready) {
            p.ready = false;
            add(
              t,
              'pod',
              'node-lifecycle-controller',
              `${p.name} Ready → False (its node is not ready).`,
              { pod: p.key, node: p.node },
            );
          }
        endpointsChanged(t);
        agenda.push(t + cp.unreachableTolerationSeconds * 1000, {
          kind: 'evict',
          node: a.node,
          gen: a.gen,
        });
        return;
      }
      case 'evict': {
        const n = nodes.get(a.node) as NodeInt;
        if (n.gen !== a.gen || n.up) return;
        for (const p of podList())
          if (p.node === a.node && p.phase !== 'Terminating') {
            add(t, 'k8s-event', 'node-lifecycle-controller', `Marking for deletion Pod ${p.key}`, {
              reason: 'TaintManagerEviction',
              pod: p.key,
              node: p.node,
            });
            terminatePod(
              p,
              t,
              `evicted: ${a.node} unreachable for ${cp.unreachableTolerationSeconds} s; it stays Terminating until the kubelet confirms`,
            );
          }
        reconcile(t);
        return;
      }
      case 'memberlist-dead': {
        const n = nodes.get(a.node) as NodeInt;
        if (n.gen !== a.gen || n.up) return;
        speakers.delete(a.node);
        add(
          t,
          'note',
          'metallb-speaker',
          `memberlist on the other speakers declares ${a.node} dead (${formatSimTime(prov.metallb.failoverDetectMs)} after it failed).`,
          { node: a.node },
        );
        elect(t, `${a.node}'s speaker left memberlist`);
        return;
      }
      case 'pod-ready': {
        const p = pods.get(a.pod);
        if (!p || p.gen !== a.gen || p.phase === 'Terminating') return;
        if (!(nodes.get(p.node) as NodeInt).up) return;
        p.phase = 'Running';
        p.ready = true;
        add(t, 'pod', 'kubelet', `${p.name} on ${p.node} is Ready (its readiness probe passes).`, {
          pod: p.key,
          node: p.node,
        });
        endpointsChanged(t);
        return;
      }
      case 'pod-exit': {
        const p = pods.get(a.pod);
        if (!p || p.gen !== a.gen) return;
        if (!(nodes.get(p.node) as NodeInt).up) return;
        pods.delete(a.pod);
        podEnds.set(p.key, { deletedAt: p.deletedAt ?? t, exitAt: t, sigkill: a.sigkill });
        add(
          t,
          'pod',
          'kubelet',
          a.sigkill
            ? `${p.name}: the ${cp.terminationGracePeriodSeconds} s grace period is over; the kubelet sends SIGKILL and the Pod is gone. Connections still open to it end unfinished: the kernel closes their sockets (a FIN, or an RST if data was left unread).`
            : `${p.name}: the application exits after SIGTERM; the Pod is gone. Connections still open to it are closed by its kernel.`,
          { pod: p.key, node: p.node },
        );
        endpointsChanged(t);
        return;
      }
      case 'ensuring':
        add(t, 'k8s-event', 'service-controller', 'Ensuring load balancer', {
          reason: 'EnsuringLoadBalancer',
        });
        add(
          t,
          'provisioning',
          'service-controller',
          `The cloud-controller-manager's service controller sees ${base.serviceKey} through its informer, adds the finalizer service.kubernetes.io/load-balancer-cleanup and asks the cloud for a load balancer.`,
        );
        agenda.push(t + prov.provisionDelayMs, { kind: 'built' });
        return;
      case 'built':
        add(
          t,
          'provisioning',
          'cloud',
          `The cloud has built the load balancer: a forwarding rule for ${hostname !== undefined ? `${hostname} (DNS: ${address})` : address} (${base.ports.map((p) => `${p.port}/${p.protocol}`).join(', ')}) and a health check (${lb.hcPolicy === 'Local' ? `http://<node>:${hcnp}/healthz, healthCheckNodePort` : hc.clusterTarget === 'healthz' ? `http://<node>:10256/healthz, kube-proxy` : 'TCP to the NodePort'} every ${hc.intervalSeconds} s, timeout ${hc.timeoutSeconds} s, healthy ${hc.healthyThreshold}, unhealthy ${hc.unhealthyThreshold}).`,
        );
        agenda.push(t + prov.registerDelayMs, { kind: 'registered' });
        return;
      case 'registered':
        lb.registered = true;
        registeredAt = t;
        add(
          t,
          'provisioning',
          'cloud',
          `Targets registered: ${targets.join(', ') || 'none'} — ${targets.length === nodeOrder.length ? 'every node' : `every node but ${excludedText()}`}, on NodePort ${base.ports[0]?.nodePort ?? 0}${lb.hcPolicy === 'Local' ? `; the health check asks each node's healthCheckNodePort ${hcnp}, so only nodes with a ready local endpoint will get traffic` : ''}. None gets traffic until it passes ${hc.healthyThreshold} health check${hc.healthyThreshold === 1 ? '' : 's'}.`,
        );
        add(t, 'k8s-event', 'service-controller', 'Ensured load balancer', {
          reason: 'EnsuredLoadBalancer',
        });
        lb.published = true;
        add(
          t,
          'published',
          'service-controller',
          hostname !== undefined
            ? `status.loadBalancer.ingress[0].hostname = ${hostname}: kubectl get svc now shows EXTERNAL-IP ${hostname}. Clients resolve the name to ${address}, the balancer's own address; kube-proxy writes no rule for it (it makes rules for ingress IPs only), so the balancer delivers to NodePort ${base.ports[0]?.nodePort ?? 0}.`
            : `status.loadBalancer.ingress[0].ip = ${address}: kubectl get svc now shows EXTERNAL-IP ${address}.`,
        );
        svcRow(t);
        scheduleProbes(t);
        return;
      case 'metallb-assign':
        add(t, 'k8s-event', 'metallb-controller', `Assigned IP ["${address}"]`, {
          reason: 'IPAllocated',
        });
        lb.published = true;
        add(
          t,
          'published',
          'metallb-controller',
          `MetalLB's controller takes ${address} from IPAddressPool ${prov.metallb.poolName} (${prov.metallb.poolRange}) and writes status.loadBalancer.ingress[0].ip: EXTERNAL-IP ${address}.`,
        );
        svcRow(t);
        elect(t, 'first announcement');
        return;
      case 'svc-policy':
        add(t, 'k8s-event', 'service-controller', `${a.from} -> ${a.to}`, {
          reason: 'ExternalTrafficPolicy',
        });
        add(
          t,
          'k8s-event',
          'service-controller',
          a.to === 'Local' ? `0 -> ${hcnp}` : `${hcnp} -> 0`,
          { reason: 'HealthCheckNodePort' },
        );
        add(t, 'k8s-event', 'service-controller', 'Ensuring load balancer', {
          reason: 'EnsuringLoadBalancer',
        });
        agenda.push(t + prov.registerDelayMs, { kind: 'hc-switch', policy: a.to });
        return;
      case 'hc-switch':
        lb.hcPolicy = a.policy;
        add(
          t,
          'provisioning',
          'cloud',
          `The balancer's health check now asks ${a.policy === 'Local' ? `http://<node>:${hcnp}/healthz (healthCheckNodePort)` : hc.clusterTarget === 'healthz' ? 'http://<node>:10256/healthz (kube-proxy)' : 'TCP to the NodePort'}.`,
        );
        add(t, 'k8s-event', 'service-controller', 'Ensured load balancer', {
          reason: 'EnsuredLoadBalancer',
        });
        return;
    }
  };

  // ---- start ----------------------------------------------------------------------------
  function excludedText(): string {
    const out = nodeOrder.filter((n) => !targets.includes(n));
    return `${out.join(', ')} (labelled node.kubernetes.io/exclude-from-external-load-balancers)`;
  }
  if (metallb && base.type === 'LoadBalancer') {
    const excluded = nodeOrder.filter((n) => (nodes.get(n) as NodeInt).excludeLabel);
    if (excluded.length > 0)
      add(
        0,
        'note',
        'metallb-speaker',
        prov.metallb.ignoreExcludeLb
          ? `${excluded.join(', ')} ${excluded.length === 1 ? 'is' : 'are'} labelled node.kubernetes.io/exclude-from-external-load-balancers, but the speakers run with --ignore-exclude-lb, so ${excluded.length === 1 ? 'it' : 'they'} may announce.`
          : `The speaker on ${excluded.join(', ')} never announces: ${excluded.length === 1 ? 'the node is' : 'the nodes are'} labelled node.kubernetes.io/exclude-from-external-load-balancers, which MetalLB honours unless its speakers run with --ignore-exclude-lb.`,
      );
  }
  const portsText = base.ports.map((p) => `${p.port}:${p.nodePort}/${p.protocol}`).join(', ');
  if (prov.fromCreation) {
    add(
      0,
      'event',
      'api-server',
      `Service ${base.serviceKey} created: type ${base.type}, ClusterIP ${base.clusterIP}, ports ${portsText}${apiPolicy === 'Local' ? `, healthCheckNodePort ${hcnp}` : ''}. status.loadBalancer is empty: EXTERNAL-IP ${externalIPColumn({ type: base.type, ...(base.externalIPs ? { externalIPs: base.externalIPs } : {}) })}.`,
    );
  }
  svcRow(0);
  for (const ev of s.events) agenda.push(ev.at, { kind: 'user', ev });
  if (base.type !== 'LoadBalancer') {
    add(
      0,
      'note',
      'api-server',
      `${base.serviceKey} is type ${base.type}: no controller provisions a load balancer for it (kubectl shows EXTERNAL-IP ${externalIPColumn({ type: base.type, ...(base.externalIPs ? { externalIPs: base.externalIPs } : {}) })}).`,
    );
  } else if (controller === 'none') {
    add(
      0,
      'note',
      'api-server',
      `No load-balancer controller runs in this cluster (no cloud-controller-manager, no MetalLB): nothing acts on type LoadBalancer, so status.loadBalancer stays empty and EXTERNAL-IP stays <pending> for good. NodePort ${base.ports[0]?.nodePort ?? 0} still answers on every node.`,
    );
  } else if (prov.fromCreation) {
    agenda.push(prov.informerDelayMs, { kind: metallb ? 'metallb-assign' : 'ensuring' });
  } else if (metallb) {
    lb.published = true;
    svcRows.length = 0;
    svcRow(0);
    elect(0, 'already announced when the run starts');
  } else {
    lb.registered = true;
    registeredAt = 0;
    lb.published = true;
    svcRows.length = 0;
    svcRow(0);
    // Steady state: each target's standing follows the answer it gives now.
    for (const n of targets) {
      const r = probeFor(n, 0);
      const st = hcState.get(n) as HcInt;
      st.inRotation = r.ok;
      st.succ = r.ok ? hc.healthyThreshold : 0;
      st.fail = r.ok ? 0 : hc.unhealthyThreshold;
    }
    add(
      0,
      'note',
      'balancer',
      `The balancer is already provisioned at ${hostname !== undefined ? `${hostname} (DNS: ${address})` : address}; in rotation: ${nodeOrder.filter((n) => hcState.get(n)?.inRotation).join(', ') || 'none'}${targets.length < nodeOrder.length ? `; not a target: ${excludedText()}` : ''}.`,
    );
    scheduleProbes(0);
  }

  // ---- run ------------------------------------------------------------------------------
  const epochs: RawEpoch[] = [];
  let cur: RawEpoch | undefined;
  let marked = { version: -1, rotations: -1 };
  const mark = (t: SimMs) => {
    // Nothing but probes since the last mark and no change of rotation: the same world.
    if (cur && marked.version === version && marked.rotations === rotation.length) return;
    marked = { version, rotations: rotation.length };
    const st = world();
    const key = JSON.stringify(st);
    if (cur && cur.key === key) return;
    if (cur && cur.from === t) {
      cur.state = st;
      cur.key = key;
      const prev = epochs[epochs.length - 1];
      if (prev && prev.key === key) {
        cur = prev;
        cur.to = Infinity;
        epochs.pop();
      }
      return;
    }
    if (cur) {
      cur.to = t;
      epochs.push(cur);
    }
    cur = { from: t, to: Infinity, state: st, key };
  };
  version++;
  mark(0);
  while (agenda.size > 0 && agenda.peekTime() <= horizon) {
    const t = agenda.peekTime();
    while (agenda.size > 0 && agenda.peekTime() === t) {
      const a = agenda.pop().value;
      if (a.kind !== 'probe' && a.kind !== 'probe-result') version++;
      handle(a, t);
    }
    mark(t);
  }
  if (cur) {
    cur.to = horizon;
    epochs.push(cur);
  }
  const last = epochs[epochs.length - 1];
  if (last && last.to < last.from) last.to = last.from;
  probes.sort((a, b) => a.at - b.at || nodeOrder.indexOf(a.node) - nodeOrder.indexOf(b.node));
  entries.sort((a, b) => a.at - b.at || a.seq - b.seq);
  entries.forEach((e, i) => (e.seq = i));
  return {
    epochs,
    entries,
    probes,
    rotation,
    svc: svcRows,
    outages,
    podEnds,
    address,
    registeredAt: controller === 'cloud' ? registeredAt : null,
    targets: controller === 'cloud' && registeredAt !== null ? targets : [],
    clusters: clusterCache,
  };
}
