/**
 * Bringing your own cluster into the store: the objects a person pasted, loaded or picked
 * replace the scenario, with a scene read from those objects (so the toggles show the
 * cluster as it is, not the canonical scenario's settings), and back to the default.
 */
import { canonicalObjects } from '../model/scenario/canonical';
import { DEFAULT_SCENE } from '../model/scenario/scene';
import type { ScenarioObject, SceneOptions } from '../model';
import { goToStory } from './commands';
import { sceneForObjects } from './sceneForObjects';
import { selectFirstNode } from './store';
import type { AppStore } from './types';

export { sceneForObjects } from './sceneForObjects';

export type ApplyResult = { ok: true } | { ok: false; error: string };

/**
 * Puts `objects` on screen with {@link sceneForObjects}, before the first step, the walkthrough
 * let go and the first node's rules shown. When the model cannot run them, nothing changes
 * and the reason comes back. With a sync engine the whole model runs first (a dry run); with
 * a worker only the objects are resolved here (what makes a cluster fail), and the trace is
 * computed in the worker (an error there shows as the model's error, like any scene's).
 * `read`, when given, is `sceneForObjects(objects, any seed)` computed already (by the import
 * checker's worker, which holds the objects: resolving 10,000 Pods here is ~50 ms more on the
 * main thread); the store's seed replaces its seed.
 */
export function applyImported(
  store: AppStore,
  objects: ScenarioObject[],
  read?: SceneOptions,
): ApplyResult {
  let scene: SceneOptions;
  try {
    const seed = store.getState().scene.seed;
    scene = read ? { ...read, seed } : sceneForObjects(objects, seed);
    const compute = store.getState().model.compute;
    const dry = compute?.(objects, scene);
    if (dry && !dry.ok) return { ok: false, error: dry.error };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const s = store.getState();
  s.setPlaying(false);
  s.setObjects(objects);
  s.setScene(scene, 'reset');
  s.setWalkthroughStep(null);
  selectFirstNode(store);
  return { ok: true };
}

/** Back to the canonical scenario on the walkthrough's first step (as the app opens). */
export function resetToDefault(store: AppStore): void {
  const s = store.getState();
  s.setPlaying(false);
  s.setObjects(canonicalObjects());
  s.setScene(DEFAULT_SCENE, 'reset');
  selectFirstNode(store);
  goToStory(0).perform(store);
}
