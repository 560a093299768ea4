/**
 * Many connections through one moment's state (no events): the `stats` command's and the
 * many-connections view's numbers, and the sampling benchmark.
 */
import { createRng } from '../random';
import { canonicalObjects } from '../scenario/canonical';
import { DEFAULT_SCENE } from '../scenario/scene';
import { cumulative, sampleCounts } from './sample';
import { simulate } from './timeline';
import { MAX_CONNECTIONS } from './limits';
import type { Rng } from '../random';
import { drawPath, drawTable } from './pathDraw';
import type { Drawn } from './pathDraw';
import { ExpectedSums, flatPaths, routeAt, shareRow } from './pathSet';
import type {
  BenchmarkResult,
  ConnectionStats,
  EntryPaths,
  PathOption,
  ShareRow,
  StatsInput,
} from './types';

/** The state the objects describe, as the timeline's first epoch has it. */
export interface CurrentPaths {
  /** Its paths per entry node. */
  byEntry: EntryPaths[];
  /** Every node, in the cluster's order. */
  nodes: string[];
  /** The client's own node (in-cluster clients), else null. */
  home: string | null;
  /** The client's name. */
  client: string;
}

/** The paths of the state the objects describe, per entry node ({@link EntryPaths}). */
export function currentEntryPaths(input: Omit<StatsInput, 'connections'>): CurrentPaths {
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
  const byEntry = tl.epochs[0]?.byEntry ?? [];
  let home: string | null = null;
  if (c?.kind === 'Client') {
    if (c.spec.location === 'Node') home = c.spec.nodeName ?? null;
    if (c.spec.location === 'Pod')
      home =
        byEntry.find((e) => e.lbTarget === null && e.slots.weights.length > 0)?.entryNode ?? null;
  }
  return { byEntry, nodes, home, client };
}

/** The paths of the state the objects describe, as the timeline's first epoch has them. */
export function currentPaths(input: Omit<StatsInput, 'connections'>): {
  paths: PathOption[];
  nodes: string[];
  home: string | null;
  client: string;
} {
  const { byEntry, nodes, home, client } = currentEntryPaths(input);
  return { paths: flatPaths(byEntry), nodes, home, client };
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
  for (const n of nodeNames) shareRow(node, n);
  let delivered = 0;
  let cross = 0;
  let snat = 0;
  paths.forEach((p, i) => {
    const n = counts[i] ?? 0;
    const targets: ShareRow[] = [];
    if (p.entryNode) targets.push(shareRow(node, p.entryNode));
    if (p.pod) {
      targets.push(shareRow(pod, p.pod));
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
  return finishStats(node, pod, total, delivered, cross, snat);
}

function finishStats(
  node: Map<string, ShareRow>,
  pod: Map<string, ShareRow>,
  total: number,
  delivered: number,
  cross: number,
  snat: number,
): ConnectionStats {
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
 * {@link statsFromCounts} on factored paths: `counts` maps a path's index in the flat list to
 * its count (paths not listed: 0). Same rows, in the same order, with the same sums, without
 * an object per path.
 */
export function statsFromEntryCounts(
  entries: readonly EntryPaths[],
  counts: ReadonlyMap<number, number>,
  nodeNames: readonly string[],
): ConnectionStats {
  const node = new Map<string, ShareRow>();
  const pod = new Map<string, ShareRow>();
  for (const n of nodeNames) shareRow(node, n);
  // Expected shares, summed in the flat order: per entry node, and per Pod by number.
  // (n = 1: `1 × p` is `p`, exactly.)
  const sums = new ExpectedSums();
  for (const e of entries) {
    if (e.slots.weights.length === 0) continue;
    const nr = e.entryNode ? shareRow(node, e.entryNode) : null;
    const acc = sums.add(e, 1, nr ? nr.expectedShare : 0);
    if (nr) nr.expectedShare = acc;
  }
  for (const [id, sum] of sums.perPod()) shareRow(pod, id).expectedShare = sum;
  let total = 0;
  let delivered = 0;
  let cross = 0;
  let snat = 0;
  const offsets: number[] = [];
  let k = 0;
  for (const e of entries) {
    offsets.push(k);
    k += e.slots.weights.length;
  }
  for (const [index, n] of counts) {
    total += n;
    // The entry holding flat index `index`: the last with offset ≤ index (an empty entry
    // shares its offset with the next one, so the last is the one with paths).
    let lo = 0;
    let hi = entries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((offsets[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    const e = entries[lo] as EntryPaths;
    const j = index - (offsets[lo] as number);
    const r = routeAt(e, j);
    const targets: ShareRow[] = [];
    if (e.entryNode) targets.push(shareRow(node, e.entryNode));
    if (r.pod) {
      targets.push(shareRow(pod, r.pod));
      delivered += n;
      if (r.crossNode) cross += n;
      if (r.snat) snat += n;
    }
    for (const t of targets) {
      t.count += n;
      if (r.crossNode && r.pod) t.crossNode += n;
      if (r.snat && r.pod) t.snat += n;
    }
  }
  return finishStats(node, pod, total, delivered, cross, snat);
}

/** Draws `count` paths from `entries` (as {@link sampleCounts} over the flat list); returns flat index → count. */
export function sampleEntryCounts(
  entries: readonly EntryPaths[],
  count: number,
  rng: Rng,
): Map<number, number> {
  const table = drawTable(entries);
  const counts = new Map<number, number>();
  if (table.last < 0) return counts;
  for (let i = 0; i < count; i++) {
    const d = drawPath(table, rng()) as Drawn;
    counts.set(d.index, (counts.get(d.index) ?? 0) + 1);
  }
  return counts;
}

/**
 * N connections (1 … 100,000) through the state the objects and scene describe: each path
 * drawn with the seeded generator from the model's probabilities (computed once, by tracing
 * each distinct path), then counted per node and per Pod.
 * @throws {Error} when `connections` is out of range; {@link ScenarioError} on bad objects.
 */
export function connectionStats(input: StatsInput): ConnectionStats {
  checkConnections(input.connections);
  return statsOfCurrent(
    currentEntryPaths(input),
    input.connections,
    input.seed ?? input.scene.seed,
  );
}

/**
 * {@link connectionStats} for paths already found ({@link currentEntryPaths}), so a caller
 * that also shows them traces once.
 * @throws {Error} when `connections` is out of range.
 */
export function statsOfCurrent(
  current: CurrentPaths,
  connections: number,
  seed: number,
): ConnectionStats {
  checkConnections(connections);
  const counts = sampleEntryCounts(
    current.byEntry,
    connections,
    createRng((seed * 2654435761 + 7) >>> 0),
  );
  return statsFromEntryCounts(current.byEntry, counts, current.nodes);
}

function checkConnections(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONNECTIONS)
    throw new Error(`connections must be a whole number from 1 to ${MAX_CONNECTIONS}, not ${n}`);
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
