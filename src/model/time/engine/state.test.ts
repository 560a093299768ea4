/**
 * The one state object: the typed look-ups name what is missing, and the state at t = 0 is the
 * input's. Facts: the canonical scenario (DESIGN.md) has nodes node-1, node-2, node-3 and two
 * ready Pods of web, on node-1 and node-3; the EndpointSlice controller gives a ready Pod that
 * is not terminating `ready: true, serving: true, terminating: false` (utils.go
 * `podToEndpoint`); the service controller leaves out of the balancer's targets a node
 * labelled `node.kubernetes.io/exclude-from-external-load-balancers` (`nodeIncludedPredicate`).
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../../index';
import { activePods, nodeOf, podList, standingOf, world } from './state';
import { testSim } from './testSim';

describe('typed look-ups', () => {
  const sim = testSim();

  it('return the node or the standing asked for', () => {
    expect(nodeOf(sim, 'node-2')).toMatchObject({ name: 'node-2', ip: '192.168.0.12', up: true });
    expect(standingOf(sim, 'node-3')).toEqual({ succ: 0, fail: 0, inRotation: false });
  });

  it('throw an Error naming the missing id (and the nodes there are)', () => {
    expect(() => nodeOf(sim, 'node-9')).toThrow(
      'time engine: no node "node-9" (nodes: node-1, node-2, node-3)',
    );
    expect(() => standingOf(sim, 'node-9')).toThrow(
      'time engine: no health-check standing for node "node-9"',
    );
  });
});

describe('the state at t = 0', () => {
  it('holds the input Pods, their ready endpoints, replicas and policy', () => {
    const sim = testSim();
    expect(podList(sim).map((p) => [p.name, p.node, p.ip, p.phase, p.ready])).toEqual([
      ['web-6d8f9c7b5-q7m9z', 'node-3', '10.244.3.9', 'Running', true],
      ['web-6d8f9c7b5-x2k4p', 'node-1', '10.244.1.5', 'Running', true],
    ]);
    expect(activePods(sim)).toHaveLength(2);
    expect(sim.desired).toBe(2);
    expect(sim.apiEndpoints.map((e) => [e.ip, e.ready, e.serving, e.terminating])).toEqual([
      ['10.244.3.9', true, true, false],
      ['10.244.1.5', true, true, false],
    ]);
    // kube-proxy starts with what the API holds.
    expect(sim.kp.endpoints).toBe(sim.apiEndpoints);
    expect([sim.apiPolicy, sim.kp.policy, sim.lb.hcPolicy]).toEqual([
      'Cluster',
      'Cluster',
      'Cluster',
    ]);
  });

  it('has nothing provisioned, published or in rotation yet', () => {
    const sim = testSim();
    expect(sim.lb).toEqual({
      registered: false,
      published: false,
      hcPolicy: 'Cluster',
      leader: null,
      registeredAt: null,
    });
    const w = world(sim);
    expect([w.published, w.inRotation, w.announcingNode]).toEqual([false, [], null]);
    expect(w.nodes.map((n) => [n.name, n.up, n.readyCondition, n.taints])).toEqual([
      ['node-1', true, 'True', []],
      ['node-2', true, 'True', []],
      ['node-3', true, 'True', []],
    ]);
  });

  it('leaves a node labelled exclude-from-external-load-balancers out of the targets', () => {
    const objects = canonicalObjects();
    for (const o of objects)
      if (o.kind === 'Node' && o.metadata?.name === 'node-2')
        o.metadata.labels = {
          ...o.metadata.labels,
          'node.kubernetes.io/exclude-from-external-load-balancers': 'true',
        };
    const sim = testSim({}, objects);
    expect(sim.cfg.targets).toEqual(['node-1', 'node-3']);
    expect(nodeOf(sim, 'node-2')).toMatchObject({ excludeLabel: true, excludedFromCloud: true });
  });

  it('keeps the taints it manages as keys and an input NoSchedule taint as blocking', () => {
    const objects = canonicalObjects();
    const cp = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
    const cordon = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
    for (const o of objects)
      if (o.kind === 'Node' && o.metadata?.name === 'node-2')
        o.spec = { ...o.spec, unschedulable: true, taints: [cp, cordon] };
    const n = nodeOf(testSim({}, objects), 'node-2');
    expect([...n.taints]).toEqual(['node.kubernetes.io/unschedulable']);
    expect(n.blocking).toEqual([cp]);
    expect(n.unschedulable).toBe(true);
  });
});
