/** Objects as multi-document YAML (the `yaml` package: reached only through `import()`). */
import { stringify } from 'yaml';
import type { ScenarioObject } from '../../model';

/** One document per object, long strings never folded. */
export function toYaml(objects: readonly ScenarioObject[]): string {
  return objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
}
