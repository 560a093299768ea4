/**
 * `npm run bench`: connections simulated per second (issue 6). Each iteration handles
 * 100,000 connections, so connections/s = hz × 100,000; the first bench line prints that
 * figure directly from {@link benchmarkSampling} (the same function the browser calls).
 */
import { bench, describe } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import { createRng } from '../random';
import { benchmarkSampling, cumulative, currentPaths, sampleCounts, simulate } from './index';

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
