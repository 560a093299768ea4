/**
 * A linear scale (time → x, share → width) with round-number ticks, as d3's `scaleLinear` and
 * `ticks` compute them (steps of 1, 2 or 5 × 10^k; d3-array `tickIncrement`).
 *
 * Why not d3-scale's `scaleLinear` itself: d3-scale ships as one ES module, which is already in
 * the initial bundle (the topology's `scaleBand`). Bundlers keep a module whole, so using
 * `scaleLinear` anywhere puts its code — and d3-format and d3-color, which it needs — into the
 * initial bundle: +10.7 KB gzip measured, over the 170 KB budget. The time view keeps using
 * d3's `scaleBand` (already there) for rows.
 */

/** A linear map from `domain` to `range`, with ticks. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
  readonly range: readonly [number, number];
  /** About `count` round values inside the domain, ascending. */
  ticks(count: number): number[];
}

/**
 * d3's `tickIncrement`: the step for about `count` ticks over [start, stop] (start ≤ stop) as a
 * positive number for steps ≥ 1, or as −(1 / step) for steps below 1, so that the ticks can be
 * computed as exact quotients (0.3, not 0.30000000000000004). 0 when there is no step.
 */
function increment(start: number, stop: number, count: number): number {
  const raw = (stop - start) / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 0;
  const power = Math.floor(Math.log10(raw));
  const error = raw / 10 ** power;
  const factor =
    error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  return power >= 0 ? factor * 10 ** power : -(10 ** -power) / factor;
}

/** The tick step for about `count` ticks over [start, stop]: 1, 2 or 5 × 10^k. */
export function tickStep(start: number, stop: number, count: number): number {
  const inc = increment(Math.min(start, stop), Math.max(start, stop), count);
  return inc >= 0 ? inc : 1 / -inc;
}

/** Round values between `start` and `stop` (inclusive), about `count` of them, ascending. */
export function ticks(start: number, stop: number, count: number): number[] {
  const inc = increment(start, stop, count);
  if (inc === 0) return [start];
  const out: number[] = [];
  if (inc > 0) {
    for (let i = Math.ceil(start / inc); i * inc <= stop; i++) out.push(i * inc);
  } else {
    const k = -inc;
    let i1 = Math.round(start * k);
    let i2 = Math.round(stop * k);
    if (i1 / k < start) i1++;
    if (i2 / k > stop) i2--;
    for (let i = i1; i <= i2; i++) out.push(i / k);
  }
  return out;
}

/** `[start, stop]` widened outwards to multiples of the tick step for `count` ticks. */
export function nice(start: number, stop: number, count: number): [number, number] {
  const inc = increment(start, stop, count);
  if (inc > 0) return [Math.floor(start / inc) * inc, Math.ceil(stop / inc) * inc];
  if (inc < 0) return [Math.ceil(start * inc) / inc || 0, Math.floor(stop * inc) / inc || 0];
  return [start, stop];
}

/** A linear scale from `domain` to `range`; a zero-width domain maps everything to the range's start. */
export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = ((v: number) => r0 + (v - d0) * k) as LinearScale;
  return Object.assign(scale, {
    domain: [d0, d1] as const,
    range: [r0, r1] as const,
    ticks: (count: number) => ticks(Math.min(d0, d1), Math.max(d0, d1), count),
  });
}
