/**
 * `stats FILE… --connections N [--seed S] [--client NAME|IP] [--mode M] [--json]`: N new
 * connections through the state the files describe, counted per node (where they entered)
 * and per Pod (where they ended), against the shares the model's probabilities give.
 */
import { parseArgs } from 'node:util';
import {
  currentEntryPaths,
  flatPaths,
  sceneFromObjects,
  statsOfCurrent,
  MAX_CONNECTIONS,
} from '../model/time';
import type { ConnectionStats, PathOption } from '../model/time';
import { UsageError, modeOf, pct, plainInt, readObjects, seedOf, table } from './input';

/** The `--json` output of `stats` (documented in README.md, "Headless: stats and timeline"). */
export interface StatsJson {
  service: string;
  client: string;
  externalTrafficPolicy: 'Cluster' | 'Local';
  seed: number;
  connections: number;
  /** Every distinct path with its probability and outcome (computed once from the model). */
  paths: PathOption[];
  stats: ConnectionStats;
}

/** Rows of a per-node and per-Pod table. */
export function shareTables(s: ConnectionStats): string {
  // DIFF: SHARE − EXPECTED in percentage points (pp), as the view's tables give it.
  const head = ['COUNT', 'SHARE', 'EXPECTED', 'DIFF (pp)', 'CROSS-NODE', 'SNAT'];
  const line = (r: ConnectionStats['perNode'][number]) => [
    r.count,
    pct(r.share),
    pct(r.expectedShare),
    `${r.share - r.expectedShare >= 0 ? '+' : ''}${((r.share - r.expectedShare) * 100).toFixed(2)}`,
    r.crossNode,
    r.snat,
  ];
  return [
    table([['NODE (entered)', ...head], ...s.perNode.map((r) => [r.id, ...line(r)])]),
    '',
    table([['POD (delivered to)', ...head], ...s.perPod.map((r) => [r.id, ...line(r)])]),
    '',
    `delivered ${s.delivered} of ${s.total}, failed ${s.failed}; cross-node hops ${s.crossNode}; SNATed ${s.snat}`,
  ].join('\n');
}

/**
 * Runs `stats`; returns the text to print (stdout); the input's notes are pushed to `notes` (stderr).
 * @throws {UsageError} on a bad option; {@link InputError} (./input.ts) on input the validator refuses.
 */
export function cmdStats(args: string[], notes: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      connections: { type: 'string' },
      seed: { type: 'string' },
      client: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (values.connections === undefined) throw new UsageError('--connections is required');
  const n = plainInt(values.connections) ?? NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONNECTIONS)
    throw new UsageError(
      `--connections ${values.connections}: must be a whole number from 1 to ${MAX_CONNECTIONS}`,
    );
  const seed = seedOf(values.seed);
  const mode = modeOf(values.mode);
  const objects = readObjects(positionals, notes);
  const scene = { ...sceneFromObjects(objects, seed), ...(mode ? { proxyMode: mode } : {}) };
  const input = {
    objects,
    scene,
    seed,
    ...(values.client !== undefined ? { client: values.client } : {}),
  };
  let info;
  try {
    info = currentEntryPaths(input);
  } catch (e) {
    if (/no Client/.test((e as Error).message))
      throw new UsageError(`--client ${values.client ?? ''}: ${(e as Error).message}`);
    throw e;
  }
  // The paths are traced once, for the counts and the listing alike.
  const stats = statsOfCurrent(info, n, seed);
  if (values.json) {
    const out: StatsJson = {
      service: scene.service ?? '',
      client: info.client,
      externalTrafficPolicy: scene.externalTrafficPolicy,
      seed,
      connections: n,
      paths: flatPaths(info.byEntry),
      stats,
    };
    return JSON.stringify(out, null, 2);
  }
  return [
    `# ${n} new connections from ${info.client} to ${scene.service ?? ''} (externalTrafficPolicy ${scene.externalTrafficPolicy}), seed ${seed}`,
    shareTables(stats),
  ].join('\n');
}
