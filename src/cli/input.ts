/**
 * What every command shares: reading Kubernetes objects from files, and the two kinds of
 * error the CLI reports (a usage mistake, followed by the usage; a bad input file).
 */
import { readFileSync } from 'node:fs';
import { loadObjects } from '../model/import/load';
import { fillGaps } from '../model/import/fill';
import type { ScenarioObject } from '../model/k8s/objects';

/** A mistake in the command line: the message is followed by the usage. */
export class UsageError extends Error {}
/** A problem with an input file: the message alone says it. */
export class InputError extends Error {}

/**
 * Reads and completes the objects of `files` (`-` is standard input).
 * @throws {UsageError} without files; {@link InputError} when a file cannot be read or parsed.
 */
export function readObjects(files: string[]): { objects: ScenarioObject[]; notes: string[] } {
  if (files.length === 0) throw new UsageError('no FILE given');
  const objects: ScenarioObject[] = [];
  const notes: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f === '-' ? 0 : f, 'utf8');
    } catch (e) {
      throw new InputError(`cannot read ${f}: ${(e as Error).message}`);
    }
    try {
      const loaded = loadObjects(text);
      objects.push(...loaded.objects);
      for (const s of loaded.skipped) notes.push(`${f}: skipped ${s}`);
    } catch (e) {
      throw new InputError(`${f}: ${(e as Error).message}`);
    }
  }
  const done = fillGaps(objects);
  return { objects: done.objects, notes: [...notes, ...done.assumed.map((a) => `assumed: ${a}`)] };
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
