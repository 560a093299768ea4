/**
 * The two windows a dead node opens (issue 6 §4, review rev-time finding 4), computed by hand
 * from the schedule and checked against the model.
 *
 * Canonical Cluster scenario, GCP's defaults (every 8 s, timeout 1 s, healthy 1, unhealthy 3),
 * --node-monitor-grace-period 50 s, EndpointSlice → kube-proxy 1 s; already provisioned, every
 * node in rotation; 1,200 connections over 120 s (one every 100 ms), held 0 s; node-1 fails at
 * 50 s.
 *
 * By hand:
 * - node-1 is probed at 0, 8, …, 48, 56, 64, 72 s (first of three targets, no stagger). The
 *   56, 64 and 72 s probes time out 1 s later: the third failure is known at 73 s, so node-1
 *   is in rotation, dead, from 50 s to 73 s (23 s; the bound is 8 × 3 + 1 = 25 s).
 * - Window 1 (the balancer's): connections opened in [50 s, 73 s) = 230; the balancer gives each
 *   of the three nodes 1/3: 230/3 = 76.67 expected to enter node-1.
 * - node-1 turns NotReady at 50 + 50 = 100 s, its Pod 10.244.1.5's endpoint ready: false, and
 *   kube-proxy syncs at 101 s. Until then every node DNATs to 10.244.1.5 with probability 1/2
 *   (`--probability 0.5000000000`, two endpoints).
 * - Window 2 (kube-proxy's): connections that entered node-2 or node-3 and went to 10.244.1.5:
 *   in [50, 73) 230 × 2/3 × 1/2 = 76.67; in [73, 101) 280 × 1 × 1/2 = 140; 216.67 expected.
 * - Every connection of either window times out (nothing on node-1 answers), and no other
 *   connection opened in [50 s, 101 s) does: the timed-out ones are exactly the two counts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import { describeWindow, simulate } from './index';

const FAIL = 50_000;

function run(policy: 'Cluster' | 'Local' = 'Cluster') {
  return simulate({
    objects: canonicalObjects(),
    scene: { ...DEFAULT_SCENE, externalTrafficPolicy: policy },
    events: [{ at: FAIL, kind: 'fail-node', node: 'node-1' }],
    workload: { count: 1200, startMs: 0, periodMs: 120_000, holdMs: 0 },
    horizonMs: 150_000,
    seed: 3,
  });
}

describe('a node dies under Cluster: the balancer’s window and the stale endpoints’ window', () => {
  const tl = run();
  const w = tl.deadNodeWindows[0]!;

  it('the balancer’s window: 50 s → 73 s, 230/3 connections expected', () => {
    expect([
      w.node,
      w.failedAt,
      w.wasInRotation,
      w.leftRotationAt,
      w.durationMs,
      w.boundMs,
    ]).toEqual(['node-1', 50_000, true, 73_000, 23_000, 25_000]);
    expect(w.expectedConnectionsSent).toBeCloseTo(230 / 3, 9);
  });

  it('the stale endpoints’ window: 10.244.1.5 until 101 s (grace 50 s + 1 s), 216.67 expected', () => {
    expect(w.staleEndpoints).toEqual(['10.244.1.5']);
    expect(w.endpointsUpdatedAt).toBe(FAIL + 50_000 + 1_000);
    expect(w.expectedStaleEndpointConnections).toBeCloseTo((230 * 2) / 3 / 2 + 280 / 2, 9);
  });

  it('counts what the records say, and the two windows are exactly the timed-out connections', () => {
    const inWindow = (from: number, to: number) =>
      tl.connections.filter((c) => !c.longLived && c.openedAt >= from && c.openedAt < to);
    expect(w.connectionsSent).toBe(
      inWindow(50_000, 73_000).filter((c) => c.lbTarget === 'node-1').length,
    );
    expect(w.staleEndpointConnections).toBe(
      inWindow(50_000, 101_000).filter(
        (c) => c.lbTarget !== 'node-1' && c.endpoint === '10.244.1.5:8080',
      ).length,
    );
    const timedOut = tl.connections.filter((c) => c.fate === 'timed-out');
    expect(timedOut).toHaveLength(w.connectionsSent + w.staleEndpointConnections);
    expect(timedOut.every((c) => c.openedAt >= 50_000 && c.openedAt < 101_000)).toBe(true);
    // The draws are binomial: within four standard deviations of what the model expects.
    const sd = (n: number, p: number) => Math.sqrt(n * p * (1 - p));
    expect(Math.abs(w.connectionsSent - 230 / 3)).toBeLessThan(4 * sd(230, 1 / 3));
    expect(Math.abs(w.staleEndpointConnections - 216.67)).toBeLessThan(4 * sd(510, 0.43));
  });

  it('the CLI’s sentence names node-monitor-grace-period and both counts', () => {
    const text = describeWindow(w, tl.settings);
    expect(text).toContain('left the rotation at 1m13s (23s: 3 failed probes in a row');
    expect(text).toContain(`${w.connectionsSent} new connections went to it`);
    expect(text).toContain('--node-monitor-grace-period 50 s after the failure');
    expect(text).toContain(
      `other nodes still DNATed ${w.staleEndpointConnections} new connections`,
    );
  });
});

describe('a node dies under Local: no other node DNATs to its Pod', () => {
  it('has no stale-endpoint connections (kube-proxy uses local endpoints only)', () => {
    const w = run('Local').deadNodeWindows[0]!;
    expect(w.staleEndpoints).toEqual(['10.244.1.5']);
    expect([w.staleEndpointConnections, w.expectedStaleEndpointConnections]).toEqual([0, 0]);
  });
});

describe('a node that was never in rotation', () => {
  it('opens no balancer window, and the sentence says why (1 failed probe, singular)', () => {
    // Healthy threshold 10 at 5 s: registered at 35.2 s, node-1 needs 50 s of passing probes;
    // it dies at 50 s, before it ever joins.
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: FAIL, kind: 'fail-node', node: 'node-1' }],
      healthCheck: { intervalSeconds: 5, healthyThreshold: 10, unhealthyThreshold: 1 },
      provisioning: { fromCreation: true },
      workload: { count: 100, startMs: 40_000, periodMs: 20_000 },
      horizonMs: 90_000,
    });
    const w = tl.deadNodeWindows[0]!;
    expect([w.wasInRotation, w.leftRotationAt, w.durationMs, w.connectionsSent]).toEqual([
      false,
      FAIL,
      0,
      0,
    ]);
    expect(describeWindow(w, tl.settings)).toContain(
      "it was not in the balancer's rotation then, so the balancer sent it no new connections",
    );
    // With one failed probe taking a node out, the sentence says "1 failed probe".
    const one = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'fail-node', node: 'node-1' }],
      healthCheck: { unhealthyThreshold: 1 },
      workload: { count: 0 },
      horizonMs: 30_000,
    });
    expect(describeWindow(one.deadNodeWindows[0]!, one.settings)).toContain(
      '1 failed probe in a row',
    );
  });
});

describe('MetalLB layer 2: the window is memberlist’s, not a health check’s', () => {
  const ip = '192.168.0.240';
  const order = ['node-1', 'node-2', 'node-3'].sort((a, b) =>
    Buffer.compare(
      createHash('sha256').update(`${a}#${ip}`).digest(),
      createHash('sha256').update(`${b}#${ip}`).digest(),
    ),
  );
  const leader = order[0]!;
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [{ at: 20_000, kind: 'fail-node', node: leader }],
    provisioning: { controller: 'metallb-l2' },
    workload: { count: 0 },
    horizonMs: 60_000,
  });

  it('says no health checks, memberlist, and the failover time; no probe arithmetic', () => {
    const text = describeWindow(tl.deadNodeWindows[0]!, tl.settings);
    expect(text).toContain('MetalLB runs no health checks');
    expect(text).toContain('memberlist');
    expect(text).toContain('took the address over at 25s (5s)');
    expect(text).not.toMatch(/probe|unhealthy threshold/);
  });
});
