/**
 * The one importer: text in, the objects the model runs on out, with every problem the API
 * server would report, what was skipped and what was assumed. The app's "Your cluster" dialog
 * (src/ui/import/analyse.ts) and the CLI (src/cli/input.ts) both call it, so they accept and
 * refuse the same inputs with the same messages.
 */
import type { ScenarioObject } from '../k8s/objects';
import { fillGaps } from './fill';
import { validateSources, type Problem, type Source } from './validate';
import { ipv6Blocker } from './family-checks';
import { serviceCIDRsOf } from '../k8s/serviceCIDR';

export type { Problem, Source };

/** The result of {@link importSources}. */
export interface Imported {
  /** Every problem, in input order (each with its input's `source` when there were names). */
  problems: Problem[];
  /** How many problems are errors, and how many warnings. */
  errors: number;
  warnings: number;
  /** The objects the model would get: the inputs', then those filled in. */
  objects: ScenarioObject[];
  /** How many objects came from the inputs themselves. */
  given: number;
  /** Each assumption `fillGaps` made, in plain words. */
  assumed: string[];
  /** Values of kinds the model does not read, e.g. `Deployment shop/web`, with their input. */
  skipped: { source: string; label: string }[];
  /** Why the objects cannot be run (errors, nothing to trace), or '' when they can. */
  blocked: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Validates `sources` as one cluster (see `validateSources`) and fills the gaps the model
 * needs (`fillGaps`: EndpointSlices from Pods, Nodes, a ClusterIP from the Service CIDR, the
 * client and the balancer). Never throws: a failure to fill becomes `blocked`.
 */
export function importSources(sources: readonly Source[]): Imported {
  const { objects: given, problems, skipped } = validateSources(sources);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  let filled: { objects: ScenarioObject[]; assumed: string[] } = { objects: given, assumed: [] };
  let blocked: string;
  if (errors > 0) blocked = `fix the ${plural(errors, 'error')} first`;
  else if (given.length === 0)
    blocked = sources.some((s) => s.text.trim())
      ? 'no Service, EndpointSlice, Node or Pod found'
      : 'paste or type some manifests first';
  else if (!given.some((o) => o.kind === 'Service')) blocked = 'there is no Service to trace';
  else blocked = ipv6Blocker(given);
  if (given.length > 0) {
    try {
      filled = fillGaps(given);
    } catch (e) {
      blocked ||= `the gaps could not be filled: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  // The Service CIDR the model goes by (nftables' cluster-ips-check, ClusterIP allocation),
  // listed when it is assumed: said once, even when no ClusterIP had to be allocated from it.
  const cidr = given.length > 0 ? serviceCIDRsOf(filled.objects).assumed : undefined;
  const assumed =
    cidr && !filled.assumed.some((a) => a.includes(cidr))
      ? [...filled.assumed, cidr]
      : filled.assumed;
  return {
    problems,
    errors,
    warnings,
    objects: filled.objects,
    given: given.length,
    assumed,
    skipped,
    blocked,
  };
}

/**
 * A problem as one line, the way compilers print them so editors can jump to it:
 * `FILE:LINE:COLUMN: [warning: ]OBJECT: MESSAGE` (the parts that are unknown are left out;
 * errors carry no prefix, as kubectl prints the API server's errors).
 */
export function problemLine(p: Problem): string {
  const at = [p.source, p.line, p.line !== undefined ? p.column : undefined]
    .filter((x) => x !== undefined && x !== '')
    .join(':');
  // A syntax error's message starts with its place (`line 3, column 7: …`), said once here.
  const place = `line ${p.line ?? ''}, column ${p.column ?? ''}: `;
  const message = at && p.message.startsWith(place) ? p.message.slice(place.length) : p.message;
  return [
    at ? `${at}: ` : '',
    p.severity === 'warning' ? 'warning: ' : '',
    p.object ? `${p.object}: ` : '',
    message,
  ].join('');
}
