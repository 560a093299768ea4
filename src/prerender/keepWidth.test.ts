import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/store';
import { selectResult, selectScene, selectTrace } from '../store/selectors';
import { layout } from '../ui/topology/layout';
import { pathOf } from '../ui/topology/route';
import { FALLBACK_SIZE } from '../ui/topology/useStageSize';
import { smallestKeptWidth } from './keepWidth';

/** The default view (the walkthrough's first step), in-process. */
const state = createAppStore({ story: 0 }).getState();

function shapeAt(width: number) {
  const result = selectResult(state);
  if (!result) throw new Error('no answer');
  const scene = selectScene(state);
  const path = pathOf(selectTrace(state), result.cluster, scene.client);
  const l = layout({
    cluster: result.cluster,
    width,
    height: FALLBACK_SIZE.height,
    clientName: scene.client,
    pathNodes: path.nodes,
    pathPods: path.pods,
    expanded: false,
    failed: scene.failedNodes,
  });
  return { orientation: l.orientation, drawn: l.nodes.length, folded: l.fold?.names.length ?? 0 };
}

describe('smallestKeptWidth', () => {
  it('is the narrowest stage that still draws the default view as the prerendered page does', () => {
    const w = smallestKeptWidth(state);
    // The canonical cluster has three nodes, all drawn side by side at the fallback size.
    expect(shapeAt(FALLBACK_SIZE.width)).toEqual({
      orientation: 'horizontal',
      drawn: 3,
      folded: 0,
    });
    expect(w).toBeLessThanOrEqual(FALLBACK_SIZE.width);
    expect(shapeAt(w)).toEqual(shapeAt(FALLBACK_SIZE.width));
    // 10 px narrower, the page draws it differently (a node folds, or the drawing turns vertical).
    expect(shapeAt(w - 10)).not.toEqual(shapeAt(FALLBACK_SIZE.width));
  });

  it('is Infinity while there is no answer to draw', () => {
    const waiting = { ...state, model: { ...state.model, compute: null } };
    expect(smallestKeptWidth(waiting)).toBe(Infinity);
  });
});
