/**
 * The timeline's entry points: {@link simulate}, and reading a timeline back as the
 * cluster at a moment ({@link stateAt}, {@link sceneAt}) or as `kubectl get svc`
 * ({@link svcRowAt}).
 */
import type { ScenarioObject } from '../k8s/objects';
import { prepare } from './paths';
import { fastEntryPaths, newPathMemo } from './fastPaths';
import { withFlatPaths } from './pathSet';
import type { PathMemo } from './fastPaths';
import type { SceneOptions } from '../scenario/scene';
import type { Prepared } from './paths';
import { analyse, clientFor, snapshot } from './scenario';
import type { Base, SnapshotExtras } from './scenario';
import { resolveSettings } from './settings';
import { runEngine } from './engine/index';
import type { EngineResult, StateCluster } from './engine/index';
import { deadNodeWindows, drawConnections, epochIndexAt, statsOf } from './connections';
import { humanDuration } from './duration';
import type {
  ClusterSnapshot,
  EntryPaths,
  Epoch,
  HealthCheckSettings,
  SimMs,
  SvcRow,
  Timeline,
  TimelineInput,
} from './types';

/** `intervalSeconds × unhealthyThreshold + timeoutSeconds`, in ms: the longest a dead node can stay in rotation. */
export function deadNodeWindowBound(hc: HealthCheckSettings): SimMs {
  // A node that dies just after a passing probe at p is probed again at p + I, …, p + U·I;
  // the U-th failure is known when that probe times out, at p + U·I + T.
  return (hc.intervalSeconds * hc.unhealthyThreshold + hc.timeoutSeconds) * 1000;
}

const bases = new WeakMap<Timeline, Base>();

function baseOf(t: Timeline): Base {
  let b = bases.get(t);
  if (!b) {
    b = analyse(t.base.objects, t.base.scene).base;
    bases.set(t, b);
  }
  return b;
}

/**
 * The paths of an epoch's state for a client (`key`: the epoch's JSON), computed once per state
 * and client. Paths depend on the rotation only through the balancer's share: one resolved
 * cluster and one memo of traced classes per state apart from the rotation and per client.
 */
function pathsFinder(
  base: Base,
  engine: EngineResult,
  extras: SnapshotExtras,
): (key: string, state: Epoch['state'], client: string) => EntryPaths[] {
  const prepared = new Map<
    string,
    { p: Prepared; scene: SceneOptions; memos: Map<string, PathMemo> }
  >();
  // kube-proxy's rules read endpoint conditions, never whether a node answers (`downNodes`
  // only marks nodes not ready in the resolved cluster): states that differ only in which
  // nodes are down share every node's rules.
  const rulesByObjects = new Map<string, Prepared['rules']>();
  const pathCache = new Map<string, EntryPaths[]>();
  return (key: string, state: Epoch['state'], client: string): EntryPaths[] => {
    const ck = `${client}\n${key}`;
    let hit = pathCache.get(ck);
    if (!hit) {
      const rest = JSON.stringify({ ...state, inRotation: [], announcingNode: null });
      let prep = prepared.get(rest);
      if (!prep) {
        // The engine resolved the states its probes saw, as `prepare` would: reused.
        const resolved: Pick<StateCluster, 'cluster' | 'scene'> =
          engine.clusters.get(rest) ??
          (() => {
            const snap = snapshot(base, state, extras, false);
            return { cluster: prepare(snap.objects, snap.scene).cluster, scene: snap.scene };
          })();
        const objectsKey = JSON.stringify({
          ...state,
          nodes: state.nodes.map((n) => ({ ...n, up: true })),
          inRotation: [],
          announcingNode: null,
        });
        let rules = rulesByObjects.get(objectsKey);
        if (!rules) {
          rules = {};
          rulesByObjects.set(objectsKey, rules);
        }
        prep = {
          p: { cluster: resolved.cluster, rules },
          scene: resolved.scene,
          memos: new Map(),
        };
        prepared.set(rest, prep);
      }
      // snapshot's scene differs between such states only in the rotation.
      const scene: SceneOptions = { ...prep.scene, choices: { rotation: [...state.inRotation] } };
      // Traced classes are the client's own: the rules may treat sources differently
      // (loadBalancerSourceRanges drops some at KUBE-FW-), so clients never share them.
      let memo = prep.memos.get(client);
      if (!memo) {
        memo = newPathMemo();
        prep.memos.set(client, memo);
      }
      hit = fastEntryPaths(prep.p, scene, client, memo);
      pathCache.set(ck, hit);
    }
    return hit;
  };
}

/**
 * Runs the simulation: provisioning, health checks, the events, the control plane's
 * reactions and the workload's connections. Same input → same timeline (every draw comes
 * from generators seeded with `input.seed`, default `scene.seed`).
 * @throws {ScenarioError} when the objects do not resolve; {@link Error} on a bad setting or
 *   an event naming an unknown node.
 */
export function simulate(input: TimelineInput): Timeline {
  const objects = structuredClone(input.objects) as ScenarioObject[];
  const longClients = (input.workload?.longLived ?? []).map((l) => clientFor(objects, l.client));
  const workloadClient = clientFor(objects, input.workload?.client ?? input.scene.client);
  // `objects` is this run's own deep copy: analyse need not copy it again.
  const { base, cluster } = analyse(
    objects,
    { ...input.scene, client: workloadClient },
    undefined,
    false,
  );
  const s = resolveSettings(
    {
      ...input,
      workload: {
        ...(input.workload ?? {}),
        client: workloadClient,
        longLived: (input.workload?.longLived ?? []).map((l, i) => ({
          ...l,
          client: longClients[i] ?? l.client,
        })),
      },
    },
    base,
  );
  const engine = runEngine(base, s);
  const extras = { controller: s.provisioning.controller, address: engine.address };
  const pathsOf = pathsFinder(base, engine, extras);
  const epochs: Epoch[] = engine.epochs.map((e, index) =>
    withFlatPaths({
      index,
      state: e.state,
      from: e.from,
      to: e.to,
      inRotation: e.state.inRotation,
      failedNodes: e.state.nodes.filter((n) => !n.up).map((n) => n.name),
      policy: e.state.policy,
      published: e.state.published,
      byEntry: pathsOf(e.key, e.state, workloadClient),
    }),
  );
  const connections = drawConnections({
    epochs,
    pathsFor: (ei, client) => {
      const e = engine.epochs[ei];
      return e ? pathsOf(e.key, e.state, client) : [];
    },
    workload: s.workload,
    client: workloadClient,
    seed: s.seed,
    horizon: s.horizonMs,
    outages: engine.outages,
    podEnds: engine.podEnds,
  });
  const home = cluster.clients.find((c) => c.name === workloadClient)?.nodeName ?? null;
  const windows = deadNodeWindows(
    engine.outages,
    engine.rotation,
    epochs,
    connections,
    s.provisioning.controller === 'metallb-l2'
      ? s.provisioning.metallb.failoverDetectMs
      : deadNodeWindowBound(s.healthCheck),
    s.horizonMs,
  );
  return {
    base: { objects: base.objects, scene: base.scene, events: s.events },
    settings: {
      healthCheck: s.healthCheck,
      provisioning: s.provisioning,
      controlPlane: s.controlPlane,
      workload: s.workload,
      seed: s.seed,
      horizonMs: s.horizonMs,
    },
    service: base.serviceKey,
    address: engine.address,
    entries: engine.entries,
    probes: engine.probes,
    registeredAt: engine.registeredAt,
    targets: engine.targets,
    rotation: engine.rotation,
    svc: engine.svc,
    epochs,
    connections,
    deadNodeWindows: windows,
    stats: statsOf(
      connections,
      epochs,
      base.nodes.map((n) => n.name),
      home,
    ),
  };
}

/** The cluster as of `at`: objects and scene for `runScene`, with `choices.rotation` set. */
export function stateAt(timeline: Timeline, at: SimMs): ClusterSnapshot {
  const ei = epochIndexAt(timeline.epochs, at);
  const epoch = timeline.epochs[ei];
  if (!epoch) throw new Error('the timeline has no epochs');
  const snap = snapshot(baseOf(timeline), epoch.state, {
    controller: timeline.settings.provisioning.controller,
    address: timeline.address,
  });
  return { at, epoch: ei, objects: snap.objects, scene: snap.scene };
}

/**
 * The cluster as of connection `connectionId`'s opening, its client and path pinned
 * (`lbTarget`, `endpoint`, the rotation), so `runScene(objects, scene)` traces exactly that
 * connection step by step.
 * @throws {Error} when no connection has that id.
 */
export function sceneAt(timeline: Timeline, connectionId: string): ClusterSnapshot {
  const c = timeline.connections.find((x) => x.id === connectionId);
  if (!c) throw new Error(`no connection "${connectionId}"`);
  const snap = stateAt(timeline, c.openedAt);
  return {
    ...snap,
    scene: {
      ...snap.scene,
      client: c.client,
      choices: {
        ...snap.scene.choices,
        ...(c.lbTarget ? { lbTarget: c.lbTarget } : {}),
        ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      },
    },
  };
}

/** `kubectl get svc` as of `at` (EXTERNAL-IP as then, AGE counted from t = 0). */
export function svcRowAt(timeline: Timeline, at: SimMs): SvcRow {
  let row = timeline.svc[0];
  for (const r of timeline.svc) if (r.at <= at) row = r;
  if (!row) throw new Error('the timeline has no kubectl get svc rows');
  return { ...row, at, AGE: humanDuration(at) };
}

/**
 * `kubectl get svc` printed as kubectl prints it: its tabwriter (`printers.GetNewTabWriter`:
 * minwidth 6, padding 3, pad character space), the last column unpadded.
 */
export function formatSvcTable(rows: readonly SvcRow[]): string {
  const cols = ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'] as const;
  const cells = [cols.map((c) => c as string), ...rows.map((r) => cols.map((c) => r[c]))];
  const widths = cols.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(Math.max((widths[i] ?? 0) + 3, 6))))
        .join(''),
    )
    .join('\n');
}
