/**
 * Graceful termination over time: drain (cordon + eviction), the endpoint's
 * `ready:false, serving:true, terminating:true` while the Pod runs its grace period, the
 * ReplicaSet's replacement, and what happens to open connections: drained when they close
 * in time, reset when still open at SIGKILL (terminationGracePeriodSeconds after the
 * deletion).
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../index';
import { simulate } from '../index';

describe('kubectl drain node-3 at 10 s (grace period 30 s)', () => {
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [{ at: 10_000, kind: 'drain-node', node: 'node-3' }],
    controlPlane: {
      terminationGracePeriodSeconds: 30,
      endpointPropagationMs: 1000,
      readinessDelayMs: 5000,
    },
    workload: {
      count: 0,
      longLived: [
        { client: 'internet', openedAt: 1000, closesAt: 25_000 },
        { client: 'internet', openedAt: 2000 },
        { client: 'internet', openedAt: 3000 },
        { client: 'internet', openedAt: 4000 },
        { client: 'internet', openedAt: 5000 },
        { client: 'internet', openedAt: 6000 },
      ],
    },
    horizonMs: 60_000,
    seed: 2,
  });

  it('cordons, sends SIGTERM, marks the endpoint serving+terminating and creates a replacement', () => {
    const reasons = tl.entries.filter((e) => e.at === 10_000 && e.reason).map((e) => e.reason);
    expect(reasons).toEqual(['NodeNotSchedulable', 'Killing', 'SuccessfulCreate', 'Scheduled']);
    expect(tl.entries.find((e) => e.kind === 'endpoints' && e.at === 10_000)?.message).toContain(
      '10.244.3.9 now ready:false serving:true terminating:true',
    );
    // The replacement goes to the node with fewest replicas among schedulable ones: node-2.
    expect(tl.entries.find((e) => e.reason === 'Scheduled')?.message).toMatch(/to node-2$/);
  });

  it('kills the Pod at 40 s (10 s + 30 s grace) and removes its endpoint', () => {
    const kill = tl.entries.find((e) => e.kind === 'pod' && e.message.includes('SIGKILL'));
    expect(kill?.at).toBe(40_000);
    const after = tl.epochs.find((e) => e.from === 41_000);
    expect(after?.paths.some((p) => p.endpoint === '10.244.3.9:8080')).toBe(false);
  });

  it('drains the connection that closes at 25 s and resets those still open to the Pod at 40 s', () => {
    const toPod = tl.connections.filter((c) => c.pod === 'default/web-6d8f9c7b5-q7m9z');
    expect(toPod.length).toBeGreaterThan(0);
    for (const c of toPod) {
      if (c.id === 'long0') expect([c.fate, c.endedAt]).toEqual(['drained', 25_000]);
      else expect([c.fate, c.endedAt]).toEqual(['reset', 40_000]);
    }
    for (const c of tl.connections.filter((x) => x.pod === 'default/web-6d8f9c7b5-x2k4p'))
      expect(c.fate === 'open' || c.fate === 'completed').toBe(true);
  });
});
