/**
 * How "What happens" words the windows and the connections (review rev-time findings 4, 8,
 * 11, 16, 17): the numbers are the model's; these check the words chosen for them.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../model';
import { simulate } from '../../model/time';
import { INITIAL_TIME } from '../../store/timelineSlice';
import { runTimeline } from '../../store/timelineDerive';
import { registrationOf, rotationSpans } from './lanes';
import { deadNodeText, pathText } from './windows';

const failAt50 = simulate({
  objects: canonicalObjects(),
  scene: DEFAULT_SCENE,
  events: [{ at: 50_000, kind: 'fail-node', node: 'node-1' }],
  workload: { count: 1200, startMs: 0, periodMs: 120_000, holdMs: 0 },
  horizonMs: 150_000,
  seed: 3,
});

describe('dead-node windows in words', () => {
  it('Cluster: the balancer’s window in probes, then the stale endpoints with node-monitor-grace-period', () => {
    const w = failAt50.deadNodeWindows[0]!;
    const t = deadNodeText(w, failAt50);
    expect(t.balancer.headline).toBe(
      `node-1 was dead but still in rotation from t = 50 s to t = 73 s (23 s): ${w.connectionsSent} new connections still sent to it.`,
    );
    expect(t.balancer.detail).toContain('3 failed probes in a row, 8 s apart');
    expect(t.stale?.headline).toBe(
      `Its Pod 10.244.1.5 stayed a ready endpoint until t = 101 s (51 s after the failure): other nodes still DNATed ${w.staleEndpointConnections} new connections to it, and they timed out.`,
    );
    expect(t.stale?.detail).toContain('--node-monitor-grace-period (50 s)');
    // The simplification, said: NotReady lands 40–55 s after a failure in reality.
    expect(t.stale?.detail).toContain('40–55 s');
    expect(t.stale?.detail).toContain('--node-monitor-period');
  });

  it('a node out of rotation when it died gets no "dead but still in rotation" headline', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: 50_000, kind: 'fail-node', node: 'node-1' }],
      healthCheck: { intervalSeconds: 5, healthyThreshold: 10 },
      provisioning: { fromCreation: true },
      workload: { count: 0 },
      horizonMs: 120_000,
    });
    const t = deadNodeText(tl.deadNodeWindows[0]!, tl);
    expect(t.balancer.headline).toBe(
      'node-1 failed at t = 50 s while out of the balancer’s rotation: the balancer sent it no new connections.',
    );
    expect(t.balancer.headline).not.toContain('still in rotation');
  });

  it('MetalLB: memberlist, no probes', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: 20_000, kind: 'fail-node', node: 'node-1' }],
      provisioning: { controller: 'metallb-l2' },
      workload: { count: 0 },
      horizonMs: 60_000,
    });
    for (const w of tl.deadNodeWindows) {
      const t = deadNodeText(w, tl);
      expect(`${t.balancer.headline} ${t.balancer.detail}`).not.toMatch(/probe|threshold/);
      if (w.wasInRotation) expect(t.balancer.detail).toContain('memberlist');
    }
  });
});

describe('connection paths in words', () => {
  it('a connection into the dead node is "blackholed at node-1 (down)"; one DNATed to its Pod names it', () => {
    const into = failAt50.connections.find(
      (c) => c.lbTarget === 'node-1' && c.openedAt >= 50_000 && c.openedAt < 73_000,
    )!;
    expect(pathText(into, failAt50)).toBe('blackholed at node-1 (down)');
    const stale = failAt50.connections.find(
      (c) => c.lbTarget === 'node-2' && c.endpoint === '10.244.1.5:8080' && c.openedAt >= 50_000,
    )!;
    expect(pathText(stale, failAt50)).toBe('node-2 → 10.244.1.5:8080 on node-1 (down): no answer');
    const ok = failAt50.connections.find((c) => c.pod && c.crossNode)!;
    expect(pathText(ok, failAt50)).toMatch(/^node-\d → web-6d8f9c7b5-\w+ \(cross-node\) · SNAT$/);
  });
});

describe('rotation lanes', () => {
  it('a registered node that never passes is out of rotation, "never passed", from its registration', () => {
    // Local policy: node-2 has no Pod, so its healthCheckNodePort answers 503 from the start.
    const { timeline } = runTimeline(
      canonicalObjects(),
      { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' },
      INITIAL_TIME,
    );
    expect(timeline.registeredAt).toBe(35_200);
    const spans = rotationSpans(
      timeline.rotation,
      'node-2',
      timeline.settings.horizonMs,
      registrationOf(timeline),
    );
    expect(spans).toEqual([
      {
        from: 0,
        to: 35_200,
        state: 'unregistered',
        reason: 'not a target of the load balancer yet',
      },
      {
        from: 35_200,
        to: timeline.settings.horizonMs,
        state: 'out',
        reason: 'registered as a target: out of rotation until it passes its health check',
        neverPassed: true,
      },
    ]);
  });
});
