/**
 * The scenarios a scene link can name (`scenario=<name>`): the example files in
 * `public/examples/` (listed in `index.json`), read with the project's own loader, and the
 * scene that shows a scenario as it is.
 */
import { canonicalObjects, DEFAULT_SCENE } from '../model';
import type { ScenarioObject, SceneOptions } from '../model';
import { loadObjects } from '../model/import/load';
import { fillGaps } from '../model/import/fill';
import { sceneForObjects } from '../store/sceneForObjects';

/** Objects of the example scenario `name` (a file name from `index.json` without `.yaml`). */
export type ScenarioLoader = (name: string) => readonly ScenarioObject[];

/** The name of the scenario a link gets when it names none. */
export const CANONICAL_SCENARIO = 'canonical';

/**
 * Scenario objects from an example file's text, as the app reads a picked example: the
 * project's loader (`loadObjects`), then `fillGaps` (EndpointSlices from Pods, Nodes, the
 * client and the balancer).
 * @throws {LoadError} when the text is not YAML/JSON or holds no object.
 */
export function scenarioFromText(text: string): ScenarioObject[] {
  return fillGaps(loadObjects(text).objects).objects;
}

/** Scenario names from `public/examples/index.json`'s text (`[{ file: "x.yaml", … }]`). */
export function scenarioNames(indexJson: string): string[] {
  const list: unknown = JSON.parse(indexJson);
  if (!Array.isArray(list)) return [];
  return list
    .map((e: unknown) => (e as { file?: unknown }).file)
    .filter((f): f is string => typeof f === 'string' && f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length));
}

/**
 * The objects of scenario `name`: `canonicalObjects()` for `canonical` (the loader is not
 * called), otherwise what `loader` returns.
 * @throws {Error} when no loader is given for another name, or whatever the loader throws.
 */
export function loadNamedScenario(
  name: string,
  loader: ScenarioLoader | undefined,
): readonly ScenarioObject[] {
  if (name === CANONICAL_SCENARIO) return canonicalObjects();
  if (!loader) throw new Error('no scenario loader was given');
  return loader(name);
}

/**
 * The scene that shows `objects` as they are (what the app uses when an example is picked):
 * the traced Service's (first LoadBalancer Service, else first Service) externalTrafficPolicy,
 * ipMode, whether an address is published, the balancer's delivery; the `internet` client (else
 * the first Internet client, else the first client) dialling the load balancer; no failed
 * nodes, nothing pinned, seed 1. For the canonical scenario this is DEFAULT_SCENE.
 * @throws {ScenarioError} when the objects cannot be resolved.
 */
export function sceneForScenario(objects: readonly ScenarioObject[]): SceneOptions {
  // The app's own reading of imported objects, with the default scene's seed.
  return sceneForObjects(objects, DEFAULT_SCENE.seed);
}
