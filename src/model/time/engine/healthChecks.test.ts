/**
 * What the balancer's health check gets back, per node and policy, as kube-proxy writes it:
 * - Cluster: `GET :10256/healthz` (pkg/proxy/healthcheck/proxy_health.go): 200 with, since
 *   Kubernetes 1.33 (PR #129271; the model declares 1.34), `json.Marshal` of `ProxyHealth`:
 *   RFC 3339 times, `nodeEligible`, `healthy` and the per-family `status`.
 * - Local: `healthCheckNodePort` (service_health.go): 200 when the node has local ready
 *   endpoints, else 503, body the dedented JSON with `localEndpoints`.
 * - A dead node answers nothing: the probe fails when its timeout runs out.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../index';
import { simulate } from '../index';

const HC = { intervalSeconds: 5, timeoutSeconds: 2, healthyThreshold: 2, unhealthyThreshold: 2 };

describe('health-check responses', () => {
  it('Cluster: kube-proxy /healthz on 10256 answers 200 with its timestamps on every live node', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [],
      healthCheck: HC,
      workload: { count: 0 },
      horizonMs: 10_000,
    });
    const p = tl.probes.find((x) => x.node === 'node-1' && x.at === 5000);
    expect(p?.target).toBe('http://192.168.0.11:10256/healthz');
    expect(p?.status).toBe(200);
    // 5 s after t = 0 (2025-01-01T00:00:00Z); kube-proxy started, and last synced, at t = 0.
    expect(p?.body).toBe(
      '{"lastUpdated":"2025-01-01T00:00:05Z","currentTime":"2025-01-01T00:00:05Z","nodeEligible":true,"healthy":true,"status":{"IPv4":{"lastUpdated":"2025-01-01T00:00:00Z","healthy":true}}}',
    );
    // node-2 has no Pod of web, and Cluster policy does not care: 200 too.
    expect(tl.probes.filter((x) => x.node === 'node-2').every((x) => x.status === 200)).toBe(true);
  });

  it('Cluster with a TCP check on the NodePort: no HTTP status, success while an endpoint exists', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [],
      healthCheck: { ...HC, clusterTarget: 'nodePort' },
      workload: { count: 0 },
      horizonMs: 5000,
    });
    const p = tl.probes.find((x) => x.node === 'node-2');
    expect([p?.target, p?.status, p?.ok]).toEqual(['tcp://192.168.0.12:31000', null, true]);
  });

  it('Local: healthCheckNodePort answers 200 with localEndpoints 1 on node-1, 503 with 0 on node-2', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' },
      events: [],
      healthCheck: HC,
      workload: { count: 0 },
      horizonMs: 5000,
    });
    const body = (n: number) =>
      `{\n\t"service": {\n\t\t"namespace": "default",\n\t\t"name": "web"\n\t},\n\t"localEndpoints": ${n},\n\t"serviceProxyHealthy": true\n}`;
    const n1 = tl.probes.find((x) => x.node === 'node-1');
    const n2 = tl.probes.find((x) => x.node === 'node-2');
    // 32191: the healthCheckNodePort the scene allocates when the policy becomes Local.
    expect([n1?.target, n1?.status, n1?.body, n1?.ok]).toEqual([
      'http://192.168.0.11:32191/healthz',
      200,
      body(1),
      true,
    ]);
    expect([n2?.target, n2?.status, n2?.body, n2?.ok]).toEqual([
      'http://192.168.0.12:32191/healthz',
      503,
      body(0),
      false,
    ]);
    // node-2 was never in rotation: a steady 503 keeps it out.
    expect(tl.epochs[0]?.inRotation).toEqual(['node-1', 'node-3']);
  });

  it('a dead node: no status, no body, failure known only when the timeout runs out', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [{ at: 1000, kind: 'fail-node', node: 'node-3' }],
      healthCheck: HC,
      workload: { count: 0 },
      horizonMs: 10_000,
    });
    const p = tl.probes.find((x) => x.node === 'node-3' && x.at === 3333);
    expect([p?.status, p?.body, p?.ok, p?.doneAt]).toEqual([null, '', false, 5333]);
  });

  it('Local, a node whose only Pod is terminating answers 503 although kube-proxy still serves that Pod', () => {
    const tl = simulate({
      objects: canonicalObjects(),
      scene: { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' },
      events: [{ at: 2000, kind: 'kill-pod', pod: 'web-6d8f9c7b5-x2k4p' }],
      healthCheck: HC,
      controlPlane: { endpointPropagationMs: 1000, readinessDelayMs: 60_000 },
      workload: { count: 0 },
      horizonMs: 20_000,
    });
    // Probe at 5 s (after the 3 s sync): 503, localEndpoints 0 (the health server counts ready endpoints only).
    const p = tl.probes.find((x) => x.node === 'node-1' && x.at === 5000);
    expect(p?.status).toBe(503);
    expect(p?.body).toContain('"localEndpoints": 0');
    // Yet a connection the balancer still sends to node-1 reaches the terminating Pod (KEP-1669 fallback).
    const e = tl.epochs.find((x) => x.from === 3000);
    expect(
      e?.paths.filter((x) => x.lbTarget === 'node-1').map((x) => [x.endpoint, x.outcome]),
    ).toEqual([['10.244.1.5:8080', 'delivered']]);
  });
});
