/**
 * Generated clusters resolve as the canonical scenario does, and runScene's lazily generated
 * rules are the same rules, generated only when read.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, resolveCluster, runScene } from '../index';
import { proxyMode } from '../kube-proxy/modes';
import { generatedCluster, generatedNodeIP } from './generated';

describe('generatedCluster', () => {
  it('has the asked number of nodes and ready endpoints, spread round-robin', () => {
    const c = resolveCluster(generatedCluster({ nodes: 12, pods: 30 }));
    expect(c.nodes).toHaveLength(12);
    expect(c.nodes.map((n) => n.name).slice(0, 3)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(c.pods.filter((p) => p.ready)).toHaveLength(30);
    // 30 over 12 nodes: nodes 1-6 get 3, nodes 7-12 get 2.
    expect(c.pods.filter((p) => p.nodeName === 'node-1')).toHaveLength(3);
    expect(c.pods.filter((p) => p.nodeName === 'node-12')).toHaveLength(2);
  });

  it('splits endpoints into slices of 100 (the EndpointSlice controller default)', () => {
    const objs = generatedCluster({ nodes: 3, pods: 250 });
    const slices = objs.filter((o) => o.kind === 'EndpointSlice');
    expect(slices.map((s) => (s as { endpoints: unknown[] }).endpoints.length)).toEqual([
      100, 100, 50,
    ]);
  });

  it('keeps Pods on the first nodes with spreadOver', () => {
    const c = resolveCluster(generatedCluster({ nodes: 10, pods: 4, spreadOver: 2 }));
    expect(new Set(c.pods.map((p) => p.nodeName))).toEqual(new Set(['node-1', 'node-2']));
  });

  it('gives unique node addresses past 250 nodes', () => {
    expect(generatedNodeIP(1)).toBe('192.168.0.1');
    expect(generatedNodeIP(250)).toBe('192.168.0.250');
    expect(generatedNodeIP(251)).toBe('192.168.1.1');
    const ips = new Set(Array.from({ length: 1000 }, (_, i) => generatedNodeIP(i + 1)));
    expect(ips.size).toBe(1000);
  });

  it('refuses sizes it cannot address', () => {
    expect(() => generatedCluster({ nodes: 0, pods: 0 })).toThrow(/nodes must be/);
    expect(() => generatedCluster({ nodes: 2, pods: 600 })).toThrow(/do not fit/);
  });
});

describe('runScene rules', () => {
  it('are generated on first read and equal the eager generator’s', () => {
    const objects = canonicalObjects();
    const r = runScene(objects, DEFAULT_SCENE);
    expect(Object.keys(r.rules)).toEqual(['node-1', 'node-2', 'node-3']);
    const cluster = resolveCluster(objects);
    const node2 = r.rules['node-2'];
    expect(node2?.mode).toBe('iptables');
    expect(node2).toEqual(proxyMode('iptables').generate(cluster, 'node-2'));
    // Read twice, generated once: the same object comes back.
    expect(r.rules['node-2']).toBe(node2);
  });

  it('trace a 1,000-node cluster with the rules of the path only', () => {
    const r = runScene(generatedCluster({ nodes: 1000, pods: 1000 }), {
      ...DEFAULT_SCENE,
      dial: { kind: 'LoadBalancer' },
      choices: { lbTarget: 'node-500', endpoint: '10.244.244.2:8080' },
    });
    expect(Object.keys(r.rules)).toHaveLength(1000);
    expect(r.trace.outcome).toMatchObject({ kind: 'delivered' });
    const touched = Object.keys(r.rules).filter(
      (n) => Object.getOwnPropertyDescriptor(r.rules, n)?.get === undefined,
    );
    expect(touched.sort()).toEqual(['node-244', 'node-500']);
  });
});
