/**
 * What the importer makes of a text: the validator's problems, the objects with their gaps
 * filled and what was assumed, and the kinds that were skipped. The text is parsed once
 * (`importSources`, src/model/import/importer.ts). Heavy (the `yaml` parser and the API-server checks), so it is only ever
 * reached through a dynamic `import()`, and in the browser it runs in a Web Worker
 * (./analyse.worker.ts, through ./analyseClient.ts); it stays pure and callable in-process.
 */
import type { ScenarioObject } from '../../model';
import { importSources } from '../../model/import/importer';
import type { Problem } from '../../model/import/validate';

export type { Problem };

export interface Analysis {
  /** The text analysed, exactly. */
  text: string;
  /** Every problem, in input order. */
  problems: Problem[];
  errors: number;
  warnings: number;
  /** The objects the model would get: the text's, then those filled in. */
  objects: ScenarioObject[];
  /** How many objects came from the text itself. */
  given: number;
  /** Each assumption fillGaps made, in plain words. */
  assumed: string[];
  /** Objects of kinds the model does not read, e.g. `Deployment shop/web`. */
  skipped: string[];
  /** Why Apply cannot run, or '' when it can. */
  blocked: string;
}

/**
 * Validates `text` and fills its gaps (`importSources`, the importer the CLI runs too); never
 * throws.
 */
export function analyse(text: string): Analysis {
  const imported = importSources([{ name: '', text }]);
  return { ...imported, text, skipped: imported.skipped.map((s) => s.label) };
}
