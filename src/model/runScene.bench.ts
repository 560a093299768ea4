/**
 * `npm run bench`: `runScene` (one trace; the rules of the nodes on its path) on generated
 * clusters of 10, 100 and 1,000 nodes with 1,000 / 1,000 / 10,000 ready endpoints, the scene an
 * import starts with (externalTrafficPolicy Cluster, the internet client dialling the balancer).
 * Issue 11's targets: ≤ 50 ms at 100 nodes, ≤ 500 ms at 1,000 nodes.
 *
 * The bench iterations are warm: rules that do not depend on the node (KUBE-SEP- chains, the
 * KUBE-SVC- cascade) and chain-name hashes are reused from the first run. The first, cold run
 * of each size is timed once and printed before the bench table.
 */
import { bench, describe } from 'vitest';
import { DEFAULT_SCENE, runScene } from './index';
import type { ScenarioObject, SceneOptions } from './index';
import { generatedCluster } from './scenario/generated';
import { fillGaps } from './import/fill';

const SIZES = [
  { nodes: 10, pods: 1000 },
  { nodes: 100, pods: 1000 },
  { nodes: 1000, pods: 10000 },
];

const inputs: { label: string; objects: ScenarioObject[]; scene: SceneOptions }[] = SIZES.map(
  ({ nodes, pods }) => ({
    label: `${nodes.toLocaleString('en-US')} nodes / ${pods.toLocaleString('en-US')} endpoints`,
    objects: fillGaps(generatedCluster({ nodes, pods })).objects,
    scene: DEFAULT_SCENE,
  }),
);

for (const { label, objects, scene } of inputs) {
  const start = performance.now();
  runScene(objects, scene);
  console.log(`runScene, first (cold) run, ${label}: ${(performance.now() - start).toFixed(1)} ms`);
}

describe('runScene (one trace, rules of the nodes on the path)', () => {
  for (const { label, objects, scene } of inputs)
    bench(label, () => {
      runScene(objects, scene);
    });
});
