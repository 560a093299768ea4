import { describe, expect, it } from 'vitest';
import { linearScale, nice, ticks, tickStep } from './scale';

// Expected values are d3-array's for the same calls (`d3.ticks`, `d3.tickStep`, `scale.nice()`):
// steps of 1, 2 or 5 × 10^k, the factor chosen by comparing the raw step with √50, √10, √2.
describe('linear scale and ticks', () => {
  it('picks steps of 1, 2 or 5 × 10^k', () => {
    expect(tickStep(0, 1, 5)).toBe(0.2);
    expect(tickStep(0, 10, 10)).toBe(1);
    expect(tickStep(0, 445_000, 10)).toBe(50_000);
    expect(tickStep(0, 90_000, 9)).toBe(10_000);
  });

  it('lists round ticks inside the domain, without floating-point noise', () => {
    expect(ticks(0, 1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(0, 0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(ticks(41_000, 131_000, 9)).toEqual([
      50_000, 60_000, 70_000, 80_000, 90_000, 100_000, 110_000, 120_000, 130_000,
    ]);
  });

  it('widens a domain to round ends and maps linearly', () => {
    expect(nice(0, 0.54, 5)).toEqual([0, 0.6]);
    const x = linearScale([0, 200], [100, 500]);
    expect(x(0)).toBe(100);
    expect(x(50)).toBe(200);
    expect(x(200)).toBe(500);
    expect(x.ticks(4)).toEqual([0, 50, 100, 150, 200]);
    expect(linearScale([5, 5], [10, 20])(5)).toBe(10);
  });
});
