/**
 * The import pipeline's single entry, as `npm run bench` measures it ("loading + validating +
 * filling", issue 11): text in, the problems and the filled objects out. Today that is the
 * import dialog's `analyse` (src/ui/import/analyse.ts: one parse by `validateAndLoad`, then
 * `fillGaps`), which the editor's Web Worker also calls (analyse.worker.ts); if the importer gains
 * another entry, point this at it so the benchmark measures what the app runs.
 */
import type { ScenarioObject } from '../src/model/index.ts';
import { analyse } from '../src/ui/import/analyse.ts';

/** Validates, loads and fills `text` as an import does; never throws. */
export function importText(text: string): { text: string; objects: ScenarioObject[] } {
  return analyse(text);
}
