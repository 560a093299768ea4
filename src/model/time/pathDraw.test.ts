/**
 * Drawing from factored paths is drawing from the flat list: for any uniform `u`,
 * {@link drawPath} lands on the path `pick(cumulative(flat probabilities), u)` does, bit for
 * bit, including `u` on a boundary of the flat sums and one float either side of it (where a
 * rescaled search alone could round the other way); and the counts and rows built from the
 * factored paths are the flat list's.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../random';
import { cumulative, pick, sampleCounts } from './sample';
import { drawPath, drawTable } from './pathDraw';
import { flatPaths } from './pathSet';
import { sampleEntryCounts, statsFromCounts, statsFromEntryCounts } from './stats';
import type { CandidateSlots, EntryPaths, Route } from './types';

const delivered = (pod: string, node: string, crossNode: boolean): Route => ({
  pod,
  podNode: node,
  crossNode,
  snat: crossNode,
  outcome: 'delivered',
});

/**
 * `nodes` entries of one class over `eps` endpoints spread round-robin on the nodes, with
 * kube-proxy-like weights (iptables' cascade: 1/eps each, as the products of its rules'
 * probabilities round them) or uneven ones; the entry's own node's endpoints are its own routes.
 */
function entries(nodes: number, eps: number, uneven: boolean, seed = 1): EntryPaths[] {
  const rng = createRng(seed);
  const node = (j: number) => `node-${j % nodes}`;
  const raw = Array.from({ length: eps }, (_, j) => (uneven ? 0.05 + rng() : 1 / (eps - j)));
  // The cascade: slot j is taken with probability raw[j] of what the earlier ones left.
  let left = 1;
  const weights = raw.map((r) => {
    if (uneven) return r;
    const w = left * r;
    left -= w;
    return w;
  });
  const slots: CandidateSlots = {
    endpoints: weights.map((_, j) => `10.0.${j >> 8}.${j & 255}:8080`),
    weights,
    routes: weights.map((_, j) => delivered(`default/web-${j}`, node(j), true)),
  };
  const shares = Array.from({ length: nodes }, () => (uneven ? 0.1 + rng() : 1 / nodes));
  return shares.map((share, i) => ({
    lbTarget: `node-${i}`,
    entryNode: `node-${i}`,
    share,
    slots,
    own: weights
      .map((_, j) => j)
      .filter((j) => node(j) === `node-${i}`)
      .map((j) => ({ slot: j, route: delivered(`default/web-${j}`, node(j), false) })),
  }));
}

const bits = new Float64Array(1);
const ints = new BigInt64Array(bits.buffer);
/** The float next to `x` towards +∞ (`dir` 1) or −∞ (`dir` −1), for x > 0. */
function nextFloat(x: number, dir: 1 | -1): number {
  bits[0] = x;
  ints[0] = (ints[0] as bigint) + BigInt(dir);
  return bits[0] as number;
}

describe('drawPath is pick over the flat cumulative sums', () => {
  const cases: [string, EntryPaths[]][] = [
    ['3 nodes × 6 endpoints, even (≤ 16 paths: the linear pick)', entries(3, 6, false)],
    ['5 nodes × 4 endpoints, uneven', entries(5, 4, true)],
    ['40 nodes × 200 endpoints, even', entries(40, 200, false)],
    ['25 nodes × 300 endpoints, uneven', entries(25, 300, true, 7)],
  ];
  for (const [name, es] of cases)
    it(name, () => {
      const flat = flatPaths(es);
      const cum = cumulative(flat.map((p) => p.probability));
      const table = drawTable(es);
      expect(table.size).toBe(flat.length);
      const us: number[] = [0];
      const rng = createRng(3);
      for (let i = 0; i < 20_000; i++) us.push(rng());
      for (const c of cum) if (c > 0 && c < 1) us.push(c, nextFloat(c, 1), nextFloat(c, -1));
      for (const u of us) {
        const d = drawPath(table, u);
        const k = pick(cum, u);
        expect(d?.index).toBe(k);
        const p = flat[k];
        const e = es[d?.entry ?? -1];
        expect(e?.entryNode).toBe(p?.entryNode);
        expect(e?.slots.endpoints[d?.slot ?? -1]).toBe(p?.endpoint);
      }
    });

  it('no paths: nothing to draw', () => {
    expect(drawPath(drawTable([]), 0.5)).toBeNull();
  });
});

describe('counts and rows from factored paths are the flat list’s', () => {
  for (const uneven of [false, true])
    it(`20 nodes × 150 endpoints, ${uneven ? 'uneven' : 'even'} weights`, () => {
      const es = entries(20, 150, uneven, 11);
      const flat = flatPaths(es);
      const want = sampleCounts(cumulative(flat.map((p) => p.probability)), 50_000, createRng(9));
      const got = sampleEntryCounts(es, 50_000, createRng(9));
      const dense = new Int32Array(flat.length);
      for (const [k, n] of got) dense[k] = n;
      expect([...dense]).toEqual([...want]);
      const nodes = es.map((e) => e.entryNode as string);
      expect(statsFromEntryCounts(es, got, nodes)).toEqual(statsFromCounts(flat, want, nodes));
    });
});
