import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../scenario/canonical';
import { completeScenario, loadObjects, LoadError } from './load';

describe('loadObjects', () => {
  it('reads the shipped canonical example back into exactly the canonical objects', () => {
    const text = readFileSync('public/examples/canonical.yaml', 'utf8');
    expect(loadObjects(text).objects).toEqual(canonicalObjects());
  });

  it('flattens a kind: List as kubectl get -o yaml prints it and names skipped kinds', () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: default}
  spec: {type: ClusterIP, clusterIP: 10.96.0.9, ports: [{port: 80}]}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: default}
`;
    const r = loadObjects(text);
    expect(r.objects.map((o) => o.kind)).toEqual(['Service']);
    expect(r.skipped).toEqual(['Deployment default/web']);
  });

  it('reads JSON too', () => {
    const r = loadObjects(
      JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } }),
    );
    expect(r.objects).toHaveLength(1);
  });

  it('names line and column of a YAML syntax error', () => {
    expect(() => loadObjects('kind: Service\nmetadata:\n  name: [web\n')).toThrow(LoadError);
    expect(() => loadObjects('kind: Service\nmetadata:\n  name: [web\n')).toThrow(
      /^line \d+, column \d+: /,
    );
  });

  it('refuses text with no usable object', () => {
    expect(() => loadObjects('kind: ConfigMap\n')).toThrow(
      'no Service, EndpointSlice, Node or Pod found',
    );
  });
});

describe('completeScenario', () => {
  it('adds an internet client and a NodePort-targeting balancer for a LoadBalancer Service, and says so', () => {
    const objs = canonicalObjects().filter(
      (o) => o.kind !== 'Client' && o.kind !== 'CloudLoadBalancer',
    );
    const r = completeScenario(objs);
    expect(r.assumed).toEqual([
      'a client on the internet at 198.51.100.23',
      'a cloud load balancer for default/web that targets NodePorts',
    ]);
    const lb = r.objects.find((o) => o.kind === 'CloudLoadBalancer');
    expect(lb && lb.kind === 'CloudLoadBalancer' ? lb.spec : undefined).toEqual({
      service: 'default/web',
      delivery: 'NodePort',
      address: '203.0.113.7',
    });
  });
});
