/**
 * `npm run bench:vitest`: the stage's `layout()` (pure geometry, no DOM) on generated clusters of
 * 100 and 1,000 nodes with 1,000 Pods, folded and with the summary group expanded, at a 1280 ×
 * 460 px stage. Target: well under a frame's budget (16 ms at 60 Hz) at 1,000 nodes, since it
 * runs on every resize and every toggle. A benchmark, not a unit test: a timed assertion fails on
 * a busy machine without anything being wrong.
 */
import { bench, describe } from 'vitest';
import { DEFAULT_SCENE, runScene } from '../../model';
import { generatedCluster } from '../../model/scenario/generated';
import { layout } from './layout';
import { pathOf } from './route';

const inputs = [100, 1000].map((nodes) => {
  const r = runScene(generatedCluster({ nodes, pods: 1000 }), DEFAULT_SCENE);
  return { nodes, cluster: r.cluster, path: pathOf(r.trace, r.cluster, DEFAULT_SCENE.client) };
});

describe('layout() at 1280 × 460 px, 1,000 Pods', () => {
  for (const { nodes, cluster, path } of inputs)
    for (const expanded of [false, true])
      bench(`${nodes.toLocaleString('en-US')} nodes, ${expanded ? 'expanded' : 'folded'}`, () => {
        layout({
          cluster,
          width: 1280,
          height: 460,
          pathNodes: path.nodes,
          pathPods: path.pods,
          expanded,
        });
      });
});
