/**
 * The exact timeline of a node failure. Settings chosen for hand computation: health check
 * every 5 s, timeout 2 s, unhealthy threshold 2, healthy threshold 2; node-1 fails at 12 s
 * and is restored at 90 s; 240 connections over 120 s (one every 500 ms), each held 30 s.
 *
 * By hand (the numbers below come from this reasoning, not from the output):
 * - Three nodes, probes staggered by floor(i × 5000 / 3) ms: node-1 at 0, 5, 10, … s,
 *   node-2 at 1.666 s + 5k, node-3 at 3.333 s + 5k.
 * - node-1's probe at 10 s passes (the node is up). At 15 s nothing answers: the probe
 *   fails when its 2 s timeout runs out, at 17 s (1 failure). The 20 s probe fails at 22 s
 *   (2 failures = unhealthy threshold): node-1 leaves the rotation at 22 s.
 * - Window for new connections to the dead node: 22 − 12 = 10 s; the worst case the settings
 *   allow is 5 × 2 + 2 = 12 s (a failure just after a passing probe).
 * - Probes at 25, 30, …, 85 s time out too (13 of them): 15 consecutive failures by 87 s.
 * - Restored at 90 s: the 90 s probe passes (1), the 95 s probe passes (2 = healthy
 *   threshold): node-1 rejoins at 95 s.
 * - Connections opened in [12 s, 22 s): i = 24 … 43, i.e. 20; the balancer gives node-1 a
 *   third of them: 20/3 expected.
 * - node-monitor-grace-period 50 s: node-1 Ready → Unknown at 62 s; its Pod's endpoint goes
 *   not ready at 62 s and kube-proxy drops it at 63 s (1 s propagation).
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../index';
import { sceneAt, simulate } from './index';
import type { Timeline } from './types';

function run(): Timeline {
  return simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [
      { at: 12_000, kind: 'fail-node', node: 'node-1' },
      { at: 90_000, kind: 'restore-node', node: 'node-1' },
    ],
    healthCheck: {
      intervalSeconds: 5,
      timeoutSeconds: 2,
      healthyThreshold: 2,
      unhealthyThreshold: 2,
    },
    controlPlane: {
      nodeMonitorGracePeriodSeconds: 50,
      endpointPropagationMs: 1000,
      readinessDelayMs: 5000,
    },
    workload: { count: 240, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
    horizonMs: 120_000,
    seed: 7,
  });
}

describe('node-1 fails at 12 s (interval 5 s, timeout 2 s, unhealthy 2, healthy 2)', () => {
  const tl = run();
  const node1 = tl.probes.filter((p) => p.node === 'node-1');

  it('probes node-1 every 5 s from 0 s, node-2 and node-3 staggered by a third of the interval', () => {
    expect(node1.map((p) => p.at)).toEqual(Array.from({ length: 25 }, (_, i) => i * 5000));
    expect(
      tl.probes
        .filter((p) => p.node === 'node-2')
        .slice(0, 3)
        .map((p) => p.at),
    ).toEqual([1666, 6666, 11666]);
    expect(
      tl.probes
        .filter((p) => p.node === 'node-3')
        .slice(0, 3)
        .map((p) => p.at),
    ).toEqual([3333, 8333, 13333]);
  });

  it('lists the exact probe results around the failure', () => {
    const view = node1
      .slice(1, 6)
      .map((p) => [p.at, p.doneAt, p.status, p.ok, p.consecutiveFailures, p.inRotation]);
    expect(view).toEqual([
      [5000, 5000, 200, true, 0, true],
      [10000, 10000, 200, true, 0, true],
      [15000, 17000, null, false, 1, true],
      [20000, 22000, null, false, 2, false],
      [25000, 27000, null, false, 3, false],
    ]);
    expect(node1.find((p) => p.at === 15000)?.summary).toContain('timed out after 2s');
    expect(node1.find((p) => p.at === 85000)?.consecutiveFailures).toBe(15);
  });

  it('takes node-1 out at 22 s and back at 95 s', () => {
    expect(tl.rotation.filter((r) => r.node === 'node-1').map((r) => [r.at, r.inRotation])).toEqual(
      [
        [22000, false],
        [95000, true],
      ],
    );
    const back = node1.filter((p) => p.at >= 90000).slice(0, 2);
    expect(back.map((p) => [p.at, p.status, p.consecutiveSuccesses, p.inRotation])).toEqual([
      [90000, 200, 1, false],
      [95000, 200, 2, true],
    ]);
  });

  it('exposes the dead-node window: 10 s, bound 12 s, 20 connections in it of which 20/3 expected on node-1', () => {
    expect(tl.deadNodeWindows).toHaveLength(1);
    const w = tl.deadNodeWindows[0]!;
    expect([w.failedAt, w.leftRotationAt, w.durationMs, w.boundMs]).toEqual([
      12000, 22000, 10000, 12000,
    ]);
    const inWindow = tl.connections.filter(
      (c) => !c.longLived && c.openedAt >= 12000 && c.openedAt < 22000,
    );
    expect(inWindow).toHaveLength(20);
    expect(inWindow[0]?.id).toBe('c24');
    expect(w.expectedConnectionsSent).toBeCloseTo(20 / 3, 9);
    const toNode1 = inWindow.filter((c) => c.lbTarget === 'node-1');
    expect(w.connectionsSent).toBe(toNode1.length);
    // 5 sigma of Binomial(20, 1/3): 20/3 ± 5 × sqrt(20 × 1/3 × 2/3) = 6.67 ± 10.5
    expect(Math.abs(toNode1.length - 20 / 3)).toBeLessThanOrEqual(5 * Math.sqrt((20 * 2) / 9));
    // Every one of them got no answer: node-1 is down.
    for (const c of toNode1) expect([c.outcome, c.fate]).toEqual(['timed-out', 'timed-out']);
  });

  it('sends no new connection to node-1 while it is out of rotation, and some again after 95 s', () => {
    const out = tl.connections.filter((c) => c.openedAt >= 22000 && c.openedAt < 95000);
    expect(out).toHaveLength((95000 - 22000) / 500);
    expect(out.filter((c) => c.lbTarget === 'node-1')).toEqual([]);
    expect(tl.connections.some((c) => c.openedAt >= 95000 && c.lbTarget === 'node-1')).toBe(true);
  });

  it('marks node-1 NodeNotReady at 62 s and drops its endpoint from kube-proxy at 63 s', () => {
    const notReady = tl.entries.find((e) => e.reason === 'NodeNotReady');
    expect(notReady?.at).toBe(62000);
    expect(tl.entries.find((e) => e.kind === 'endpoints' && e.at >= 12000)?.at).toBe(62000);
    const epoch = tl.epochs.find((e) => e.from === 63000);
    expect(epoch?.paths.map((p) => p.endpoint)).toEqual(['10.244.3.9:8080', '10.244.3.9:8080']);
    // Before 63 s kube-proxy on node-2 and node-3 still DNATs to 10.244.1.5, which is dead.
    const stale = tl.epochs.find((e) => e.from === 22000);
    expect(
      stale?.paths.find((p) => p.lbTarget === 'node-2' && p.endpoint === '10.244.1.5:8080')
        ?.outcome,
    ).toBe('timed-out');
  });

  it('blackholes the connections already open through node-1 at 12 s and keeps the others', () => {
    const open = tl.connections.filter((c) => c.openedAt < 12000 && c.outcome === 'delivered');
    expect(open).toHaveLength(24);
    for (const c of open) {
      const viaNode1 = c.lbTarget === 'node-1' || c.podNode === 'node-1';
      if (viaNode1) expect([c.fate, c.endedAt]).toEqual(['blackholed', 12000]);
      else expect([c.fate, c.endedAt]).toEqual(['completed', c.openedAt + 30000]);
    }
  });

  it('traces any connection of the timeline exactly: runScene on sceneAt gives the recorded outcome', () => {
    for (const c of tl.connections) {
      const snap = sceneAt(tl, c.id);
      const o = runScene(snap.objects, snap.scene).trace.outcome;
      expect(o.kind).toBe(c.outcome);
      if (o.kind === 'delivered') {
        expect(o.pod).toBe(c.pod);
        expect(o.crossedNodes).toBe(c.crossNode);
        expect(o.snat).toBe(c.snat);
      }
    }
  });

  it('is deterministic: the same input gives the same timeline, byte for byte', () => {
    expect(JSON.stringify(run())).toBe(JSON.stringify(tl));
  });
});
