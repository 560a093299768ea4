/**
 * The store's shape: three slices (scenario, playback, ui) combined into one {@link Store}.
 * The trace is not here: it is derived from `objects` and `scene` (see `derive.ts`).
 */
import type { StoreApi } from 'zustand';
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';

/** Playback speeds, slowest first. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;
export type Speed = (typeof SPEEDS)[number];

export type Theme = 'system' | 'light' | 'dark';

/**
 * What happens to the current step when the scene changes and the trace is re-derived:
 * - `ends`: before the first step stays there, the last step stays at the (new) last step,
 *   anything in between goes back to before the first step (its index means something else now);
 * - `clamp`: keep the index, clamped to the new trace (pinning a choice keeps you on it);
 * - `reset`: back to before the first step.
 */
export type StepPolicy = 'ends' | 'clamp' | 'reset';

export interface ScenarioSlice {
  /** The scenario, as Kubernetes-style objects. */
  objects: ScenarioObject[];
  /** The toggles applied over the objects. */
  scene: SceneOptions;
  /** Replaces the scene; stops playback and moves the step per `policy` (default `ends`). */
  setScene: (scene: SceneOptions, policy?: StepPolicy) => void;
  /** Replaces the objects; the step goes back to before the first step. */
  setObjects: (objects: ScenarioObject[]) => void;
}

export interface Playback {
  /** Index of the current trace step; -1 is before the first step. */
  stepIndex: number;
  playing: boolean;
  speed: Speed;
}

export interface PlaybackSlice {
  playback: Playback;
  /** Moves to step `index`, clamped to [-1, last]. A kube-proxy step selects its node. */
  setStepIndex: (index: number) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: Speed) => void;
}

export interface UiState {
  /** The node whose rules the Rules panel shows. */
  selectedNode: string;
  /** The walkthrough step on screen; null once the person changed the scene themselves. */
  walkthroughStep: number | null;
  theme: Theme;
}

export interface UiSlice {
  ui: UiState;
  /**
   * The manifests editor's text, exactly as typed (never reformatted); null until the editor
   * first opens or a file or example is loaded. Kept outside `ui` so typing does not re-render
   * everything that reads `ui`. Saved in the browser on its own (`editorText.ts`).
   */
  editorText: string | null;
  selectNode: (name: string) => void;
  setWalkthroughStep: (index: number | null) => void;
  setTheme: (theme: Theme) => void;
  setEditorText: (text: string | null) => void;
}

export type Store = ScenarioSlice & PlaybackSlice & UiSlice;

/** One store instance (the app makes one; each test makes its own). */
export type AppStore = StoreApi<Store>;
