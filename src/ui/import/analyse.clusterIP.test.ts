/**
 * Issue 14: a Service written by hand (no `spec.clusterIP`) showed "No problems found" and then
 * failed on Apply with `invalid IPv4 address: ""`. The importer now allocates the address the
 * API server would (../../model/import/allocate.ts) and lists it as assumed; the scene runs in
 * every mode. A headless Service beside it gets no rules and breaks nothing.
 */
import { describe, expect, it } from 'vitest';
import { runScene } from '../../model';
import { sceneForObjects } from '../../store/sceneForObjects';
import { analyse } from './analyse';

const TEXT = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: LoadBalancer
  selector:
    app: web
  ports:
    - port: 80
      targetPort: 8080
      nodePort: 31000
status:
  loadBalancer:
    ingress:
      - ip: 203.0.113.7
---
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  clusterIP: None
  selector:
    app: web
  ports:
    - port: 5432
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  labels:
    app: web
spec:
  nodeName: node-1
  containers:
    - name: web
      ports:
        - containerPort: 8080
status:
  phase: Running
  podIP: 10.244.1.5
  hostIP: 192.168.0.11
  conditions:
    - type: Ready
      status: "True"
`;

describe('a hand-written Service without spec.clusterIP', () => {
  const a = analyse(TEXT);

  it('has no problems, can be applied, and says which address it was given', () => {
    expect(a.problems).toEqual([]);
    expect(a.blocked).toBe('');
    expect(a.assumed[0]).toBe(
      "spec.clusterIP 10.96.1.1 for Service default/web, allocated from ServiceCIDR kubernetes (10.96.0.0/12, kubeadm's default, no ServiceCIDR given) as the API server would; it picks a free address at random, the model the lowest free one",
    );
  });

  it.each(['iptables', 'nftables', 'ipvs'] as const)('is traced end to end in %s mode', (mode) => {
    const scene = { ...sceneForObjects(a.objects, 1), proxyMode: mode };
    const r = runScene(a.objects, scene);
    expect(r.trace.outcome.kind).toBe('delivered');
    expect(r.cluster.kubeProxy.mode).toBe(mode);
    expect(r.rules['node-1']?.mode).toBe(mode);
  });
});
