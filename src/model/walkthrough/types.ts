/**
 * Walkthroughs: named lists of story steps, as data, so new ones need no code. Each story
 * step sets a scene (toggles) and points at a trace step to show, with its own narration.
 */
import type { SceneOptions } from '../scenario/scene';
import type { Place, Transform } from '../trace/types';

/** What the view should draw attention to besides the packet. */
export type Focus =
  | 'nodeports' // the NodePort open on every node
  | 'lb-status' // the Service's status.loadBalancer (pending → published)
  | 'lb-decision' // the balancer's choice of node
  | 'endpoint-decision'; // kube-proxy's choice of endpoint

/** One step of a walkthrough. */
export interface StoryStep {
  id: string;
  title: string;
  /** 1–3 plain sentences. */
  body: string;
  /** Toggles for this step, over the walkthrough's base scene. */
  scene: Partial<SceneOptions>;
  /**
   * Which trace step to show: the first step at this place and, when given, with this
   * transform; `start` means before the first step (the scene is set, nothing has moved).
   */
  show: { at: 'start' } | { at: Place; transform?: Transform };
  focus?: Focus[];
}

/** A named walkthrough. */
export interface Walkthrough {
  id: string;
  title: string;
  steps: StoryStep[];
}

/**
 * The trace step a story step shows: -1 for `start` (before the first step), else the
 * index of the first matching step.
 * @returns -1 also when no step matches (a walkthrough test fails on that).
 */
export function storyStepIndex(
  trace: { steps: readonly { at: Place; transform: Transform }[] },
  step: StoryStep,
): number {
  const show = step.show;
  if (show.at === 'start') return -1;
  return trace.steps.findIndex(
    (s) => s.at === show.at && (show.transform === undefined || s.transform === show.transform),
  );
}
