/**
 * The derived model result in process: `runScene(objects, scene)`, memoised on the two
 * references, so every selector reading the trace shares one computation and nothing is
 * stored twice. The store reaches it through its engine (`engineInProcess.ts`); the browser's
 * main thread does not (its engine is a Web Worker, `src/worker/`).
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import { runScene } from '../model';
import { errorMessage } from './derived';
import type { Derived } from './derived';

export type { Derived } from './derived';
export { errorTrace } from './derived';

const cache = new WeakMap<ScenarioObject[], WeakMap<SceneOptions, Derived>>();

/** `runScene(objects, scene)`, computed once per (objects, scene) pair of references. */
export function derive(objects: ScenarioObject[], scene: SceneOptions): Derived {
  let byScene = cache.get(objects);
  if (!byScene) {
    byScene = new WeakMap();
    cache.set(objects, byScene);
  }
  let hit = byScene.get(scene);
  if (!hit) {
    try {
      hit = { ok: true, result: runScene(objects, scene) };
    } catch (e) {
      hit = { ok: false, error: errorMessage(e) };
    }
    byScene.set(scene, hit);
  }
  return hit;
}
