import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadObjects } from '../src/model/import/load';
import { generatedCluster } from '../src/model/scenario/generated';
import { clusterManifest } from './gen-cluster';

describe('gen-cluster', () => {
  const opts = { nodes: 3, pods: 5 };

  it('prints a v1 List as kubectl get -o yaml does: Services, EndpointSlices, Nodes, Pods', () => {
    const text = clusterManifest(opts);
    // kubectl's YAML printer sorts keys (apiVersion, items, kind, metadata) and does not indent
    // a sequence under its key.
    expect(text.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Service\n')).toBe(
      true,
    );
    const list = parse(text) as { kind: string; metadata: unknown; items: { kind: string }[] };
    expect(list.kind).toBe('List');
    expect(list.metadata).toEqual({ resourceVersion: '' });
    expect(list.items.map((o) => o.kind)).toEqual([
      'Service',
      'EndpointSlice',
      'Node',
      'Node',
      'Node',
      'Pod',
      'Pod',
      'Pod',
      'Pod',
      'Pod',
      'KubeProxyConfiguration',
      'CloudLoadBalancer',
      'Client',
    ]);
  });

  it('loads back into exactly the generated objects (YAML and JSON alike)', () => {
    const byKey = (os: { kind: string; metadata?: { name?: string } }[]) =>
      [...os].sort((a, b) =>
        `${a.kind}/${a.metadata?.name}`.localeCompare(`${b.kind}/${b.metadata?.name}`),
      );
    const want = byKey(generatedCluster(opts));
    expect(byKey(loadObjects(clusterManifest(opts)).objects)).toEqual(want);
    expect(byKey(loadObjects(clusterManifest({ ...opts, format: 'json' })).objects)).toEqual(want);
  });

  it('--kubectl-only leaves out the kinds kubectl does not print', () => {
    const kinds = new Set(
      loadObjects(clusterManifest({ ...opts, spreadOver: 1, kubectlOnly: true })).objects.map(
        (o) => o.kind,
      ),
    );
    expect([...kinds]).toEqual(['Service', 'EndpointSlice', 'Node', 'Pod']);
  });

  it('refuses sizes the generator refuses', () => {
    expect(() => clusterManifest({ nodes: 0, pods: 1 })).toThrow(RangeError);
  });
});
