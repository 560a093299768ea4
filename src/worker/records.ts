/**
 * Many flat records of one shape (a timeline's 100,000 connection records) packed by column,
 * for postMessage: a structured clone copies every string of every record (a connection's
 * one-sentence `fateReason` alone is ~300 characters: 30 MB for 100,000, and its decoding on the
 * main thread ran the young-generation GC for 30-40 ms per part). Packed, each column is one
 * typed array or one string, and repeated strings travel once.
 *
 * Lossless for records that {@link packRecords} accepts (it returns null for any other, and the
 * caller sends them as they are): the same keys in the same order on every record, and each
 * column all numbers (none NaN) or null, all booleans, or all strings or null.
 */

/** One packed column. */
export type PackedColumn =
  /** Numbers; `null` as NaN (no value is NaN). */
  | { kind: 'number'; values: Float64Array }
  | { kind: 'bool'; values: Uint8Array }
  /** Strings or null, by index into `table` (its distinct values). */
  | { kind: 'dict'; table: (string | null)[]; index: Uint32Array }
  /** Distinct strings (ids), none with a newline, joined by `\n`. */
  | { kind: 'lines'; text: string };

/** Records packed by column (`keys[i]`'s values are `columns[i]`). */
export interface PackedRecords {
  length: number;
  keys: string[];
  columns: PackedColumn[];
}

type Value = unknown;

function packColumn(values: Value[]): PackedColumn | null {
  const n = values.length;
  if (values.every((v) => v === null || (typeof v === 'number' && !Number.isNaN(v)))) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = values[i] === null ? NaN : (values[i] as number);
    return { kind: 'number', values: out };
  }
  if (values.every((v) => typeof v === 'boolean')) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = values[i] ? 1 : 0;
    return { kind: 'bool', values: out };
  }
  if (!values.every((v) => v === null || typeof v === 'string')) return null;
  const strings = values as (string | null)[];
  const table: (string | null)[] = [];
  const at = new Map<string | null, number>();
  const index = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = strings[i]!;
    let k = at.get(v);
    if (k === undefined) {
      k = table.length;
      table.push(v);
      at.set(v, k);
    }
    index[i] = k;
  }
  // A column of ids (every value distinct): one string beats a table as long as the column.
  if (table.length === n && strings.every((v) => v !== null && !v.includes('\n')))
    return { kind: 'lines', text: strings.join('\n') };
  return { kind: 'dict', table, index };
}

/** `records` packed by column, or null when they are not all flat records of one shape. */
export function packRecords(records: readonly object[]): PackedRecords | null {
  const first = records[0];
  if (!first) return null;
  const keys = Object.keys(first);
  const shape = keys.join('\n');
  for (const r of records)
    if (Object.getPrototypeOf(r) !== Object.prototype || Object.keys(r).join('\n') !== shape)
      return null;
  const columns: PackedColumn[] = [];
  for (const key of keys) {
    const col = packColumn(records.map((r) => (r as Record<string, Value>)[key]));
    if (!col) return null;
    columns.push(col);
  }
  return { length: records.length, keys, columns };
}

/** What {@link unpackRecords} needs of a column (a `lines` column split once). */
type Reader = (i: number) => Value;

function readerOf(col: PackedColumn): Reader {
  switch (col.kind) {
    case 'number':
      return (i) => {
        const v = col.values[i]!;
        return Number.isNaN(v) ? null : v;
      };
    case 'bool':
      return (i) => col.values[i] === 1;
    case 'dict':
      return (i) => col.table[col.index[i]!];
    case 'lines': {
      const lines = col.text.split('\n');
      return (i) => lines[i];
    }
  }
}

/**
 * Unpacks `p` a slice at a time: `next(count)` appends the next `count` records (fewer at
 * the end) to `out` and returns whether any are left. The records equal the packed ones, keys
 * in their order; repeated strings are one string.
 */
export function recordUnpacker(
  p: PackedRecords,
  out: Record<string, Value>[],
): (count: number) => boolean {
  const readers = p.columns.map(readerOf);
  const { keys } = p;
  let i = 0;
  return (count) => {
    const end = Math.min(p.length, i + count);
    for (; i < end; i++) {
      const r: Record<string, Value> = {};
      for (let k = 0; k < keys.length; k++) r[keys[k]!] = readers[k]!(i);
      out.push(r);
    }
    return i < p.length;
  };
}
