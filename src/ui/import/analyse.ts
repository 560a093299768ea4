/**
 * What the importer makes of a text: the validator's problems, the objects with their gaps
 * filled and what was assumed, and the kinds that were skipped. The text is parsed once
 * (`validateAndLoad`). Heavy (the `yaml` parser and the API-server checks), so it is only ever
 * reached through a dynamic `import()`, and in the browser it runs in a Web Worker
 * (./analyse.worker.ts, through ./analyseClient.ts); it stays pure and callable in-process.
 */
import type { ScenarioObject } from '../../model';
import { fillGaps } from '../../model/import/fill';
import { validateAndLoad } from '../../model/import/validate';
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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Validates `text` and fills its gaps; never throws. */
export function analyse(text: string): Analysis {
  const { objects: given, problems, skipped } = validateAndLoad(text);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  let filled: { objects: ScenarioObject[]; assumed: string[] } = { objects: given, assumed: [] };
  let blocked = '';
  if (errors > 0) blocked = `fix the ${plural(errors, 'error')} first`;
  else if (given.length === 0)
    blocked = text.trim()
      ? 'no Service, EndpointSlice, Node or Pod found'
      : 'paste or type some manifests first';
  else if (!given.some((o) => o.kind === 'Service')) blocked = 'there is no Service to trace';
  if (given.length > 0) {
    try {
      filled = fillGaps(given);
    } catch (e) {
      blocked ||= `the gaps could not be filled: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return {
    text,
    problems,
    errors,
    warnings,
    objects: filled.objects,
    given: given.length,
    assumed: filled.assumed,
    skipped,
    blocked,
  };
}
