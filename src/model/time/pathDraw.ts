/**
 * Drawing a path from factored paths ({@link EntryPaths}) with the same answer as drawing from
 * the flat list: {@link pick} over {@link cumulative} of every path's probability, in entry
 * then slot order. Same uniform `u` → same path, bit for bit, not only up to rounding.
 *
 * How, without the flat list (10 million entries at 1,000 nodes):
 * - The flat list's cumulative sums are computed once, in its order and with its arithmetic
 *   (the total by the same left-to-right sum, then `acc += p / total`), but only each entry's
 *   first and last are kept. The entry holding `u` is the first whose last sum exceeds `u`:
 *   exactly where the flat search lands, since the sums never decrease.
 * - Inside the entry, `u` is rescaled to the entry's own cumulative weights (shared by every
 *   entry of a class, so computed once per class) and searched there. That agrees with the
 *   flat sums up to rounding: a bound on the rounding (the slots' count × a few ulps) says
 *   when `u` is too close to a boundary to trust it, and then the entry's flat sums are
 *   recomputed exactly, as the flat list has them (a few in a million draws at 10,000 slots).
 */
import type { EntryPaths } from './types';

/** What {@link drawPath} needs for one epoch's entries. */
export interface DrawTable {
  entries: readonly EntryPaths[];
  /** The flat list's total probability (its left-to-right sum). */
  total: number;
  /** Per entry: the flat cumulative sum before its first path. */
  start: Float64Array;
  /** Per entry: the flat cumulative sum at its last path (1 for the last path of all). */
  end: Float64Array;
  /** Per entry: the flat index of its first path. */
  offset: Float64Array;
  /** The entry holding the last path (its last sum is exactly 1), -1 when there is none. */
  last: number;
  /** How many paths in all. */
  size: number;
  /** Per entry: its slots' cumulative weights (shared by the entries of a class). */
  sums: Float64Array[];
}

/** A drawn path: its entry, its slot in the entry and its index in the flat list. */
export interface Drawn {
  entry: number;
  slot: number;
  index: number;
}

/** Cumulative weights per class (read-only `weights` arrays are shared by a class's entries). */
const cumWeights = new WeakMap<readonly number[], Float64Array>();

function weightSums(w: readonly number[]): Float64Array {
  let c = cumWeights.get(w);
  if (!c) {
    c = new Float64Array(w.length);
    let acc = 0;
    for (let j = 0; j < w.length; j++) c[j] = acc += w[j] as number;
    cumWeights.set(w, c);
  }
  return c;
}

/** Builds the table for `entries` (O(paths) arithmetic, no per-path objects). */
export function drawTable(entries: readonly EntryPaths[]): DrawTable {
  const n = entries.length;
  let total = 0;
  let size = 0;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const e = entries[i] as EntryPaths;
    const w = e.slots.weights;
    const share = e.share;
    for (let j = 0; j < w.length; j++) total += share * (w[j] as number);
    size += w.length;
    if (w.length > 0) last = i;
  }
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const offset = new Float64Array(n);
  let acc = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const e = entries[i] as EntryPaths;
    const w = e.slots.weights;
    const share = e.share;
    start[i] = acc;
    offset[i] = k;
    for (let j = 0; j < w.length; j++) acc += (share * (w[j] as number)) / total;
    k += w.length;
    // From the last path on, the flat list's sum is exactly 1 (`cumulative` sets it).
    end[i] = i >= last ? 1 : acc;
  }
  return {
    entries,
    total,
    start,
    end,
    offset,
    last,
    size,
    sums: entries.map((e) => weightSums(e.slots.weights)),
  };
}

/** Upper bound on the gap between the flat sums and the rescaled ones in an entry of `m` slots. */
const slack = (m: number) => (m + 8) * 2 ** -50;

/**
 * The path `pick(cumulative(flat probabilities), u)` gives, for `u` ∈ [0, 1).
 * @returns null when there is no path.
 */
export function drawPath(t: DrawTable, u: number): Drawn | null {
  if (t.last < 0) return null;
  const { end } = t;
  let lo = 0;
  let hi = t.last;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (u < (end[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  const i = lo;
  const e = t.entries[i] as EntryPaths;
  const w = e.slots.weights;
  const m = w.length;
  const j = m === 1 ? 0 : slotIn(t, i, e, u);
  return { entry: i, slot: j, index: (t.offset[i] as number) + j };
}

function slotIn(t: DrawTable, i: number, e: EntryPaths, u: number): number {
  const w = e.slots.weights;
  const m = w.length;
  const c = t.sums[i] as Float64Array;
  const s = t.start[i] as number;
  const scale = e.share / t.total;
  const v = (u - s) / scale;
  let lo = 0;
  let hi = m - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v < (c[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  const tol = slack(m);
  const below = lo === 0 ? -Infinity : s + scale * (c[lo - 1] as number);
  const above = lo === m - 1 ? Infinity : s + scale * (c[lo] as number);
  if (below + tol < u && u + tol < above) return lo;
  return exactSlot(t, i, e, u);
}

/** The slot the flat list's own sums give (its arithmetic, in its order). */
function exactSlot(t: DrawTable, i: number, e: EntryPaths, u: number): number {
  const w = e.slots.weights;
  const m = w.length;
  const share = e.share;
  let acc = t.start[i] as number;
  for (let j = 0; j < m - 1; j++) {
    acc += (share * (w[j] as number)) / t.total;
    if (u < acc) return j;
  }
  return m - 1;
}
