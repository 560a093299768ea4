import type { StateCreator } from 'zustand';
import { selectTrace } from './selectors';
import type { PlaybackSlice, Store } from './types';

export const createPlaybackSlice: StateCreator<Store, [], [], PlaybackSlice> = (set, get) => ({
  playback: { stepIndex: -1, playing: false, speed: 1 },
  setStepIndex: (index) => {
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
