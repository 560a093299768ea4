/**
 * Paths are per client: a Service's `spec.loadBalancerSourceRanges` lets one source in and
 * drops another at the node (kube-proxy pkg/proxy/iptables/proxier.go: the KUBE-FW- chain
 * jumps allowed sources on to KUBE-EXT- and sends the rest to KUBE-MARK-DROP, "other traffic
 * to loadbalancer IP is dropped"). A long-lived connection from another client than the
 * workload's must be traced as that client, not take the workload client's paths.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import type { ScenarioObject } from '../k8s/objects';
import { simulate } from './index';

function withSourceRanges(ranges: string[]): ScenarioObject[] {
  return canonicalObjects().map((o) =>
    o.kind === 'Service'
      ? ({ ...o, spec: { ...o.spec, loadBalancerSourceRanges: ranges } } as ScenarioObject)
      : o,
  );
}

describe('simulate traces each client as itself', () => {
  it('loadBalancerSourceRanges: the allowed workload is delivered, a long-lived outsider is not', () => {
    const tl = simulate({
      objects: withSourceRanges(['198.51.100.23/32']),
      scene: { ...DEFAULT_SCENE, delivery: 'LoadBalancerIP' },
      events: [],
      workload: {
        count: 50,
        startMs: 0,
        periodMs: 10_000,
        client: '198.51.100.23',
        longLived: [{ client: '192.0.2.99', openedAt: 1000 }],
      },
      horizonMs: 20_000,
      seed: 1,
    });
    const short = tl.connections.filter((c) => !c.longLived);
    expect(short).toHaveLength(50);
    for (const c of short) expect(c.outcome).toBe('delivered');
    const long = tl.connections.find((c) => c.longLived);
    expect(long?.outcome).not.toBe('delivered');
  });

  it('and the other way round: an outsider workload is not delivered, an allowed long-lived one is', () => {
    const tl = simulate({
      objects: withSourceRanges(['192.0.2.99/32']),
      scene: { ...DEFAULT_SCENE, delivery: 'LoadBalancerIP' },
      events: [],
      workload: {
        count: 50,
        startMs: 0,
        periodMs: 10_000,
        client: '198.51.100.23',
        longLived: [{ client: '192.0.2.99', openedAt: 1000 }],
      },
      horizonMs: 20_000,
      seed: 1,
    });
    for (const c of tl.connections.filter((x) => !x.longLived))
      expect(c.outcome).not.toBe('delivered');
    expect(tl.connections.find((c) => c.longLived)?.outcome).toBe('delivered');
  });
});
