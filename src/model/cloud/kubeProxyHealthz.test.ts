/**
 * kube-proxy's `:10256/healthz` answer, per Kubernetes version. Expected bodies transcribed
 * from kubernetes/kubernetes `pkg/proxy/healthcheck/proxy_health.go` and its tests
 * (`healthcheck_test.go` `TestHealthzServer`, `testProxyHealthUpdater`):
 * - 1.33 and later (PR #129271): `json.Marshal(ProxyHealth)`; struct order `lastUpdated`,
 *   `currentTime`, `nodeEligible` (`*bool`, set by the /healthz handler), `healthy`, `status`
 *   (map keyed by `v1.IPFamily`, each `{"lastUpdated","healthy"}`); `time.Time` marshals as
 *   RFC 3339 with nanoseconds, trailing zeros dropped. A healthy answer sets the top-level
 *   `lastUpdated` to now, the per-family one stays the proxier's last `Updated()`. A node with
 *   `ToBeDeletedByClusterAutoscaler` answers 503 with `"nodeEligible":false` but
 *   `"healthy":true` (TestHealthzServer: `Healthy: true, NodeEligible: ptr.To(false)`).
 * - before 1.33: `{"lastUpdated": %q,"currentTime": %q, "nodeEligible": %v}`, Go's String()
 *   of a time.Time with its monotonic reading.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../scenario/canonical';
import { resolveCluster } from '../scenario/resolve';
import { MODELLED_KUBERNETES_VERSION, versionAtLeast } from '../k8s/version';
import { probeNode } from './healthCheck';
import { goJsonTime, kubeProxyHealthz } from './kubeProxyHealthz';

const T0 = Date.UTC(2025, 5, 11, 9, 0, 0); // kube-proxy started
const SYNC = Date.UTC(2025, 5, 11, 9, 11, 40, 250);
const NOW = Date.UTC(2025, 5, 11, 9, 12, 3, 418);

describe("kube-proxy's /healthz answer", () => {
  it('declares one version, at least 1.33: the JSON body is the default', () => {
    expect(MODELLED_KUBERNETES_VERSION).toMatch(/^1\.\d+$/);
    expect(versionAtLeast(MODELLED_KUBERNETES_VERSION, '1.33')).toBe(true);
    const a = kubeProxyHealthz({ nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: true });
    expect(a).toEqual(
      kubeProxyHealthz(
        { nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: true },
        MODELLED_KUBERNETES_VERSION,
      ),
    );
    expect(a.body.startsWith('{"lastUpdated":"')).toBe(true);
  });

  it('1.33+, eligible: 200, top-level lastUpdated is now, IPv4 keeps its last sync', () => {
    expect(
      kubeProxyHealthz({ nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: true }, '1.33'),
    ).toEqual({
      status: 200,
      body: '{"lastUpdated":"2025-06-11T09:12:03.418Z","currentTime":"2025-06-11T09:12:03.418Z","nodeEligible":true,"healthy":true,"status":{"IPv4":{"lastUpdated":"2025-06-11T09:11:40.25Z","healthy":true}}}',
    });
  });

  it('1.33+, ToBeDeletedByClusterAutoscaler: 503, nodeEligible false, healthy still true, lastUpdated the last sync', () => {
    expect(
      kubeProxyHealthz(
        { nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: false },
        '1.34',
      ),
    ).toEqual({
      status: 503,
      body: '{"lastUpdated":"2025-06-11T09:11:40.25Z","currentTime":"2025-06-11T09:12:03.418Z","nodeEligible":false,"healthy":true,"status":{"IPv4":{"lastUpdated":"2025-06-11T09:11:40.25Z","healthy":true}}}',
    });
  });

  it('1.32: the Fprintf body with Go String() times and the monotonic reading', () => {
    expect(
      kubeProxyHealthz(
        { nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: false },
        'v1.32.4',
      ),
    ).toEqual({
      status: 503,
      body: '{"lastUpdated": "2025-06-11 09:11:40.25 +0000 UTC m=+700.250000000","currentTime": "2025-06-11 09:12:03.418 +0000 UTC m=+723.418000000", "nodeEligible": false}',
    });
  });

  it('RFC 3339 times as Go marshals them: no fraction when whole seconds, trailing zeros dropped', () => {
    expect(goJsonTime(Date.UTC(2025, 0, 1, 0, 0, 5))).toBe('2025-01-01T00:00:05Z');
    expect(goJsonTime(Date.UTC(2025, 0, 1, 0, 0, 5, 100))).toBe('2025-01-01T00:00:05.1Z');
  });

  it('rejects a version that is not MAJOR.MINOR', () => {
    expect(() =>
      kubeProxyHealthz(
        { nowMs: NOW, lastSyncMs: SYNC, startedMs: T0, nodeEligible: true },
        'latest',
      ),
    ).toThrow('Kubernetes version "latest": expected MAJOR.MINOR, e.g. "1.34"');
  });

  it('a probe outside time (no clock) keeps the shape and writes … for every time', () => {
    const cluster = resolveCluster(canonicalObjects());
    const r = probeNode(cluster, cluster.services[0]!, cluster.nodes[0]!);
    expect([r.target, r.status, r.body]).toEqual([
      'http://192.168.0.11:10256/healthz',
      200,
      '{"lastUpdated":"…","currentTime":"…","nodeEligible":true,"healthy":true,"status":{"IPv4":{"lastUpdated":"…","healthy":true}}}',
    ]);
  });
});
