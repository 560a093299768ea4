import type { StateCreator } from 'zustand';
import { canonicalObjects } from '../model/scenario/canonical';
import { DEFAULT_SCENE } from '../model/scenario/scene';
import { expectStep } from './modelSync';
import { selectTrace } from './selectors';
import type { ScenarioSlice, StepPolicy, Store } from './types';

function countOf(s: Pick<Store, 'objects' | 'scene' | 'model'>): number {
  const compute = s.model.compute;
  if (!compute) return 0;
  const d = compute(s.objects, s.scene);
  return d.ok ? d.result.trace.steps.length : 0;
}

/** Where the step goes when the trace changes from `oldCount` to `newCount` steps. */
export function nextStepIndex(
  policy: StepPolicy,
  index: number,
  oldCount: number,
  newCount: number,
): number {
  switch (policy) {
    case 'reset':
      return -1;
    case 'clamp':
      return Math.min(index, newCount - 1);
    case 'ends':
      return oldCount > 0 && index === oldCount - 1 ? newCount - 1 : -1;
  }
}

export const createScenarioSlice: StateCreator<Store, [], [], ScenarioSlice> = (set, get, api) => ({
  objects: canonicalObjects(),
  scene: DEFAULT_SCENE,
  setScene: (scene, policy = 'ends') => {
    const before = get();
    if (before.model.compute) {
      const index = nextStepIndex(
        policy,
        before.playback.stepIndex,
        countOf(before),
        countOf({ objects: before.objects, scene, model: before.model }),
      );
      set((s) => ({ scene, playback: { ...s.playback, stepIndex: index, playing: false } }));
      return;
    }
    // Async engine: the new trace is not known yet. What can be decided now is (reset, or
    // leaving the middle of the trace); the rest waits for the answer (see modelSync.ts).
    // The trace on screen is the last answer's, which is what the person is looking at.
    const index = before.playback.stepIndex;
    const count = selectTrace(before).steps.length;
    let next = index;
    let fix: 'end' | 'clamp' | null = null;
    if (policy === 'reset') next = -1;
    else if (policy === 'clamp') fix = 'clamp';
    else if (count > 0 && index === count - 1) fix = 'end';
    else next = -1;
    set((s) => ({ scene, playback: { ...s.playback, stepIndex: next, playing: false } }));
    expectStep(api, fix);
  },
  setObjects: (objects) => {
    set((s) => ({ objects, playback: { ...s.playback, stepIndex: -1, playing: false } }));
    expectStep(api, null);
  },
});
