/**
 * Scene links in the browser: a `scene:` query resolved by the tutorial's `resolveSceneQuery`
 * (src/tutorial), with the example scenarios it names fetched from `public/examples/` once and
 * kept (parsed) for the session.
 */
import { parseSceneQuery, resolveSceneQuery } from '../../tutorial';
import type { ResolveResult } from '../../tutorial';
import { CANONICAL_SCENARIO, scenarioFromText } from '../../tutorial';
import type { ScenarioObject } from '../../model';
import { fetchExample } from '../import/examples';

const scenarios = new Map<string, Promise<readonly ScenarioObject[]>>();
const loaded = new Map<string, readonly ScenarioObject[]>();

/**
 * The objects of example `name` (`public/examples/<name>.yaml`), fetched and parsed once.
 * @throws {Error} when the file cannot be fetched or read.
 */
export function loadExample(name: string): Promise<readonly ScenarioObject[]> {
  let p = scenarios.get(name);
  if (!p) {
    p = fetchExample(`${name}.yaml`).then((text) => {
      const objects = scenarioFromText(text);
      loaded.set(name, objects);
      return objects;
    });
    // A failed fetch may be tried again later.
    p.catch(() => scenarios.delete(name));
    scenarios.set(name, p);
  }
  return p;
}

/**
 * Resolves a scene query (`policy=Local&step=last`, with or without `scene:`): fetches the
 * scenario it names first, then resolves it. Never rejects: a problem (a bad key, an example
 * that cannot be fetched) is an `ok: false` result with its message.
 */
export async function resolveScene(query: string): Promise<ResolveResult> {
  const { link } = parseSceneQuery(query);
  if (link.scenario !== undefined && link.scenario !== CANONICAL_SCENARIO) {
    try {
      await loadExample(link.scenario);
    } catch (e) {
      return {
        ok: false,
        errors: [
          {
            key: 'scenario',
            value: link.scenario,
            message: `scenario=${link.scenario}: ${e instanceof Error ? e.message : String(e)}`,
          },
        ],
      };
    }
  }
  return resolveSceneQuery(query, {
    loadScenario: (name) => {
      const objects = loaded.get(name);
      if (!objects) throw new Error(`the example "${name}" is not loaded`);
      return objects;
    },
  });
}

/** The problems of a failed resolution as one sentence. */
export function resolveErrors(result: ResolveResult): string {
  return result.ok ? '' : result.errors.map((e) => e.message).join('; ');
}
