/**
 * Drawing many connections fast: each connection's path is one uniform draw from the seeded
 * generator against the cumulative path probabilities of its epoch (computed once per epoch
 * by {@link computePaths}); no tracing per connection.
 */
import type { Rng } from '../random';

/** Cumulative probabilities of `probs` (normalised; the last entry is exactly 1). Empty input → empty. */
export function cumulative(probs: readonly number[]): Float64Array {
  const total = probs.reduce((a, b) => a + b, 0);
  const cum = new Float64Array(probs.length);
  let acc = 0;
  for (let i = 0; i < probs.length; i++) {
    acc += (probs[i] ?? 0) / total;
    cum[i] = acc;
  }
  if (probs.length > 0) cum[probs.length - 1] = 1;
  return cum;
}

/** The index whose cumulative interval holds `u` ∈ [0, 1). */
export function pick(cum: Float64Array, u: number): number {
  const n = cum.length;
  if (n <= 16) {
    for (let i = 0; i < n - 1; i++) if (u < (cum[i] as number)) return i;
    return n - 1;
  }
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (u < (cum[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Draws `count` paths; returns how many took each. */
export function sampleCounts(cum: Float64Array, count: number, rng: Rng): Int32Array {
  const counts = new Int32Array(cum.length);
  if (cum.length === 0) return counts;
  for (let i = 0; i < count; i++) counts[pick(cum, rng())]!++;
  return counts;
}
