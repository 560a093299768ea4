/**
 * What every command shares: reading Kubernetes objects from files through the app's own
 * importer (the same validation, the same messages), and the two kinds of error the CLI
 * reports (a usage mistake, followed by the usage; a bad input file).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { MAX_INPUT_CHARS } from '../model/import/bounds';
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

/** The most bytes read from one input: room for {@link MAX_INPUT_CHARS} characters of UTF-8. */
export const MAX_INPUT_BYTES = MAX_INPUT_CHARS * 4;

/**
 * Reads `file` (`-`: standard input) as UTF-8, stopping after {@link MAX_INPUT_BYTES} bytes
 * so a huge or endless input costs neither the time nor the memory of reading it all.
 * @throws {InputError} when it cannot be read, or holds more than the limit.
 */
export function readInput(file: string): string {
  const chunks: Buffer[] = [];
  let total = 0;
  let fd: number | undefined;
  try {
    fd = file === '-' ? 0 : openSync(file, 'r');
    const chunk = Buffer.alloc(1 << 20);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        // A non-blocking stdin with nothing yet: wait for it (EAGAIN), as readFileSync(0) does.
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((e as NodeJS.ErrnoException).code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      total += n;
      if (total > MAX_INPUT_BYTES)
        throw new InputError(
          `${file}: over ${MAX_INPUT_BYTES.toLocaleString('en-US')} bytes, so it was not read (the limit is ${MAX_INPUT_CHARS.toLocaleString('en-US')} characters): split it into several files`,
        );
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  for (const f of files) sources.push({ name: f, text: readInput(f) });
  const imported = importSources(sources);
  const refused = imported.problems.filter((p) => p.severity === 'error');
  const errors = refused.map(problemLine);
  // Syntax errors and the input bounds are kubectl's reader's refusal, not the API server's.
  const why = refused.some((p) => p.object !== '')
    ? ' (the API server would refuse it)'
    : ' (it cannot be read as Kubernetes objects)';
  if (errors.length > 0)
    throw new InputError(
      `${plural(errors.length, 'error')} in the input${why}; nothing was run`,
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
