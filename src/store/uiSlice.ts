import type { StateCreator } from 'zustand';
import type { Store, UiSlice } from './types';

export const createUiSlice: StateCreator<Store, [], [], UiSlice> = (set) => ({
  ui: { selectedNode: '', walkthroughStep: null, theme: 'system' },
  editorText: null,
  selectNode: (selectedNode) => set((s) => ({ ui: { ...s.ui, selectedNode } })),
  setWalkthroughStep: (walkthroughStep) => set((s) => ({ ui: { ...s.ui, walkthroughStep } })),
  setTheme: (theme) => set((s) => ({ ui: { ...s.ui, theme } })),
  setEditorText: (editorText) => set({ editorText }),
});
