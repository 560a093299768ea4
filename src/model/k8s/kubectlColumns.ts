/**
 * `kubectl get svc`'s EXTERNAL-IP column, computed as kubectl's server-side printer computes it:
 * `getServiceExternalIP` and `loadBalancerStatusStringer` in kubernetes
 * `pkg/printers/internalversion/printers.go` (the API server builds the table; kubectl prints it).
 *
 * - ClusterIP and NodePort: `spec.externalIPs` comma-joined, else `<none>`.
 * - LoadBalancer: for each `status.loadBalancer.ingress[]` entry its `ip`, or its `hostname`
 *   when it has no `ip` (an entry with both shows only the IP), as a sorted set (duplicates
 *   once: `sets.NewString(...).List()`), comma-joined; then every `spec.externalIPs` entry as
 *   given (not deduplicated against the ingress); `<pending>` when both are empty.
 * - ExternalName: `spec.externalName`. Any other type: `<unknown>`.
 * - Not wide, the ingress part alone is clipped to 16 bytes: its first 13 and `...`
 *   (`loadBalancerWidth = 16`). `kubectl get` never shows the clipped form: the API server's
 *   table convertor always prints with `Wide: true` (`pkg/printers/storage/storage.go`,
 *   `ConvertToTable`), so the full list is what a user sees, and what {@link externalIPColumn}
 *   returns by default.
 */
import type { ServiceModel } from '../scenario/cluster';

/** One `status.loadBalancer.ingress[]` entry as the API holds it (either field may be absent). */
export interface IngressStatusLike {
  ip?: string;
  hostname?: string;
}

/** The fields of a Service the EXTERNAL-IP column reads (API field names, all optional but `type`). */
export interface ExternalIPColumnInput {
  /** `spec.type`; the API server defaults it to `ClusterIP`. */
  type: string;
  /** `spec.externalIPs` */
  externalIPs?: readonly string[];
  /** `spec.externalName` (type ExternalName). */
  externalName?: string;
  /** `status.loadBalancer.ingress` */
  ingress?: readonly IngressStatusLike[];
}

/** `loadBalancerWidth` in printers.go: the non-wide clip of the ingress list, in bytes. */
export const LOAD_BALANCER_WIDTH = 16;

/**
 * `loadBalancerStatusStringer`: the ingress entries' IPs (else hostnames), sorted, each once,
 * comma-joined; clipped to {@link LOAD_BALANCER_WIDTH} with `...` when not `wide`. Empty string
 * when no entry has either.
 */
export function loadBalancerStatusString(
  ingress: readonly IngressStatusLike[],
  wide: boolean,
): string {
  const set = new Set<string>();
  for (const i of ingress) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  // Go's sets.String.List() sorts by byte order, as does the default JS sort for ASCII.
  const r = [...set].sort().join(',');
  if (!wide && r.length > LOAD_BALANCER_WIDTH) return `${r.slice(0, LOAD_BALANCER_WIDTH - 3)}...`;
  return r;
}

/**
 * The EXTERNAL-IP cell of `kubectl get svc` for `svc` (`getServiceExternalIP`).
 * @param options.wide default true: what `kubectl get` shows (the server prints wide, see the
 *   file's comment); false gives printers.go's clipped, non-wide form.
 */
export function externalIPColumn(
  svc: ExternalIPColumnInput,
  options: { wide?: boolean } = {},
): string {
  const wide = options.wide ?? true;
  const externalIPs = svc.externalIPs ?? [];
  switch (svc.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIps = loadBalancerStatusString(svc.ingress ?? [], wide);
      if (externalIPs.length > 0)
        return [...(lbIps.length > 0 ? lbIps.split(',') : []), ...externalIPs].join(',');
      return lbIps.length > 0 ? lbIps : '<pending>';
    }
    case 'ExternalName':
      return svc.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/**
 * {@link externalIPColumn} of a resolved Service (`ServiceModel`): its type, `externalIPs`
 * and every `status.loadBalancer.ingress` entry (`statusIngress`; a hand-built model without
 * it falls back to the kube-proxy view, `ingress`).
 */
export function serviceExternalIP(
  svc: Pick<ServiceModel, 'type' | 'externalIPs' | 'ingress' | 'statusIngress'>,
  options: { wide?: boolean } = {},
): string {
  return externalIPColumn(
    {
      type: svc.type,
      externalIPs: svc.externalIPs,
      ingress: svc.statusIngress ?? svc.ingress.map((i) => ({ ip: i.ip })),
    },
    options,
  );
}
