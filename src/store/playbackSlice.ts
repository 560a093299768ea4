import type { StateCreator } from 'zustand';
import { expectStep, isCurrent, stepFixOf } from './modelSync';
import { selectTrace } from './selectors';
import type { PlaybackSlice, Store } from './types';

export const createPlaybackSlice: StateCreator<Store, [], [], PlaybackSlice> = (set, get, api) => ({
  playback: { stepIndex: -1, playing: false, speed: 1 },
  setStepIndex: (index) => {
    // Moving while a newer trace is computed: keep the chosen step, clamped to the new trace.
    if (!isCurrent(get()) && stepFixOf(api) !== null) expectStep(api, 'clamp');
    const steps = selectTrace(get()).steps;
    const i = Math.max(-1, Math.min(Math.trunc(index), steps.length - 1));
    const rule = steps[i]?.rule;
    set((s) => ({
      playback: { ...s.playback, stepIndex: i },
      ...(rule?.kind === 'kube-proxy' && rule.node !== s.ui.selectedNode
        ? { ui: { ...s.ui, selectedNode: rule.node } }
        : {}),
    }));
  },
  setPlaying: (playing) => set((s) => ({ playback: { ...s.playback, playing } })),
  setSpeed: (speed) => set((s) => ({ playback: { ...s.playback, speed } })),
});
