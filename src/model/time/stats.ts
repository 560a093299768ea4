/**
 * Many connections through one moment's state (no events): the `stats` command's and the
 * many-connections view's numbers, and the sampling benchmark.
 */
import { createRng } from '../random';
import { canonicalObjects } from '../scenario/canonical';
import { DEFAULT_SCENE } from '../scenario/scene';
import { cumulative, sampleCounts } from './sample';
import { simulate } from './timeline';
import { MAX_CONNECTIONS } from './settings';
import type { BenchmarkResult, ConnectionStats, PathOption, ShareRow, StatsInput } from './types';

/** The paths of the state the objects describe, as the timeline's first epoch has them. */
export function currentPaths(input: Omit<StatsInput, 'connections'>): {
  paths: PathOption[];
  nodes: string[];
  home: string | null;
  client: string;
} {
  const tl = simulate({
    objects: input.objects,
    scene: input.scene,
    events: [],
    horizonMs: 0,
    workload: { count: 0, ...(input.client !== undefined ? { client: input.client } : {}) },
    provisioning: { controller: input.scene.published ? 'cloud' : 'none', fromCreation: false },
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
  });
  const client = tl.base.scene.client;
  const nodes = tl.stats.perNode.map((r) => r.id);
  const objects = tl.base.objects;
  const c = objects.find((o) => o.kind === 'Client' && o.metadata.name === client);
  let home: string | null = null;
  if (c?.kind === 'Client') {
    if (c.spec.location === 'Node') home = c.spec.nodeName ?? null;
    if (c.spec.location === 'Pod')
      home = tl.epochs[0]?.paths.find((p) => p.lbTarget === null)?.entryNode ?? null;
  }
  return { paths: tl.epochs[0]?.paths ?? [], nodes, home, client };
}

/** Aggregates path counts into per-node and per-Pod rows. */
export function statsFromCounts(
  paths: readonly PathOption[],
  counts: ArrayLike<number>,
  nodeNames: readonly string[],
): ConnectionStats {
  let total = 0;
  for (let i = 0; i < paths.length; i++) total += counts[i] ?? 0;
  const node = new Map<string, ShareRow>();
  const pod = new Map<string, ShareRow>();
  const row = (m: Map<string, ShareRow>, id: string) => {
    let r = m.get(id);
    if (!r) {
      r = { id, count: 0, share: 0, expectedShare: 0, crossNode: 0, snat: 0 };
      m.set(id, r);
    }
    return r;
  };
  for (const n of nodeNames) row(node, n);
  let delivered = 0;
  let cross = 0;
  let snat = 0;
  paths.forEach((p, i) => {
    const n = counts[i] ?? 0;
    const targets: ShareRow[] = [];
    if (p.entryNode) targets.push(row(node, p.entryNode));
    if (p.pod) {
      targets.push(row(pod, p.pod));
      delivered += n;
      if (p.crossNode) cross += n;
      if (p.snat) snat += n;
    }
    for (const r of targets) {
      r.count += n;
      r.expectedShare += p.probability;
      if (p.crossNode && p.pod) r.crossNode += n;
      if (p.snat && p.pod) r.snat += n;
    }
  });
  const finish = (m: Map<string, ShareRow>) =>
    [...m.values()].map((r) => ({ ...r, share: total ? r.count / total : 0 }));
  return {
    total,
    delivered,
    failed: total - delivered,
    perNode: finish(node),
    perPod: finish(pod).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    crossNode: cross,
    snat,
  };
}

/**
 * N connections (1 … 100,000) through the state the objects and scene describe: each path
 * drawn with the seeded generator from the model's probabilities (computed once, by tracing
 * each distinct path), then counted per node and per Pod.
 * @throws {Error} when `connections` is out of range; {@link ScenarioError} on bad objects.
 */
export function connectionStats(input: StatsInput): ConnectionStats {
  if (
    !Number.isInteger(input.connections) ||
    input.connections < 1 ||
    input.connections > MAX_CONNECTIONS
  )
    throw new Error(
      `connections must be a whole number from 1 to ${MAX_CONNECTIONS}, not ${input.connections}`,
    );
  const { paths, nodes } = currentPaths(input);
  const seed = input.seed ?? input.scene.seed;
  const counts = sampleCounts(
    cumulative(paths.map((p) => p.probability)),
    input.connections,
    createRng((seed * 2654435761 + 7) >>> 0),
  );
  return statsFromCounts(paths, counts, nodes);
}

/**
 * Times the sampling of `count` connections through the canonical scenario (Cluster
 * policy: six paths) with the caller's clock; the paths are computed before the clock
 * starts. The caller passes its own clock (a function returning milliseconds); the model reads none.
 */
export function benchmarkSampling(count: number, now: () => number, seed = 1): BenchmarkResult {
  const { paths } = currentPaths({
    objects: canonicalObjects(),
    scene: { ...DEFAULT_SCENE, seed },
  });
  const cum = cumulative(paths.map((p) => p.probability));
  const rng = createRng(seed);
  const start = now();
  const counts = sampleCounts(cum, count, rng);
  const elapsedMs = now() - start;
  let total = 0;
  for (const c of counts) total += c;
  return {
    connections: total,
    elapsedMs,
    connectionsPerSecond: elapsedMs > 0 ? (total / elapsedMs) * 1000 : Infinity,
  };
}

/**
 * Times a whole run with `count` connections (1 … 100,000) with the caller's clock: the
 * canonical scenario over 2 minutes, node-1 failing at 12 s and returning at 90 s — every
 * epoch's paths traced through the model, every connection drawn, its record and fate
 * settled. Everything {@link simulate} does is inside the clock, unlike
 * {@link benchmarkSampling}, which times only the drawing from precomputed probabilities.
 */
export function benchmarkSimulate(count: number, now: () => number, seed = 1): BenchmarkResult {
  const start = now();
  const tl = simulate({
    objects: canonicalObjects(),
    scene: { ...DEFAULT_SCENE, seed },
    events: [
      { at: 12_000, kind: 'fail-node', node: 'node-1' },
      { at: 90_000, kind: 'restore-node', node: 'node-1' },
    ],
    workload: { count, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
    horizonMs: 120_000,
  });
  const elapsedMs = now() - start;
  const total = tl.connections.length;
  return {
    connections: total,
    elapsedMs,
    connectionsPerSecond: elapsedMs > 0 ? (total / elapsedMs) * 1000 : Infinity,
  };
}
