import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../index';
import { fillGaps } from './fill';
import { loadObjects } from './load';

/** The canonical Service's endpoints as an older cluster's `kubectl get endpoints web -o yaml`. */
const ENDPOINTS = `apiVersion: v1
kind: Endpoints
metadata:
  name: web
  namespace: default
subsets:
- addresses:
  - ip: 10.244.1.5
    nodeName: node-1
    targetRef: {kind: Pod, namespace: default, name: web-6d8f9c7b5-x2k4p}
  notReadyAddresses:
  - ip: 10.244.3.9
    nodeName: node-3
    targetRef: {kind: Pod, namespace: default, name: web-6d8f9c7b5-q7m9z}
  ports:
  - name: http
    port: 8080
    protocol: TCP
`;

describe('Endpoints (v1) from older clusters', () => {
  it('are read and mirrored into an EndpointSlice (EndpointSlice mirroring controller), ready and not-ready kept apart', () => {
    const objects = [
      ...canonicalObjects().filter((o) => o.kind !== 'EndpointSlice'),
      ...loadObjects(ENDPOINTS).objects,
    ];
    const filled = fillGaps(objects);
    expect(filled.assumed[0]).toBe(
      'Endpoints default/web mirrored into EndpointSlices, as the EndpointSlice mirroring controller does',
    );
    const r = runScene(filled.objects, DEFAULT_SCENE);
    const eps = r.cluster.endpoints['default/web:http'] ?? [];
    expect(eps.map((e) => [e.ip, e.port, e.nodeName, e.ready])).toEqual([
      ['10.244.1.5', 8080, 'node-1', true],
      ['10.244.3.9', 8080, 'node-3', false],
    ]);
    // Only the ready endpoint is in the rules, so every connection reaches 10.244.1.5.
    expect(r.trace.outcome).toMatchObject({ kind: 'delivered', podIP: '10.244.1.5' });
  });

  it('are ignored when the Service has its own EndpointSlice', () => {
    const filled = fillGaps([...canonicalObjects(), ...loadObjects(ENDPOINTS).objects]);
    expect(filled.assumed[0]).toBe('Endpoints default/web skipped: its EndpointSlice is given');
    expect(filled.objects.filter((o) => o.kind === 'EndpointSlice')).toHaveLength(1);
  });
});
