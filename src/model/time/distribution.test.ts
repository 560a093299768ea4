/**
 * Many connections: counts within binomial bounds (5 sigma) of the shares the model's
 * probabilities give, and the exact shares themselves, computed by hand:
 * - Canonical, Cluster: the balancer splits new connections equally over the three nodes in
 *   rotation (1/3 each); every node's KUBE-SVC chain splits them 1/2–1/2 over the two Pods
 *   (`statistic --probability 0.5`, exact in iptables' 2^-31 steps). A connection crosses
 *   nodes unless it lands on the Pod of the node it entered: node-1 and node-3 keep half,
 *   node-2 (no Pod) forwards all: 1/3·1/2 + 1/3 + 1/3·1/2 = 2/3. Cluster masquerades every
 *   external connection: SNAT 1.
 * - local-uneven.yaml, Local: nodes with Pods pass the healthCheckNodePort check (1/2 each),
 *   the third does not; on node vmss000000 the lone Pod gets everything (1/2), on vmss000001
 *   each of three Pods gets a third of its half (1/6): the lone Pod 3× each of the three. No
 *   hop, no SNAT.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import { loadObjects } from '../import/load';
import { fillGaps } from '../import/fill';
import { connectionStats, sceneFromObjects, simulate } from './index';
import type { ConnectionStats } from './types';

const N = 100_000;

function within5Sigma(count: number, n: number, p: number) {
  const sigma = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(count - n * p)).toBeLessThanOrEqual(5 * sigma + 1e-9);
}

const row = (s: ConnectionStats, kind: 'perNode' | 'perPod', id: string) => {
  const r = s[kind].find((x) => x.id === id);
  if (!r) throw new Error(`no row ${id}`);
  return r;
};

describe('canonical scenario, externalTrafficPolicy Cluster', () => {
  const s = connectionStats({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    connections: N,
    seed: 11,
  });

  it('expects 1/3 per node and 1/2 per Pod, exactly', () => {
    for (const n of ['node-1', 'node-2', 'node-3'])
      expect(row(s, 'perNode', n).expectedShare).toBeCloseTo(1 / 3, 12);
    expect(row(s, 'perPod', 'default/web-6d8f9c7b5-x2k4p').expectedShare).toBe(0.5);
    expect(row(s, 'perPod', 'default/web-6d8f9c7b5-q7m9z').expectedShare).toBe(0.5);
  });

  it('draws counts within 5 sigma of those shares', () => {
    expect(s.total).toBe(N);
    for (const n of ['node-1', 'node-2', 'node-3'])
      within5Sigma(row(s, 'perNode', n).count, N, 1 / 3);
    within5Sigma(row(s, 'perPod', 'default/web-6d8f9c7b5-x2k4p').count, N, 0.5);
  });

  it('shows the extra hop: node-2 forwards every connection, 2/3 cross overall, all SNATed', () => {
    const n2 = row(s, 'perNode', 'node-2');
    expect(n2.crossNode).toBe(n2.count);
    within5Sigma(s.crossNode, N, 2 / 3);
    within5Sigma(row(s, 'perNode', 'node-1').crossNode, row(s, 'perNode', 'node-1').count, 1 / 2);
    expect(s.snat).toBe(N);
  });

  it('is the same for the same seed and differs for another', () => {
    const again = connectionStats({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      connections: N,
      seed: 11,
    });
    expect(again).toEqual(s);
    const other = connectionStats({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      connections: N,
      seed: 12,
    });
    expect(other.perPod.map((r) => r.count)).not.toEqual(s.perPod.map((r) => r.count));
  });
});

describe('local-uneven.yaml: Local, one Pod on one node and three on another', () => {
  const objects = fillGaps(
    loadObjects(readFileSync('public/examples/local-uneven.yaml', 'utf8')).objects,
  ).objects;
  const scene = sceneFromObjects(objects, 1);
  const s = connectionStats({ objects, scene, connections: N, seed: 5 });
  const lone = 'default/api-7f9b8c6d5-m4v8t';
  const three = [
    'default/api-7f9b8c6d5-c9x2r',
    'default/api-7f9b8c6d5-p5k7w',
    'default/api-7f9b8c6d5-z3n6q',
  ];

  it('expects 1/2 for the lone Pod and 1/6 for each of the three (iptables probabilities to 1e-9)', () => {
    expect(scene.externalTrafficPolicy).toBe('Local');
    expect(row(s, 'perPod', lone).expectedShare).toBe(0.5);
    for (const p of three) expect(row(s, 'perPod', p).expectedShare).toBeCloseTo(1 / 6, 9);
    expect(row(s, 'perNode', 'aks-nodepool1-38290761-vmss000002').expectedShare).toBe(0);
  });

  it('counts: the lone Pod about 3× each of the three, within 5 sigma; no hop, no SNAT', () => {
    within5Sigma(row(s, 'perPod', lone).count, N, 1 / 2);
    for (const p of three) within5Sigma(row(s, 'perPod', p).count, N, 1 / 6);
    const ratio = row(s, 'perPod', lone).count / row(s, 'perPod', three[0]!).count;
    expect(ratio).toBeGreaterThan(2.8);
    expect(ratio).toBeLessThan(3.2);
    expect([s.crossNode, s.snat]).toEqual([0, 0]);
  });
});

describe('a long-lived connection keeps its Pod when the endpoints change', () => {
  it('stays on its Pod through a scale-up while new connections spread over the new Pods', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'scale', replicas: 6 }],
      workload: {
        count: 6000,
        startMs: 0,
        periodMs: 60_000,
        longLived: [{ client: '198.51.100.77', openedAt: 1000 }],
      },
      horizonMs: 60_000,
      seed: 3,
    });
    const long = tl.connections.find((c) => c.longLived);
    expect(long?.fate).toBe('open');
    expect(long?.fateReason).toContain('conntrack kept it on the same Pod');
    const late = new Set(
      tl.connections.filter((c) => !c.longLived && c.openedAt > 30_000).map((c) => c.pod),
    );
    expect(late.size).toBe(6);
  });
});
