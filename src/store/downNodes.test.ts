/**
 * A trace opened from a timeline moment shows a node that is down before the control plane
 * noticed (`scene.downNodes`); the Scene controls' fail/restore follow it (review rev-time
 * finding 18): it reads as down, and pressing it restores the node instead of stacking a
 * second kind of failure.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE } from '../model';
import { nodeIsDown, run, toggleNodeFailure } from './commands';
import { createAppStore } from './store';

describe('fail/restore with a node down in a timeline moment', () => {
  it('reads as down and restores it', () => {
    const store = createAppStore();
    store.getState().setScene({ ...DEFAULT_SCENE, downNodes: ['node-1'] });
    const s = store.getState();
    expect(nodeIsDown(s.scene, 'node-1')).toBe(true);
    expect(toggleNodeFailure('node-1').label(s)).toBe('Restore node-1');
    run(store, toggleNodeFailure('node-1'));
    const after = store.getState().scene;
    expect([after.failedNodes, after.downNodes]).toEqual([[], []]);
    expect(toggleNodeFailure('node-1').label(store.getState())).toBe('Fail node-1');
    // Failing it again is the ordinary kind of failure.
    run(store, toggleNodeFailure('node-1'));
    expect(store.getState().scene.failedNodes).toEqual(['node-1']);
  });
});
