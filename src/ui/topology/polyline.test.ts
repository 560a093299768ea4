import { line } from 'd3-shape';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { polyline } from './polyline';
import type { Point } from './layout';

// The drawing's wires used d3-shape's `line()` (linear curve) before polyline replaced it.
const d3Line = line<Point>()
  .x((p) => p.x)
  .y((p) => p.y);

describe('polyline', () => {
  it('draws a route as move-to then line-to commands', () => {
    expect(
      polyline([
        { x: 10, y: 20 },
        { x: 10.5, y: 40 },
        { x: -3, y: 40.25 },
      ]),
    ).toBe('M10,20L10.5,40L-3,40.25');
  });

  it('rounds coordinates to 3 decimals, as d3-shape does', () => {
    expect(
      polyline([
        { x: 1 / 3, y: 2.0005 },
        { x: 7.12345, y: 0 },
      ]),
    ).toBe('M0.333,2.001L7.123,0');
  });

  it('is empty for no points (d3 gives null, drawn as an empty d)', () => {
    expect(polyline([])).toBe('');
    expect(d3Line([])).toBeNull();
  });

  it('gives exactly the path d3-shape line() gives, for any points', () => {
    const point = fc.record({
      x: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
      y: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 12 }), (pts) => {
        expect(polyline(pts)).toBe(d3Line(pts));
      }),
      { numRuns: 500 },
    );
  });
});
