/**
 * The walkthrough's frames: for each story step that applies to the cluster on screen, the
 * store state that step opens — its scene traced by the model (in the page's worker, like the
 * view on screen) and the trace step it shows — with its caption. A second store over the same
 * objects does the work (`goToStory` on it, as the walkthrough's own button does), so the view
 * on screen is never touched; each state is what the frame renderer draws.
 */
import { createAppStore, selectStory, selectTrace } from '../../store';
import type { AppStore, Store } from '../../store';
import { goToStory } from '../../store/commands';
import { whenModel } from '../../store/modelSync';
import type { BoundWalkthrough } from '../../model/walkthrough/bind';
import { storyFrameSpec } from './naming';
import type { FrameSpec } from './naming';

/** One walkthrough frame: the state to draw and its caption. */
export interface StoryFrame {
  spec: FrameSpec;
  state: Store;
}

/** The walkthrough's frames and its title (e.g. "From NodePort to LoadBalancer, in five steps"). */
export interface StoryFrames {
  title: string;
  /** How many steps the walkthrough has (drawn or not). */
  total: number;
  frames: StoryFrame[];
}

/** The story steps to draw: the indexes of those that apply to the cluster, in order. */
export function storyPlan(w: BoundWalkthrough): number[] {
  return w.steps.flatMap((s, i) => (s.applies ? [i] : []));
}

/** How long one story step's answer may take before the export gives up, ms. */
export const STORY_ANSWER_MS = 60_000;

/** Resolves once `store`'s model answer is for its current objects and scene. */
function answered(store: AppStore, what: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The model gave no answer for ${what} within ${ms / 1000} s.`)),
      ms,
    );
    whenModel(store, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The frames of the walkthrough over `live`'s objects (and kube-proxy mode), one per story step
 * that applies, each the state `goToStory` leaves once the model has answered.
 * @throws {Error} when no story step applies to the cluster, or the model does not answer a
 * step within {@link STORY_ANSWER_MS}.
 */
export async function storyFrames(
  live: AppStore,
  progress: (message: string) => void,
  ms = STORY_ANSWER_MS,
): Promise<StoryFrames> {
  const { objects, scene } = live.getState();
  const store = createAppStore({ objects, scene });
  const w = selectStory(store.getState());
  const plan = storyPlan(w);
  if (plan.length === 0)
    throw new Error('No step of the walkthrough applies to this cluster: nothing to export.');
  const frames: StoryFrame[] = [];
  for (const [k, i] of plan.entries()) {
    progress(`Walkthrough: tracing story step ${i + 1} (${k + 1} of ${plan.length})…`);
    goToStory(i).perform(store);
    await answered(store, `story step ${i + 1}`, ms);
    const state = store.getState();
    const step = w.steps[i]!;
    frames.push({
      spec: storyFrameSpec(
        { title: step.title, body: step.applies ? step.body : step.reason },
        i,
        w.steps.length,
        selectTrace(state),
        state.playback.stepIndex,
      ),
      state,
    });
  }
  return { title: w.title, total: w.steps.length, frames };
}
