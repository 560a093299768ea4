/**
 * The engine's golden record: `simulate()`'s whole output, serialised with `JSON.stringify`
 * and hashed (SHA-256), for a matrix of runs that reaches every branch of the time engine —
 * the canonical scenario and every shipped example (public/examples/index.json), each under
 * nine event sets (none; fail and restore; drain and uncordon; scale-down then failure and a
 * late return; Pod kills and scaling; policy flips; repeated and out-of-order events; two
 * failures at once; every node drained so nothing schedules) and seven settings (the
 * scenario's defaults; the time view's run from creation; MetalLB from creation and already
 * announced with `--ignore-exclude-lb`; no controller; a TCP check with short delays and an
 * application that exits on SIGTERM; the other externalTrafficPolicy), plus the special
 * inputs of the existing tests (excluded nodes, NoSchedule taints, a node's address as the
 * client, slow provisioning, the longest run) and every time link of the tutorial
 * (content/chapters, content/talks) run as the time view runs it.
 *
 * This is not a check of Kubernetes behaviour (the other tests in src/model/time are): it pins
 * the output of the engine as it was before it was split into managers, so the move can be
 * proven byte-identical. The hashes in golden.json were written by the engine before the split.
 * To see a difference: `GOLDEN_DUMP=/tmp/golden npx vitest run src/model/time/engine/golden`
 * writes each run's JSON there (diff two dumps). `GOLDEN_UPDATE=1` rewrites golden.json: only
 * for a change of behaviour that is meant, in its own commit that says so.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, resolveCluster } from '../../index';
import type { ScenarioObject, SceneOptions } from '../../index';
import { fillGaps } from '../../import/fill';
import { loadObjects } from '../../import/load';
import { MAX_SIM_MS, parseCompactEvents, sceneFromObjects, simulate } from '../index';
import type { Timeline, TimelineEvent, TimelineInput } from '../types';

const GOLDEN = 'src/model/time/engine/golden.json';
const EXAMPLES = 'public/examples';

interface Scenario {
  name: string;
  objects: ScenarioObject[];
  scene: SceneOptions;
}

function scenarios(): Scenario[] {
  const index = JSON.parse(readFileSync(`${EXAMPLES}/index.json`, 'utf8')) as { file: string }[];
  const out: Scenario[] = [
    { name: 'canonical', objects: canonicalObjects(), scene: DEFAULT_SCENE },
  ];
  for (const { file } of index) {
    const objects = fillGaps(
      loadObjects(readFileSync(`${EXAMPLES}/${file}`, 'utf8')).objects,
    ).objects;
    out.push({ name: file.replace(/\.yaml$/, ''), objects, scene: sceneFromObjects(objects, 1) });
  }
  return out;
}

/** The event sets, over the scenario's first nodes and first backend Pod. */
function eventSets(nodes: string[], pod: string): Record<string, TimelineEvent[]> {
  const [n0 = '', n1 = n0] = nodes;
  return {
    none: [],
    failRestore: [
      { at: 12_000, kind: 'fail-node', node: n0 },
      { at: 90_000, kind: 'restore-node', node: n0 },
    ],
    drainUncordon: [
      { at: 10_000, kind: 'drain-node', node: n1 },
      { at: 70_000, kind: 'uncordon-node', node: n1 },
    ],
    scaleDownFailLate: [
      { at: 20_000, kind: 'scale-down-node', node: n0 },
      { at: 50_000, kind: 'fail-node', node: n0 },
      { at: 400_000, kind: 'restore-node', node: n0 },
    ],
    podsAndScale: [
      { at: 5_000, kind: 'kill-pod', pod },
      { at: 6_000, kind: 'kill-pod', pod: 'no-such-pod' },
      { at: 20_000, kind: 'scale', replicas: 4 },
      { at: 40_000, kind: 'scale', replicas: 1 },
      { at: 41_000, kind: 'scale', replicas: 1 },
    ],
    policyFlips: [
      { at: 15_000, kind: 'set-policy', policy: 'Local' },
      { at: 16_000, kind: 'set-policy', policy: 'Local' },
      { at: 70_000, kind: 'set-policy', policy: 'Cluster' },
      { at: 71_000, kind: 'set-policy', policy: 'Cluster' },
    ],
    repeated: [
      { at: 10_000, kind: 'fail-node', node: n0 },
      { at: 11_000, kind: 'fail-node', node: n0 },
      { at: 12_000, kind: 'restore-node', node: n1 },
      { at: 20_000, kind: 'drain-node', node: n0 },
      { at: 30_000, kind: 'restore-node', node: n0 },
      { at: 31_000, kind: 'scale-down-node', node: n0 },
      { at: 32_000, kind: 'scale-down-node', node: n0 },
      { at: 33_000, kind: 'uncordon-node', node: n1 },
    ],
    twoDown: [
      { at: 10_000, kind: 'fail-node', node: n0 },
      { at: 10_000, kind: 'fail-node', node: n1 },
      { at: 20_000, kind: 'scale', replicas: 3 },
      { at: 200_000, kind: 'restore-node', node: n0 },
      { at: 200_000, kind: 'restore-node', node: n1 },
    ],
    nothingSchedules: [
      ...nodes.map((node): TimelineEvent => ({ at: 10_000, kind: 'drain-node', node })),
      { at: 20_000, kind: 'scale', replicas: 5 },
      { at: 30_000, kind: 'uncordon-node', node: n0 },
    ],
  };
}

type Variant = (sc: Scenario) => Partial<TimelineInput>;

const flip = (p: 'Cluster' | 'Local') => (p === 'Cluster' ? 'Local' : 'Cluster');

const VARIANTS: Record<string, Variant> = {
  defaults: () => ({ workload: { count: 200, startMs: 0, periodMs: 60_000, holdMs: 30_000 } }),
  timeView: () => ({
    provisioning: { controller: 'cloud', fromCreation: true },
    workload: {
      count: 300,
      startMs: 40_000,
      periodMs: 60_000,
      holdMs: 30_000,
      longLived: [{ client: '198.51.100.77', openedAt: 40_000 }],
    },
    seed: 1,
  }),
  metallbFromCreation: () => ({
    provisioning: {
      controller: 'metallb-l2',
      fromCreation: true,
      metallb: { failoverDetectMs: 5_000 },
    },
    workload: { count: 200, startMs: 0, periodMs: 90_000, holdMs: 10_000 },
  }),
  metallbAnnounced: () => ({
    provisioning: { controller: 'metallb-l2', metallb: { ignoreExcludeLb: true } },
    workload: { count: 100, startMs: 0, periodMs: 60_000, holdMs: 0 },
  }),
  none: () => ({
    provisioning: { controller: 'none', fromCreation: true },
    workload: { count: 50, startMs: 0, periodMs: 60_000, holdMs: 0 },
  }),
  tcpShort: () => ({
    healthCheck: {
      intervalSeconds: 5,
      timeoutSeconds: 2,
      healthyThreshold: 2,
      unhealthyThreshold: 2,
      clusterTarget: 'nodePort',
    },
    controlPlane: {
      nodeMonitorGracePeriodSeconds: 20,
      endpointPropagationMs: 0,
      readinessDelayMs: 5000,
      unreachableTolerationSeconds: 30,
      terminationGracePeriodSeconds: 10,
      appExitAfterSigtermMs: 3000,
    },
    provisioning: {
      fromCreation: true,
      informerDelayMs: 200,
      provisionDelayMs: 8000,
      registerDelayMs: 2000,
    },
    workload: { count: 150, startMs: 0, periodMs: 120_000, holdMs: 20_000 },
    seed: 9,
  }),
  otherPolicy: (sc) => ({
    scene: { ...sc.scene, externalTrafficPolicy: flip(sc.scene.externalTrafficPolicy) },
    workload: { count: 100, startMs: 0, periodMs: 60_000, holdMs: 5_000 },
    seed: 4,
  }),
};

const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers';

function patchNode(
  name: string,
  patch: (n: Extract<ScenarioObject, { kind: 'Node' }>) => void,
): ScenarioObject[] {
  const objects = canonicalObjects();
  for (const o of objects) if (o.kind === 'Node' && o.metadata?.name === name) patch(o);
  return objects;
}

/** The special inputs of the existing tests, as they give them. */
function specialRuns(): Record<string, TimelineInput> {
  const base = { objects: canonicalObjects(), scene: DEFAULT_SCENE };
  const excluded = patchNode('node-2', (n) => {
    n.metadata = { ...n.metadata, labels: { ...n.metadata?.labels, [EXCLUDE]: 'true' } };
  });
  const taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
  const tainted = patchNode('node-2', (n) => (n.spec = { ...n.spec, taints: [taint] }));
  const tolerated = tainted.map((o) =>
    o.kind === 'Pod' && o.metadata?.labels?.['app'] === 'web'
      ? {
          ...o,
          spec: {
            containers: [],
            ...o.spec,
            tolerations: [{ key: taint.key, operator: 'Exists', effect: 'NoSchedule' }],
          },
        }
      : o,
  );
  const prov = {
    fromCreation: true,
    informerDelayMs: 200,
    provisionDelayMs: 30_000,
    registerDelayMs: 5_000,
  };
  const asType = (type: 'NodePort' | 'ClusterIP') =>
    canonicalObjects().map((o) =>
      o.kind === 'Service' ? { ...o, spec: { ...o.spec, type }, status: {} } : o,
    );
  return {
    nodePortService: {
      objects: asType('NodePort'),
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'fail-node', node: 'node-1' }],
      provisioning: { fromCreation: true },
      workload: { count: 50 },
    },
    clusterIPService: {
      objects: asType('ClusterIP'),
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'kill-pod', pod: 'web-6d8f9c7b5-q7m9z' }],
      workload: { count: 0 },
    },
    excludedCloud: {
      objects: excluded,
      scene: DEFAULT_SCENE,
      events: [{ at: 20_000, kind: 'fail-node', node: 'node-1' }],
      provisioning: { fromCreation: true },
      workload: { count: 100 },
      horizonMs: 80_000,
    },
    excludedCloudSteady: {
      objects: excluded,
      scene: DEFAULT_SCENE,
      events: [],
      workload: { count: 20 },
    },
    excludedMetallb: {
      objects: excluded,
      scene: DEFAULT_SCENE,
      events: [{ at: 20_000, kind: 'fail-node', node: 'node-1' }],
      provisioning: { controller: 'metallb-l2', fromCreation: true },
      workload: { count: 0 },
    },
    excludedMetallbIgnored: {
      objects: excluded,
      scene: DEFAULT_SCENE,
      events: [],
      provisioning: { controller: 'metallb-l2', metallb: { ignoreExcludeLb: true } },
      workload: { count: 0 },
      horizonMs: 10_000,
    },
    taintedScale: {
      objects: tainted,
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'scale', replicas: 4 }],
      workload: { count: 0 },
      horizonMs: 60_000,
    },
    toleratedScale: {
      objects: tolerated,
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'scale', replicas: 4 }],
      workload: { count: 0 },
      horizonMs: 60_000,
    },
    nodeAddressClient: {
      ...base,
      events: [{ at: 10_000, kind: 'fail-node', node: 'node-2' }],
      workload: {
        count: 100,
        client: '192.168.0.12',
        longLived: [{ client: '192.168.0.11', openedAt: 0, closesAt: 50_000 }],
      },
      horizonMs: 60_000,
    },
    slowProvisioning: {
      ...base,
      events: [{ at: 60_000, kind: 'kill-pod', pod: 'web-6d8f9c7b5-x2k4p' }],
      provisioning: prov,
      healthCheck: {
        intervalSeconds: 5,
        timeoutSeconds: 2,
        healthyThreshold: 2,
        unhealthyThreshold: 2,
      },
      workload: { count: 200, startMs: 0, periodMs: 120_000, holdMs: 1_000 },
      horizonMs: 120_000,
    },
    metallbNoProvisioning: {
      ...base,
      events: [{ at: 30_000, kind: 'fail-node', node: 'node-3' }],
      provisioning: { ...prov, controller: 'metallb-l2', metallb: { failoverDetectMs: 5_000 } },
      workload: { count: 0 },
    },
    longestRun: {
      ...base,
      events: [{ at: MAX_SIM_MS - 60_000, kind: 'scale', replicas: 3 }],
      workload: { count: 0 },
      healthCheck: { intervalSeconds: 300, timeoutSeconds: 300 },
    },
    nodeFailureTest: {
      ...base,
      events: [
        { at: 12_000, kind: 'fail-node', node: 'node-1' },
        { at: 90_000, kind: 'restore-node', node: 'node-1' },
      ],
      healthCheck: {
        intervalSeconds: 5,
        timeoutSeconds: 2,
        healthyThreshold: 2,
        unhealthyThreshold: 2,
      },
      controlPlane: {
        nodeMonitorGracePeriodSeconds: 50,
        endpointPropagationMs: 1000,
        readinessDelayMs: 5000,
      },
      workload: { count: 240, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
      horizonMs: 120_000,
      seed: 7,
    },
  };
}

/** Every time link in the tutorial, run as the time view runs it (two passes, from creation). */
function tutorialRuns(all: Scenario[]): Record<string, TimelineInput> {
  const links = new Set<string>();
  for (const dir of ['content/chapters', 'content/talks'])
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.md')))
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/\]\(time:([^)]*)\)/g))
        links.add(m[1] ?? '');
  const out: Record<string, TimelineInput> = {};
  for (const q of [...links].sort()) {
    const p = new URLSearchParams(q);
    const sc = all.find((s) => s.name === (p.get('scenario') ?? 'canonical'));
    if (!sc) throw new Error(`time link ${q}: no scenario`);
    const policy = p.get('policy') as 'Cluster' | 'Local' | null;
    const scene = { ...sc.scene, ...(policy ? { externalTrafficPolicy: policy } : {}) };
    const events = p.get('events') ? parseCompactEvents(p.get('events') ?? '') : [];
    const hc = {
      ...(p.get('interval') ? { intervalSeconds: Number(p.get('interval')) } : {}),
      ...(p.get('unhealthy') ? { unhealthyThreshold: Number(p.get('unhealthy')) } : {}),
    };
    const controller = (p.get('controller') ?? 'cloud') as 'cloud' | 'none' | 'metallb-l2';
    const input = (count: number, startMs: number): TimelineInput => ({
      objects: sc.objects,
      scene:
        scene.dial.kind === 'LoadBalancer' ? scene : { ...scene, dial: { kind: 'LoadBalancer' } },
      events,
      healthCheck: hc,
      provisioning: { controller, fromCreation: true },
      workload: { count, startMs, periodMs: 60_000, holdMs: 30_000 },
      seed: 1,
    });
    const first = simulate(input(0, 0));
    const published = first.entries.find((e) => e.kind === 'published')?.at;
    let ready = published ?? 0;
    const firstEvent = first.base.events[0]?.at ?? Infinity;
    for (const r of first.rotation)
      if (published !== undefined && r.at < firstEvent && r.at > ready) ready = r.at;
    out[`tutorial ${q}`] = input(1000, Math.ceil(ready / 1000) * 1000);
  }
  return out;
}

function cases(): Record<string, TimelineInput> {
  const all = scenarios();
  const out: Record<string, TimelineInput> = {};
  for (const sc of all) {
    const nodes = resolveCluster(sc.objects).nodes.map((n) => n.name);
    const first = simulate({
      objects: sc.objects,
      scene: sc.scene,
      events: [],
      workload: { count: 0 },
      horizonMs: 0,
    });
    const pod = first.epochs[0]?.state.pods[0]?.name ?? 'none';
    for (const [ev, events] of Object.entries(eventSets(nodes, pod)))
      for (const [v, variant] of Object.entries(VARIANTS))
        out[`${sc.name} ${ev} ${v}`] = {
          objects: sc.objects,
          scene: sc.scene,
          events,
          ...variant(sc),
        };
  }
  return { ...out, ...specialRuns(), ...tutorialRuns(all) };
}

/** `simulate`'s output as text: `JSON.stringify` (what the CLI and the worker send on). */
function serialise(tl: Timeline): string {
  return JSON.stringify(tl);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('simulate() is byte-identical to the golden record', () => {
  const all = cases();
  const got: Record<string, string> = {};
  const dump = process.env['GOLDEN_DUMP'];
  if (dump) mkdirSync(dump, { recursive: true });
  for (const [name, input] of Object.entries(all)) {
    let text: string;
    try {
      text = serialise(simulate(input));
    } catch (e) {
      text = `throws: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (dump) writeFileSync(join(dump, `${name.replace(/[^a-zA-Z0-9._-]+/g, '_')}.json`), text);
    got[name] = sha256(text);
  }
  if (process.env['GOLDEN_UPDATE'] === '1')
    writeFileSync(GOLDEN, `${JSON.stringify(got, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;

  it('runs the same cases as the record', () => {
    expect(Object.keys(got).sort()).toEqual(Object.keys(golden).sort());
  });

  it.each(Object.keys(all))('%s', (name) => {
    expect(got[name]).toBe(golden[name]);
  });
});
