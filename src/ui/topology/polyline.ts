import type { Point } from './layout';

/** A coordinate as d3-shape writes it: rounded to 3 decimals (its default `digits`). */
const num = (v: number) => Math.round(v * 1000) / 1000;

/**
 * An SVG path's `d` for straight segments through `points` (px, in order): `M x,y L x,y …`
 * with coordinates rounded to 3 decimals, character for character what d3-shape's `line()`
 * with its default linear curve draws — without loading d3-shape and d3-path (about 3 KB gzip)
 * before the first paint. One point is closed on itself (`M x,yZ`, as d3's linear curve does);
 * no points: `''` (d3: `null`).
 */
export function polyline(points: readonly Point[]): string {
  let d = '';
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    d += `${i === 0 ? 'M' : 'L'}${num(p.x)},${num(p.y)}`;
  }
  return points.length === 1 ? `${d}Z` : d;
}
