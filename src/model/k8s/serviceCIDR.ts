/**
 * ServiceCIDRs (`networking.k8s.io/v1`, GA in 1.33) as the API server's ClusterIP allocator and
 * kube-proxy read them.
 *
 * - kube-proxy (pkg/proxy/config/config.go `ServiceCIDRConfig.handleServiceCIDREvent`) takes the
 *   union of every ServiceCIDR's `spec.cidrs`, whatever its status, and the IPv4 proxier keeps
 *   the IPv4 ones (pkg/proxy/nftables/proxier.go `OnServiceCIDRsChanged`).
 * - The allocator (pkg/registry/core/service/ipallocator/cidrallocator.go `syncAllocators`,
 *   `isReady`) allocates only from a ServiceCIDR that is not being deleted and whose `Ready`
 *   condition is True, or that has no `Ready` condition yet ("assume the ServiceCIDR is Ready,
 *   in order to handle scenarios where kcm is not running").
 * - Without any ServiceCIDR the model assumes the default one kube-apiserver writes, named
 *   `kubernetes` (pkg/controlplane/controller/defaultservicecidr), for kubeadm's default
 *   `serviceSubnet` 10.96.0.0/12 (cmd/kubeadm/app/apis/kubeadm/v1beta4/defaults.go `DefaultServicesSubnet`), which
 *   kubeadm passes as kube-apiserver's `--service-cluster-ip-range`. (kube-apiserver's own
 *   built-in default, 10.0.0.0/24, is deprecated and no installer relies on it.)
 */
import { cidrContains, isIPv4 } from '../net/ip';
import type { ScenarioObject, ServiceCIDR } from './objects';

/** The range assumed when the input holds no ServiceCIDR: kubeadm's default `serviceSubnet`. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';

/** The name of the ServiceCIDR kube-apiserver writes from `--service-cluster-ip-range`. */
export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';

/** The words the model uses for the default range wherever it assumes it. */
export const DEFAULT_SERVICE_CIDR_ORIGIN =
  "kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range";

/** One ServiceCIDR reduced to what the model reads. */
export interface ServiceCIDRModel {
  /** `metadata.name` (`kubernetes` for the default one). */
  name: string;
  /** The IPv4 entries of `spec.cidrs` (the model is IPv4-only; an IPv6 entry is left out). */
  cidrs: string[];
  /** Whether the allocator hands out addresses from it (see the module comment). */
  ready: boolean;
  /** True when the input had no ServiceCIDR and this is the assumed default. */
  assumed?: boolean;
}

/** A well-formed IPv4 CIDR `a.b.c.d/n` (0 ≤ n ≤ 32). Never throws. */
export function isIPv4CIDR(s: string): boolean {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(s);
  return !!m && isIPv4(m[1] ?? '') && Number(m[2]) <= 32;
}

/** The allocator's reading of a ServiceCIDR's readiness (cidrallocator.go `isReady`). */
function allocatable(o: ServiceCIDR): boolean {
  if (o.metadata?.deletionTimestamp) return false;
  const conditions: unknown[] = Array.isArray(o.status?.conditions) ? o.status.conditions : [];
  const ready = conditions.find((c) => (c as { type?: unknown } | null)?.type === 'Ready');
  return ready === undefined || (ready as { status?: unknown }).status === 'True';
}

/** The default ServiceCIDR the model assumes when none is given. */
export function defaultServiceCIDR(): ServiceCIDRModel {
  return {
    name: DEFAULT_SERVICE_CIDR_NAME,
    cidrs: [DEFAULT_SERVICE_CIDR],
    ready: true,
    assumed: true,
  };
}

/**
 * Why the default range cannot be this cluster's, or undefined when nothing contradicts it: a
 * given ClusterIP outside it (the API server allocates only from its ServiceCIDRs), or a Pod,
 * endpoint or Node address inside it (Service and Pod/Node ranges do not overlap in a working
 * cluster). Reads the raw objects; never throws.
 */
function defaultContradicted(objects: readonly unknown[]): string | undefined {
  const inDefault = (ip: string) => cidrContains(DEFAULT_SERVICE_CIDR, ip);
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  for (const raw of objects) {
    const o = (raw ?? {}) as ScenarioObject;
    if (o.kind === 'Service') {
      const ip = str(o.spec?.clusterIP);
      if (isIPv4(ip) && !inDefault(ip))
        return `ClusterIP ${ip} of Service ${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''} lies outside it`;
    } else if (o.kind === 'Pod') {
      const ip = str(o.status?.podIP);
      if (isIPv4(ip) && inDefault(ip))
        return `it holds ${ip}, the address of Pod ${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`;
    } else if (o.kind === 'Node') {
      for (const a of list(o.status?.addresses)) {
        const ip = str((a as { address?: unknown } | null)?.address);
        if (isIPv4(ip) && inDefault(ip))
          return `it holds ${ip}, an address of Node ${o.metadata?.name ?? ''}`;
      }
    } else if (o.kind === 'EndpointSlice') {
      for (const e of list(o.endpoints)) {
        const ip = str(list((e as { addresses?: unknown } | null)?.addresses)[0]);
        if (isIPv4(ip) && inDefault(ip))
          return `it holds ${ip}, an endpoint of EndpointSlice ${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`;
      }
    }
  }
  return undefined;
}

/** What {@link serviceCIDRsOf} found, with the assumption it made in words (if any). */
export interface ServiceCIDRsRead {
  /** The given ServiceCIDRs in input order; the assumed default; or none (see `assumed`). */
  models: ServiceCIDRModel[];
  /** The assumption, in plain words, when the input holds no ServiceCIDR. */
  assumed?: string;
}

/**
 * The input's ServiceCIDR objects, in input order. Without any: the assumed default (one model
 * flagged `assumed`), unless the input contradicts it (a ClusterIP outside it, a Pod, endpoint
 * or Node address inside it) — then no range is assumed at all, which is kube-proxy's state
 * before it learns one (nftables then writes no "Drop traffic to unallocated ClusterIPs"
 * rule), and the words say why. Entries of `spec.cidrs` that are not IPv4 CIDRs are left out
 * (the validator reports malformed ones).
 */
export function serviceCIDRsOf(objects: readonly unknown[]): ServiceCIDRsRead {
  const given = objects.filter(
    (o): o is ServiceCIDR => (o as ScenarioObject | null)?.kind === 'ServiceCIDR',
  );
  if (given.length === 0) {
    const why = defaultContradicted(objects);
    if (why)
      return {
        models: [],
        assumed: `no Service CIDR: no ServiceCIDR given, and ${DEFAULT_SERVICE_CIDR} (${DEFAULT_SERVICE_CIDR_ORIGIN}) cannot be this cluster's: ${why}; give its ServiceCIDRs (kubectl get servicecidrs -o yaml)`,
      };
    const d = defaultServiceCIDR();
    return {
      models: [d],
      assumed: `ServiceCIDR ${d.name} ${d.cidrs.join(',')}: no ServiceCIDR given; ${DEFAULT_SERVICE_CIDR_ORIGIN}`,
    };
  }
  return {
    models: given.map((o) => ({
      name: typeof o.metadata?.name === 'string' ? o.metadata.name : '',
      cidrs: (Array.isArray(o.spec?.cidrs) ? o.spec.cidrs : []).filter(
        (c): c is string => typeof c === 'string' && isIPv4CIDR(c),
      ),
      ready: allocatable(o),
    })),
  };
}

/** kube-proxy's IPv4 Service CIDRs: the union of every ServiceCIDR's IPv4 `spec.cidrs`, first seen first. */
export function proxyServiceCIDRs(models: readonly ServiceCIDRModel[]): string[] {
  return [...new Set(models.flatMap((m) => m.cidrs))];
}
