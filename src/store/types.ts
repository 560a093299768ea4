/**
 * The store's shape: four slices (scenario, playback, ui, timeline) combined into one {@link Store}.
 * The trace is not here: it is derived from `objects` and `scene` (see `derive.ts`).
 */
import type { StoreApi } from 'zustand';
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { ControllerKind, HealthCheckSettings, TimelineEvent } from '../model/time/types';
import type { Derived } from './derived';

/** Playback speeds, slowest first. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;
export type Speed = (typeof SPEEDS)[number];

/** The page's theme: the system's light/dark, or a choice; `contrast` is for projectors (tokens.css). */
export type Theme = 'system' | 'light' | 'dark' | 'contrast';

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
   * everything that reads `ui`. Saved in the browser on its own, one draft per tab (`draft/`).
   */
  editorText: string | null;
  selectNode: (name: string) => void;
  setWalkthroughStep: (index: number | null) => void;
  setTheme: (theme: Theme) => void;
  setEditorText: (text: string | null) => void;
}

/** Which view fills the page under the header: the single-packet trace or "Time & failures". */
export type MainView = 'trace' | 'time';

/** Simulated seconds per real second in the time view (see `TIME_SPEEDS`). */
export type TimeSpeed = 1 | 5 | 20 | 60;

/** The many-connections workload as the person set it (the model fills the rest). */
export interface TimeWorkload {
  /** New connections, 1 … 100,000. */
  count: number;
  /** They open evenly over this many simulated ms from the start of the workload. */
  periodMs: number;
  /** How long each stays open, simulated ms (0: a one-shot request). */
  holdMs: number;
  /** Seed of every random draw of the timeline. */
  seed: number;
  /** A `Client` object's name or an IPv4 source address; unset: the scenario's Internet client. */
  client?: string;
  /** A client whose one long-lived connection is followed across changes; unset: none. */
  longLivedClient?: string;
}

/**
 * The scenario the time view keeps simulating after "Open as trace" put the trace view on one
 * connection's snapshot: used while the trace view still shows exactly that snapshot
 * (`opened*`, by reference); any change made there afterwards lets it go.
 */
export interface TimeSource {
  objects: ScenarioObject[];
  scene: SceneOptions;
  openedObjects: ScenarioObject[];
  openedScene: SceneOptions;
}

/** The time view's state; the timeline is derived from it and the scenario, never stored. */
export interface TimeState {
  view: MainView;
  /** The virtual clock: simulated ms since the start of the run. */
  simMs: number;
  playing: boolean;
  speed: TimeSpeed;
  /** Who provisions the load balancer. */
  controller: ControllerKind;
  /** Health-check settings the person changed; the rest are the model's defaults. */
  healthCheck: Partial<HealthCheckSettings>;
  /** Failures and changes scheduled at chosen times, sorted by `at`. */
  events: TimelineEvent[];
  workload: TimeWorkload;
  source: TimeSource | null;
  /**
   * Counts the times the inputs were replaced as a whole ({@link TimelineSlice.openTime}, e.g. by
   * a tutorial time link); the view's forms start again from the store when it changes.
   */
  revision: number;
}

/** What {@link TimelineSlice.openTime} puts in the time view: its inputs and the clock. */
export type TimeOpenInputs = Pick<
  TimeState,
  'controller' | 'healthCheck' | 'events' | 'workload' | 'simMs'
>;

export interface TimelineSlice {
  time: TimeState;
  /** Shows a view; leaving the time view pauses its clock. */
  setView: (view: MainView) => void;
  /** Moves the virtual clock (rounded to whole ms, never below 0). */
  setSimMs: (ms: number) => void;
  setTimePlaying: (playing: boolean) => void;
  setTimeSpeed: (speed: TimeSpeed) => void;
  /** Changes the controller; the clock goes back to 0 (the provisioning starts again). */
  setController: (controller: ControllerKind) => void;
  setHealthCheck: (settings: Partial<HealthCheckSettings>) => void;
  /** Adds an event, keeping the list sorted by time (stable for equal times). */
  addEvent: (event: TimelineEvent) => void;
  removeEvent: (index: number) => void;
  setWorkload: (workload: TimeWorkload) => void;
  setTimeSource: (source: TimeSource | null) => void;
  /**
   * Shows the time view with exactly these inputs (events sorted by time, stable) and the clock
   * paused at `simMs`; the kept "Open as trace" source is let go, so the view simulates the
   * trace view's scenario. Bumps `revision`.
   */
  openTime: (inputs: TimeOpenInputs) => void;
}

/**
 * The model's latest answer as the store holds it. With a sync engine (Node, tests) the answer
 * is always computed for the current objects and scene when read, and `derived` is unused;
 * with an async engine (the browser's worker) `derived` answers `objects` and `scene`, which
 * lag behind the store's own while a newer answer is being computed (the last drawing stays on
 * screen meanwhile), and a reply landing here re-renders whoever reads it.
 */
export interface ModelState {
  /**
   * A sync engine's `derive` (answers the current objects and scene when read; `derived` is
   * then unused), or null with an async engine.
   */
  compute: ((objects: ScenarioObject[], scene: SceneOptions) => Derived) | null;
  /** What `derived` answers (null before the first answer). */
  objects: ScenarioObject[] | null;
  scene: SceneOptions | null;
  /**
   * The answer. From a worker, `result.rules` holds only some nodes (those asked for, and
   * the trace's path when small); a node selected later is fetched and merged in.
   */
  derived: Derived;
}

export interface ModelSlice {
  model: ModelState;
}

export type Store = ScenarioSlice & PlaybackSlice & UiSlice & TimelineSlice & ModelSlice;

/** One store instance (the app makes one; each test makes its own). */
export type AppStore = StoreApi<Store>;
