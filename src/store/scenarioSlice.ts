import type { StateCreator } from 'zustand';
import { canonicalObjects, DEFAULT_SCENE } from '../model';
import { derive } from './derive';
import type { ScenarioSlice, StepPolicy, Store } from './types';

function countOf(s: Pick<Store, 'objects' | 'scene'>): number {
  const d = derive(s.objects, s.scene);
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

export const createScenarioSlice: StateCreator<Store, [], [], ScenarioSlice> = (set, get) => ({
  objects: canonicalObjects(),
  scene: DEFAULT_SCENE,
  setScene: (scene, policy = 'ends') => {
    const before = get();
    const index = nextStepIndex(
      policy,
      before.playback.stepIndex,
      countOf(before),
      countOf({ objects: before.objects, scene }),
    );
    set((s) => ({ scene, playback: { ...s.playback, stepIndex: index, playing: false } }));
  },
  setObjects: (objects) =>
    set((s) => ({ objects, playback: { ...s.playback, stepIndex: -1, playing: false } })),
});
