/**
 * Node-only helpers (node:fs): read the content folder and the example scenarios from disk,
 * for the tests and `scripts/tutorial-check.ts`. Not exported from index.ts, so the browser
 * bundle never sees node:fs; the browser fetches the same files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioObject } from '../model';
import type { ContentFiles } from './check';
import type { ScenarioLoader } from './scenario';
import { scenarioFromText, scenarioNames } from './scenario';

/**
 * The tutorial's files under `root` (the repository): every `content/chapters/*.md`,
 * `content/glossary.yaml` and `content/topics.yaml` when they exist. Paths are relative to
 * `root`, with `/`, e.g. `content/chapters/07-traffic-policy.md`.
 */
export function readContent(root: string): ContentFiles {
  const dir = join(root, 'content', 'chapters');
  const chapters: Record<string, string> = {};
  if (existsSync(dir))
    for (const f of readdirSync(dir).sort())
      if (f.endsWith('.md')) chapters[`content/chapters/${f}`] = readFileSync(join(dir, f), 'utf8');
  const optional = (name: string) => {
    const p = join(root, 'content', name);
    return existsSync(p) ? { file: `content/${name}`, text: readFileSync(p, 'utf8') } : undefined;
  };
  const glossary = optional('glossary.yaml');
  const topics = optional('topics.yaml');
  return { chapters, ...(glossary ? { glossary } : {}), ...(topics ? { topics } : {}) };
}

/**
 * A loader for `scenario=<name>`: `public/examples/<name>.yaml` under `root`, when
 * `public/examples/index.json` lists it, read with the project's loader. Results are cached.
 * @throws {Error} naming the known examples when `name` is not one of them.
 */
export function diskScenarioLoader(root: string): ScenarioLoader {
  const dir = join(root, 'public', 'examples');
  const names = scenarioNames(readFileSync(join(dir, 'index.json'), 'utf8'));
  const cache = new Map<string, ScenarioObject[]>();
  return (name) => {
    if (!names.includes(name))
      throw new Error(
        `no example "${name}" in public/examples/index.json (examples: ${names.join(', ')})`,
      );
    let objects = cache.get(name);
    if (!objects) {
      objects = scenarioFromText(readFileSync(join(dir, `${name}.yaml`), 'utf8'));
      cache.set(name, objects);
    }
    return structuredClone(objects);
  };
}
