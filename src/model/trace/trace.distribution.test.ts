/**
 * Over many seeds, the default scene spreads connections as Kubernetes does: the balancer
 * shares them equally among healthy targets, and kube-proxy's `statistic --mode random`
 * cascade gives each of the two ready endpoints probability 1/2 (xt_statistic: match when
 * `(random & 0x7FFFFFFF) < 0x40000000`). Bounds are ±5 standard deviations of the binomial
 * distribution, so a correct model fails with probability below 1e-6.
 */
import { describe, it, expect } from 'vitest';
import type { SceneOptions } from '../index';
import { scene } from '../test/driver';

const N = 2000;

function tally(opts: Partial<SceneOptions>) {
  const pods: Record<string, number> = {};
  const targets: Record<string, number> = {};
  for (let seed = 1; seed <= N; seed++) {
    const t = scene({ ...opts, seed }).trace();
    const o = t.expectDelivered();
    pods[o.podIP] = (pods[o.podIP] ?? 0) + 1;
    const lb = t.decisions('lb-target')[0]?.chosen;
    if (lb) targets[lb] = (targets[lb] ?? 0) + 1;
  }
  return { pods, targets };
}

/** Asserts `count` is within 5 sd of Binomial(N, p). */
function withinBinomial(count: number | undefined, p: number): void {
  const mean = N * p;
  const sd = Math.sqrt(N * p * (1 - p));
  expect(count ?? 0).toBeGreaterThanOrEqual(Math.floor(mean - 5 * sd));
  expect(count ?? 0).toBeLessThanOrEqual(Math.ceil(mean + 5 * sd));
}

// Thousands of full traces: allow for a loaded machine (each takes ~1–2 s alone).
describe(`distribution over seeds 1..${N}`, { timeout: 30_000 }, () => {
  it('Cluster: each pod gets about half, each node about a third', () => {
    const { pods, targets } = tally({});
    expect(Object.keys(pods).sort()).toEqual(['10.244.1.5', '10.244.3.9']);
    withinBinomial(pods['10.244.1.5'], 0.5);
    withinBinomial(pods['10.244.3.9'], 0.5);
    for (const n of ['node-1', 'node-2', 'node-3']) withinBinomial(targets[n], 1 / 3);
  });

  it('Cluster, dialling node-2 directly: KUBE-SVC alone splits 50/50', () => {
    const { pods } = tally({ dial: { kind: 'NodePort', nodeName: 'node-2' } });
    withinBinomial(pods['10.244.1.5'], 0.5);
    withinBinomial(pods['10.244.3.9'], 0.5);
  });

  it('Local: the balancer splits between node-1 and node-3, never node-2', () => {
    const { pods, targets } = tally({ externalTrafficPolicy: 'Local' });
    withinBinomial(pods['10.244.1.5'], 0.5);
    withinBinomial(pods['10.244.3.9'], 0.5);
    expect(targets['node-2'] ?? 0).toBe(0);
    withinBinomial(targets['node-1'], 0.5);
  });
});
