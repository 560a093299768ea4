/**
 * What every command shares: reading Kubernetes objects from files through the app's own
 * importer (the same validation, the same messages), and the two kinds of error the CLI
 * reports (a usage mistake, followed by the usage; a bad input file).
 */
import { readFileSync } from 'node:fs';
import { importSources, problemLine, type Source } from '../model/import/importer';
import type { ScenarioObject } from '../model/k8s/objects';

/** A mistake in the command line: the message is followed by the usage. */
export class UsageError extends Error {}

/**
 * A problem with the input: the message alone says it. `problems` are the validator's lines
 * (`FILE:LINE:COLUMN: OBJECT: MESSAGE`), printed before the message.
 */
export class InputError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
    this.name = 'InputError';
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Reads, validates and completes the objects of `files` (`-` is standard input), as the app's
 * "Your cluster" dialog does (`importSources`): the inputs are one cluster. Warnings, skipped
 * kinds and assumptions are pushed to `notes` (the CLI prints them to stderr), each one line.
 * @throws {UsageError} without files; {@link InputError} when a file cannot be read, or the
 *   validator finds an error (`problems` lists them all), or there is nothing to trace.
 */
export function readObjects(files: string[], notes: string[]): ScenarioObject[] {
  if (files.length === 0) throw new UsageError('no FILE given');
  const sources: Source[] = [];
  for (const f of files) {
    try {
      sources.push({ name: f, text: readFileSync(f === '-' ? 0 : f, 'utf8') });
    } catch (e) {
      throw new InputError(`cannot read ${f}: ${(e as Error).message}`);
    }
  }
  const imported = importSources(sources);
  const errors = imported.problems.filter((p) => p.severity === 'error').map(problemLine);
  if (errors.length > 0)
    throw new InputError(
      `${plural(errors.length, 'error')} in the input (the API server would refuse it); nothing was run`,
      errors,
    );
  for (const p of imported.problems) if (p.severity === 'warning') notes.push(problemLine(p));
  for (const s of imported.skipped) notes.push(`${s.source}: skipped ${s.label}`);
  for (const a of imported.assumed) notes.push(`assumed: ${a}`);
  if (imported.blocked) throw new InputError(`${files.join(', ')}: ${imported.blocked}`);
  return imported.objects;
}

/** A plain decimal whole number (`1000`; not `1e3`, `0x10`, `+5`, `1.0` or ` 7`), else undefined. */
export function plainInt(v: string): number | undefined {
  return /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}

/** A `--seed` value. @throws {UsageError} when it is not a whole number ≥ 0. */
export function seedOf(v: string | undefined, fallback = 1): number {
  const seed = v === undefined ? fallback : (plainInt(v) ?? NaN);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new UsageError(
      `--seed ${v}: must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
    );
  return seed;
}

/** A `--mode` value. @throws {UsageError} when it is not a kube-proxy mode. */
export function modeOf(v: string | undefined): 'iptables' | 'nftables' | 'ipvs' | undefined {
  if (v === undefined) return undefined;
  if (v !== 'iptables' && v !== 'nftables' && v !== 'ipvs')
    throw new UsageError(`--mode ${v}: must be iptables, nftables or ipvs`);
  return v;
}

/** Pads cells into columns, two spaces apart (numbers right-aligned). */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length))) ?? [];
  return cells
    .map((r, ri) =>
      r
        .map((c, i) => {
          const w = widths[i] ?? 0;
          const numeric = ri > 0 && typeof rows[ri]?.[i] === 'number';
          return i === r.length - 1 && !numeric ? c : numeric ? c.padStart(w) : c.padEnd(w);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `0.3334` → `33.34%`. */
export function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}
