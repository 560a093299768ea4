/**
 * Selectors, declared once at module level so components pass stable functions to the hook.
 * Everything about the trace is derived here from `objects` and `scene`.
 */
import type { Cluster } from '../model/scenario/cluster';
import type { Trace, TraceStep } from '../model/trace/types';
import type { ModeRuleset } from '../model/kube-proxy/types';
import { derive, errorTrace } from './derive';
import type { SceneResult } from '../model';
import type { Playback, Store } from './types';
import { DEFAULT_WALKTHROUGH } from '../model';
import type { Focus } from '../model/walkthrough/types';

const errorTraces = new Map<string, Trace>();

export const selectDerived = (s: Store) => derive(s.objects, s.scene);

/** The model's result, or undefined when it threw. */
export const selectResult = (s: Store): SceneResult | undefined => {
  const d = selectDerived(s);
  return d.ok ? d.result : undefined;
};

/** The model's error message, or undefined. */
export const selectModelError = (s: Store): string | undefined => {
  const d = selectDerived(s);
  return d.ok ? undefined : d.error;
};

export const selectTrace = (s: Store): Trace => {
  const d = selectDerived(s);
  if (d.ok) return d.result.trace;
  let t = errorTraces.get(d.error);
  if (!t) {
    t = errorTrace(d.error);
    errorTraces.set(d.error, t);
  }
  return t;
};

export const selectCluster = (s: Store): Cluster | undefined => selectResult(s)?.cluster;

export const selectRules = (s: Store): Record<string, ModeRuleset> | undefined =>
  selectResult(s)?.rules;

export const selectStepCount = (s: Store): number => selectTrace(s).steps.length;

export const selectStepIndex = (s: Store): number => s.playback.stepIndex;

/** The current step, or undefined before the first step. */
export const selectStep = (s: Store): TraceStep | undefined =>
  selectTrace(s).steps[s.playback.stepIndex];

/** True on the last step of a non-empty trace, or when the trace has no steps at all. */
export const selectAtEnd = (s: Store): boolean => {
  const n = selectStepCount(s);
  return n === 0 || s.playback.stepIndex === n - 1;
};

export const selectPlayback = (s: Store): Playback => s.playback;
export const selectScene = (s: Store) => s.scene;
export const selectUi = (s: Store) => s.ui;
export const selectSelectedNode = (s: Store) => s.ui.selectedNode;
export const selectWalkthroughStep = (s: Store) => s.ui.walkthroughStep;

const NO_FOCUS: readonly Focus[] = [];

/**
 * What the current walkthrough step draws attention to besides the packet (NodePort badges,
 * the balancer's status or decision, kube-proxy's decision); empty off the walkthrough.
 */
export const selectStoryFocus = (s: Store): readonly Focus[] => {
  const i = s.ui.walkthroughStep;
  return (i !== null && DEFAULT_WALKTHROUGH.steps[i]?.focus) || NO_FOCUS;
};
