/**
 * Time links in the browser: a `time:` query resolved by the tutorial's `resolveTimeQuery`
 * (src/tutorial), with the example scenario it names fetched once (shared with scene links,
 * `loadExample` in ./scenes.ts).
 */
import type { ScenarioObject } from '../../model';
import type { ResolveTimeResult } from '../../tutorial';
import { CANONICAL_SCENARIO, parseTimeQuery, resolveTimeQuery } from '../../tutorial';
import { loadExample } from './scenes';

/**
 * Resolves a time query (`events=fail:node-1@60s&at=90s`, with or without `time:`): fetches the
 * scenario it names first, then resolves it. Never rejects: a problem (a bad key, an example
 * that cannot be fetched, `at` past the end of the run) is an `ok: false` result.
 */
export async function resolveTime(query: string): Promise<ResolveTimeResult> {
  const { link } = parseTimeQuery(query);
  const name = link.scenario;
  let objects: readonly ScenarioObject[] | undefined;
  if (name !== undefined && name !== CANONICAL_SCENARIO) {
    try {
      objects = await loadExample(name);
    } catch (e) {
      return {
        ok: false,
        errors: [
          {
            key: 'scenario',
            value: name,
            message: `scenario=${name}: ${e instanceof Error ? e.message : String(e)}`,
          },
        ],
      };
    }
  }
  return resolveTimeQuery(query, {
    loadScenario: (n) => {
      if (n !== name || !objects) throw new Error(`the example "${n}" is not loaded`);
      return structuredClone(objects) as ScenarioObject[];
    },
  });
}

/** The problems of a failed resolution as one sentence. */
export function timeErrors(result: ResolveTimeResult): string {
  return result.ok ? '' : result.errors.map((e) => e.message).join('; ');
}
