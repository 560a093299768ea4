/**
 * The narrowest stage at which the prerendered drawing is still the drawing the page will
 * show: the same orientation, the same nodes drawn, the same fold. The prerendered HTML is laid
 * out for the stage's fallback size (900×480 px, `useStageSize`); on a narrower stage the page
 * lays the scene out differently (a phone gets the vertical drawing), so showing the
 * prerendered one there would show the wrong picture until the app had loaded. The build's
 * inline script (scripts/prerender.ts) measures the stage and empties the page below this.
 */
import { pathOf } from '../ui/topology/route';
import { layout } from '../ui/topology/layout';
import type { TopologyLayout } from '../ui/topology/layout';
import { FALLBACK_SIZE } from '../ui/topology/useStageSize';
import { selectResult, selectScene, selectTrace } from '../store/selectors';
import type { Store } from '../store/types';

/** The step the width is searched in, px. */
const STEP_PX = 10;

function shape(l: TopologyLayout): string {
  return JSON.stringify([l.orientation, l.nodes.map((n) => n.name), l.fold?.names ?? []]);
}

/**
 * The smallest stage width (px, a multiple of {@link STEP_PX}, at most the fallback width) whose
 * layout of `state`'s scene has the fallback layout's shape. Infinity when there is no scene to
 * draw (nothing prerendered is worth keeping).
 */
export function smallestKeptWidth(state: Store): number {
  const result = selectResult(state);
  if (!result) return Infinity;
  const scene = selectScene(state);
  const path = pathOf(selectTrace(state), result.cluster, scene.client);
  const at = (width: number) =>
    layout({
      cluster: result.cluster,
      width,
      height: FALLBACK_SIZE.height,
      clientName: scene.client,
      pathNodes: path.nodes,
      pathPods: path.pods,
      expanded: false,
      failed: scene.failedNodes,
    });
  const want = shape(at(FALLBACK_SIZE.width));
  let kept = FALLBACK_SIZE.width;
  for (let w = FALLBACK_SIZE.width - STEP_PX; w > 0; w -= STEP_PX) {
    if (shape(at(w)) !== want) break;
    kept = w;
  }
  return kept;
}
