/**
 * The derived model result: `runScene(objects, scene)`, memoised on the two references, so
 * every selector reading the trace shares one computation and nothing is stored twice.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { Trace } from '../model/trace/types';
import { runScene } from '../model';
import type { SceneResult } from '../model';

/** The model's answer, or the error it threw (bad input must not blank the page). */
export type Derived = { ok: true; result: SceneResult } | { ok: false; error: string };

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
      hit = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    byScene.set(scene, hit);
  }
  return hit;
}

/** The trace shown when the model failed: no steps, an outcome that carries the error. */
export function errorTrace(error: string): Trace {
  return {
    steps: [],
    conntrack: [],
    outcome: { kind: 'no-address', reason: error, summary: `The model could not run: ${error}` },
  };
}
