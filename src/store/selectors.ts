/**
 * Selectors, declared once at module level so components pass stable functions to the hook.
 * Everything about the trace is derived here from `objects` and `scene`.
 */
import type { Cluster } from '../model/scenario/cluster';
import type { Trace, TraceStep } from '../model/trace/types';
import type { ModeRuleset } from '../model/kube-proxy/types';
import { errorTrace, isWaiting, WAITING_TRACE } from './derived';
import type { Derived, ViewResult } from './derived';
import { isCurrent } from './modelSync';
import type { Playback, Store } from './types';
import { DEFAULT_SCENE } from '../model/scenario/scene';
import type { ScenarioObject, SceneOptions } from '../model';
import type { Focus } from '../model/walkthrough/types';
import { bindToObjects, unboundWalkthrough } from '../model/walkthrough/bind';
import type { ApplicableStep, BoundStep, BoundWalkthrough } from '../model/walkthrough/bind';
import { NODEPORT_TO_LOADBALANCER_STORY as DEFAULT_STORY } from '../model/walkthrough/nodePortToLoadBalancer';

const errorTraces = new Map<string, Trace>();

/**
 * The model's answer on screen: with a sync engine, for the current objects and scene
 * (computed on first read, memoised); with a worker, the latest answer that landed, which may
 * still be for an earlier scene while a newer one is computed ({@link selectModelPending}).
 */
export const selectDerived = (s: Store): Derived =>
  s.model.compute ? s.model.compute(s.objects, s.scene) : s.model.derived;

/**
 * True while the answer for the current objects and scene is being computed (only with an
 * async engine; the last answer stays on screen meanwhile).
 */
export const selectModelPending = (s: Store): boolean => !isCurrent(s);

/** The model's result, or undefined when it threw (or before a worker's first answer). */
export const selectResult = (s: Store): ViewResult | undefined => {
  const d = selectDerived(s);
  return d.ok ? d.result : undefined;
};

/** The model's error message, or undefined (also before the first answer). */
export const selectModelError = (s: Store): string | undefined => {
  const d = selectDerived(s);
  return d.ok || isWaiting(d) ? undefined : d.error;
};

export const selectTrace = (s: Store): Trace => {
  const d = selectDerived(s);
  if (d.ok) return d.result.trace;
  if (isWaiting(d)) return WAITING_TRACE;
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
 * the balancer's status or decision, kube-proxy's decision); empty off the walkthrough and on
 * a step that does not apply to the cluster on screen. Reads the bound step ({@link selectStory}).
 */
export const selectStoryFocus = (s: Store): readonly Focus[] => {
  const step = selectStoryStep(s);
  return (step?.applies && step.focus) || NO_FOCUS;
};

const storyCache = new WeakMap<readonly ScenarioObject[], BoundWalkthrough>();

/**
 * The walkthrough bound to the objects on screen (`bindToObjects`, src/model/walkthrough/bind.ts):
 * each step with this cluster's own nodes and addresses, or `applies: false` and why. Memoised
 * on the objects' reference (the story's scene is fixed, so the toggles do not matter); when
 * the model cannot resolve the objects, every step says so.
 */
export const selectStory = (s: Store): BoundWalkthrough => {
  let w = storyCache.get(s.objects);
  if (!w) {
    try {
      w = bindToObjects(DEFAULT_STORY, s.objects);
    } catch (e) {
      w = unboundWalkthrough(
        DEFAULT_STORY,
        `The model cannot run these objects: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    storyCache.set(s.objects, w);
  }
  return w;
};

/** The bound walkthrough step on screen, or undefined off the walkthrough. */
export const selectStoryStep = (s: Store): BoundStep | undefined => {
  const i = s.ui.walkthroughStep;
  return i === null ? undefined : selectStory(s).steps[i];
};

/** The scene a bound story step opens: DEFAULT_SCENE, the learner's kube-proxy mode, the step's toggles. */
export function storyStepScene(s: Store, step: ApplicableStep): SceneOptions {
  const proxyMode = s.scene.proxyMode;
  return { ...DEFAULT_SCENE, ...(proxyMode ? { proxyMode } : {}), ...step.scene };
}

/** A scene with the fields "what next" changes (policy, failed nodes) set aside, as sorted JSON. */
function withoutWhatNext(scene: SceneOptions): string {
  const { externalTrafficPolicy: _p, failedNodes: _f, downNodes: _d, ...rest } = scene;
  const sorted = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sorted)
      : x !== null && typeof x === 'object'
        ? Object.fromEntries(
            Object.entries(x as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : x;
  return JSON.stringify(sorted(rest));
}

/**
 * Whether the walkthrough's "What next" card is on screen: on the last step that applies, or
 * on a connection a "What next" action made from it (the last step's or the last DNAT step's
 * scene with only externalTrafficPolicy or failed nodes changed).
 */
export const selectStoryEnded = (s: Store): boolean => {
  const w = selectStory(s);
  const { lastStep, dnatStep } = w.whatNext;
  if (lastStep < 0) return false;
  const i = s.ui.walkthroughStep;
  if (i !== null) return i === lastStep;
  const here = withoutWhatNext(s.scene);
  return [lastStep, dnatStep].some((k) => {
    const step = w.steps[k];
    return step?.applies === true && withoutWhatNext(storyStepScene(s, step)) === here;
  });
};
