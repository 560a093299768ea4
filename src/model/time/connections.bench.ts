/**
 * `npm run bench`: connections simulated per second (issue 6). Each iteration handles
 * 100,000 connections, so connections/s = hz × 100,000; the first bench line prints that
 * figure directly from {@link benchmarkSampling} (the same function the browser calls).
 * The last one is issue 11's figure: a whole timeline on a generated 100-node cluster with
 * 1,000 Pods (target ≤ 1 s).
 */
import { bench, describe } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import { createRng } from '../random';
import { generatedCluster } from '../scenario/generated';
import { fillGaps } from '../import/fill';
import { benchmarkSampling, cumulative, currentPaths, sampleCounts, simulate } from './index';
import { sceneFromObjects } from './scenario';

const N = 100_000;
const { paths } = currentPaths({ objects: canonicalObjects(), scene: DEFAULT_SCENE });
const cum = cumulative(paths.map((p) => p.probability));
const rng = createRng(1);

const once = benchmarkSampling(N, () => performance.now());
console.log(
  `benchmarkSampling: ${once.connections} connections in ${once.elapsedMs.toFixed(2)} ms = ${Math.round(once.connectionsPerSecond).toLocaleString('en-US')} connections/s`,
);

describe(`${N.toLocaleString('en-US')} connections per iteration (connections/s = hz × ${N})`, () => {
  bench('sample paths (canonical, Cluster: 6 paths)', () => {
    sampleCounts(cum, N, rng);
  });

  bench(
    'full timeline: 2 min, node-1 fails and returns, records and fates for every connection',
    () => {
      simulate({
        objects: canonicalObjects(),
        scene: DEFAULT_SCENE,
        events: [
          { at: 12_000, kind: 'fail-node', node: 'node-1' },
          { at: 90_000, kind: 'restore-node', node: 'node-1' },
        ],
        workload: { count: N, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
        horizonMs: 120_000,
      });
    },
  );
});

const big = fillGaps(generatedCluster({ nodes: 100, pods: 1000 })).objects;
const bigScene = { ...sceneFromObjects(big, 1), dial: { kind: 'LoadBalancer' as const } };

describe('issue 11: simulate on 100 nodes / 1,000 Pods (target ≤ 1 s an iteration)', () => {
  bench(
    `${N.toLocaleString('en-US')} connections, 2 min, node-1 fails and returns`,
    () => {
      simulate({
        objects: big,
        scene: bigScene,
        events: [
          { at: 12_000, kind: 'fail-node', node: 'node-1' },
          { at: 90_000, kind: 'restore-node', node: 'node-1' },
        ],
        workload: { count: N, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
        horizonMs: 120_000,
      });
    },
    { iterations: 3, warmupIterations: 0, time: 0 },
  );
});
