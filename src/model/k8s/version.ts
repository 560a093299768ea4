/**
 * The one Kubernetes version the model follows where releases differ.
 *
 * Facts that changed between releases are written for this version (and the tutorial's
 * "real output" samples are the model's output for it). The ones that pin it:
 * - kube-proxy's `:10256/healthz` body: JSON with RFC 3339 times, `healthy` and per-family
 *   `status` since 1.33 (kubernetes/kubernetes PR #129271,
 *   `pkg/proxy/healthcheck/proxy_health.go` `ProxyHealth`);
 * - nftables mode GA, and `ServiceCIDR` objects on by default, since 1.33;
 * - `node.kubernetes.io/exclude-from-external-load-balancers` read with `strconv.ParseBool`
 *   (a value `false` keeps the node a target) since 1.34 (kubernetes/kubernetes#131085,
 *   `src/model/cloud/exclude.ts`);
 * - `--node-monitor-grace-period` 50 s since 1.32 (`src/model/time/defaults.ts`).
 * Change it only together with those facts (and the samples' tests, src/tutorial/samples.test.ts).
 */
export const MODELLED_KUBERNETES_VERSION = '1.34';

/**
 * Whether `version` (`"1.34"`, `"v1.33.2"`) is at least `major.minor` of `atLeast`.
 * @throws Error when either is not a `MAJOR.MINOR[.PATCH]` version.
 */
export function versionAtLeast(version: string, atLeast: string): boolean {
  const parse = (v: string): [number, number] => {
    const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(v);
    if (!m) throw new Error(`Kubernetes version "${v}": expected MAJOR.MINOR, e.g. "1.34"`);
    return [Number(m[1]), Number(m[2])];
  };
  const [a, b] = parse(version);
  const [c, d] = parse(atLeast);
  return a > c || (a === c && b >= d);
}
