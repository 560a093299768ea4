/**
 * kube-proxy's own health answer, `GET :10256/healthz` (`healthzBindAddress`), as the
 * declared Kubernetes version writes it ({@link MODELLED_KUBERNETES_VERSION}).
 *
 * Source: kubernetes/kubernetes `pkg/proxy/healthcheck/proxy_health.go`, `healthzHandler`:
 * - since 1.33 (PR #129271) the body is `json.Marshal` of `ProxyHealth`, fields in struct
 *   order: `lastUpdated`, `currentTime`, `nodeEligible` (set on /healthz only), `healthy`
 *   (the proxiers only, node eligibility aside), `status` (per IP family: the proxier's own
 *   `lastUpdated` and `healthy`); Go marshals a `time.Time` as RFC 3339 with nanoseconds,
 *   trailing zeros dropped (`time.RFC3339Nano`), and a UTC clock ends in `Z`;
 * - before 1.33: `fmt.Fprintf(resp, `{"lastUpdated": %q,"currentTime": %q, "nodeEligible": %v}`, …)`,
 *   times as `time.Time.String()` with the monotonic reading (`m=+…`).
 * Either way the status is 200 when healthy and eligible, else 503, and a healthy answer
 * reports `lastUpdated` as the current time ("to preserve compatibility").
 */
import { MODELLED_KUBERNETES_VERSION, versionAtLeast } from '../k8s/version';

/** What kube-proxy's health server knows when it answers. */
export interface KubeProxyHealthzInput {
  /** Now, in ms since the Unix epoch. */
  nowMs: number;
  /** The proxier's last successful rules sync (its `Updated()` call), ms since the Unix epoch. */
  lastSyncMs: number;
  /** When kube-proxy started, ms since the Unix epoch (only the pre-1.33 body shows it, as `m=+…`). */
  startedMs: number;
  /**
   * False once the Node has a `deletionTimestamp` or the `ToBeDeletedByClusterAutoscaler`
   * taint (`NodeEligible`, KEP-3836).
   */
  nodeEligible: boolean;
}

/** The answer: HTTP status and body, byte for byte. */
export interface KubeProxyHealthzAnswer {
  status: 200 | 503;
  body: string;
}

/** Go's `json.Marshal` of a UTC `time.Time`: RFC 3339, fraction without trailing zeros. */
export function goJsonTime(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2025-01-01T00:00:12.340Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

/** Go's `%q` of a UTC `time.Time` with a monotonic reading: `2025-01-01 00:00:12 +0000 UTC m=+12.000000000`. */
export function goStringTime(ms: number, startedMs: number): string {
  const iso = new Date(ms).toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  const mono = Math.max(0, (ms - startedMs) / 1000).toFixed(9);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC m=+${mono}`;
}

/**
 * kube-proxy's `/healthz` answer on an IPv4 single-stack node. The model's proxier is never
 * late (it syncs within `minSyncPeriod`, far below the 60 s `healthTimeout`), so `healthy` is
 * true and only node eligibility turns the answer into 503.
 * @param version a `MAJOR.MINOR` Kubernetes version; the model's declared one by default.
 * @throws Error when `version` is not `MAJOR.MINOR[.PATCH]`.
 */
export function kubeProxyHealthz(
  input: KubeProxyHealthzInput,
  version: string = MODELLED_KUBERNETES_VERSION,
): KubeProxyHealthzAnswer {
  const { nowMs, lastSyncMs, startedMs, nodeEligible } = input;
  const status = nodeEligible ? 200 : 503;
  // Healthy: lastUpdated is "now"; unhealthy (here: not eligible): the last sync.
  const topUpdatedMs = nodeEligible ? nowMs : lastSyncMs;
  if (!versionAtLeast(version, '1.33')) {
    const body = `{"lastUpdated": "${goStringTime(topUpdatedMs, startedMs)}","currentTime": "${goStringTime(nowMs, startedMs)}", "nodeEligible": ${nodeEligible}}`;
    return { status, body };
  }
  const body = JSON.stringify({
    lastUpdated: goJsonTime(topUpdatedMs),
    currentTime: goJsonTime(nowMs),
    nodeEligible,
    healthy: true,
    status: { IPv4: { lastUpdated: goJsonTime(lastSyncMs), healthy: true } },
  });
  return { status, body };
}
