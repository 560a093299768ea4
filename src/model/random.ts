/**
 * Seeded randomness. The model never calls `Math.random`: every random choice (the
 * balancer's target, kube-proxy's `statistic --mode random` match, the masquerade source
 * port) draws from an {@link Rng} made from a seed, so the same seed gives the same trace.
 */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: a small, fast 32-bit generator; good enough for simulation, not for crypto.
 * @param seed any integer; it is truncated to 32 bits.
 */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both inclusive. */
export function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/**
 * Picks one of `weights.length` options with the given weights (they need not sum to 1).
 * @returns the chosen index, or -1 when every weight is 0.
 */
export function pickWeighted(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return -1;
  let r = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i] ?? 0;
    if (r < w) return i;
    r -= w;
  }
  for (let i = weights.length - 1; i >= 0; i--) if ((weights[i] ?? 0) > 0) return i;
  return -1;
}
