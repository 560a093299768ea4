/**
 * ClusterIP allocation as the API server does it for a Service created without
 * `spec.clusterIP` (what people write by hand): an address from a ServiceCIDR.
 *
 * Sources, kubernetes/kubernetes:
 * - `pkg/registry/core/service/ipallocator/ipallocator.go` (`NewIPAllocator`,
 *   `allocateNextService`, `hostsPerNetwork`): the network address is never handed out, nor an
 *   IPv4 range's broadcast address; KEP-3070 splits the range at
 *   `calculateRangeOffset` = min(max(16, size/16), 256) addresses above the first, and a
 *   dynamic allocation takes a free address of the upper band first, then of the lower
 *   (static) band. Within a band the API server starts at a random address; the model has no
 *   randomness at import, so it takes the band's lowest free address (10.96.1.1 for
 *   10.96.0.0/12) — the same kind of address, deterministically.
 * - `cidrallocator.go` (`MetaAllocator.AllocateNextService`): any ready ServiceCIDR of the
 *   family may serve (Go map order); the model tries them in input order.
 * - `pkg/controlplane/controller/kubernetesservice`: the first address of the primary range
 *   (10.96.0.1) belongs to Service `default/kubernetes`, which every cluster has.
 * - `pkg/registry/core/service/storage` (`normalizeClusterIPs`): a Service that gives
 *   `spec.clusterIPs` but no `spec.clusterIP` gets `clusterIPs[0]` as its `clusterIP`.
 */
import type { ScenarioObject, Service } from '../k8s/objects';
import { DEFAULT_SERVICE_CIDR_NAME, serviceCIDRsOf } from '../k8s/serviceCIDR';
import type { ServiceCIDRModel } from '../k8s/serviceCIDR';
import { ipToInt, isIPv4 } from '../net/ip';

/** The result of {@link allocateClusterIPs}. */
export interface Allocated {
  /** The objects in input order; a Service given a ClusterIP is replaced by a copy carrying it. */
  objects: ScenarioObject[];
  /** One note per Service changed or left without an address, in plain words. */
  assumed: string[];
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An IPv4 range's allocatable addresses and its KEP-3070 split, as unsigned integers. */
interface Band {
  first: number;
  last: number;
  /** The first address of the upper (dynamic) band. */
  offset: number;
}

function bandOf(cidr: string): Band | undefined {
  const [ip, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  const size = 2 ** (32 - bits);
  // hostsPerNetwork: 2^x − 2 for IPv4 (no network, no broadcast address).
  if (size < 4) return undefined;
  const base = ipToInt(ip ?? '') - (ipToInt(ip ?? '') % size);
  // calculateRangeOffset: 0 for a range of 16 addresses or fewer.
  const offset = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 16)), 256);
  return { first: base + 1, last: base + size - 2, offset: base + 1 + offset };
}

/** The lowest free address of `[from, to]`, or undefined. */
function lowestFree(from: number, to: number, used: Set<number>): number | undefined {
  for (let n = from; n <= to; n++) if (!used.has(n)) return n;
  return undefined;
}

/** `allocateNextService`: the upper band first, then the lower. */
function allocateFrom(band: Band, used: Set<number>): number | undefined {
  return lowestFree(band.offset, band.last, used) ?? lowestFree(band.first, band.offset - 1, used);
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isRecord = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Gives each Service that lacks `spec.clusterIP` the address the API server would allocate
 * (see the module comment). Headless (`None`) and ExternalName Services are left alone, as
 * is a Service whose `ipFamilies` asks for IPv6 first (the model is IPv4-only; it says so).
 * The input is not modified. Never throws on malformed objects (they are left as they are).
 */
export function allocateClusterIPs(objects: readonly ScenarioObject[]): Allocated {
  const assumed: string[] = [];
  const read = serviceCIDRsOf(objects);
  const ranges = read.models.filter((r) => r.ready && r.cidrs.length > 0);
  const used = new Set<number>();
  const services = objects.filter((o): o is Service & { kind: 'Service' } => o.kind === 'Service');
  for (const s of services)
    for (const ip of [text(s.spec?.clusterIP), ...list(s.spec?.clusterIPs).map(text)])
      if (isIPv4(ip)) used.add(ipToInt(ip));
  // The primary range's first address is default/kubernetes's, in every cluster.
  const primary =
    ranges.find((r) => r.name === DEFAULT_SERVICE_CIDR_NAME) ?? (ranges[0] as ServiceCIDRModel);
  const primaryBand = primary?.cidrs[0] ? bandOf(primary.cidrs[0]) : undefined;
  const kubernetesIP = primaryBand?.first;
  const isKubernetesService = (s: Service) =>
    (s.metadata?.namespace ?? 'default') === 'default' && s.metadata?.name === 'kubernetes';
  if (kubernetesIP !== undefined && !services.some(isKubernetesService)) used.add(kubernetesIP);

  const out = objects.map((o): ScenarioObject => {
    if (o.kind !== 'Service' || !isRecord(o.spec ?? {})) return o;
    const spec = o.spec ?? {};
    const given = text(spec.clusterIP);
    if (given !== '' || spec.type === 'ExternalName') return o;
    // text(): a name of the wrong shape (an object whose toString is not a function) must
    // not throw here; the validator reports it.
    const ns: unknown = o.metadata?.namespace;
    const key = `${typeof ns === 'string' ? ns : 'default'}/${text(o.metadata?.name)}`;
    const first = text(list(spec.clusterIPs)[0]);
    if (first !== '') {
      assumed.push(
        `spec.clusterIP ${first} for Service ${key}: taken from spec.clusterIPs[0], as the API server does`,
      );
      return { ...o, spec: { ...spec, clusterIP: first } };
    }
    if (list(spec.ipFamilies)[0] === 'IPv6') {
      assumed.push(
        `no ClusterIP for Service ${key}: its spec.ipFamilies asks for IPv6 first, and IPv6 is not modelled yet`,
      );
      return o;
    }
    let ip: number | undefined;
    let from: ServiceCIDRModel | undefined;
    let cidr = '';
    if (isKubernetesService(o) && kubernetesIP !== undefined && !used.has(kubernetesIP)) {
      [ip, from, cidr] = [kubernetesIP, primary, primary.cidrs[0] ?? ''];
    }
    for (const r of ranges) {
      if (ip !== undefined) break;
      for (const c of r.cidrs) {
        const band = bandOf(c);
        ip = band && allocateFrom(band, used);
        if (ip !== undefined) {
          [from, cidr] = [r, c];
          break;
        }
      }
    }
    if (ip === undefined || !from) {
      assumed.push(
        read.models.length === 0
          ? `no ClusterIP for Service ${key}: no Service CIDR to allocate it from (${read.assumed ?? ''})`
          : `no ClusterIP for Service ${key}: no ServiceCIDR has a free address (the API server would refuse it: range is full)`,
      );
      return o;
    }
    used.add(ip);
    const addr = intToIp(ip);
    const origin = from.assumed ? `${cidr}, kubeadm's default, no ServiceCIDR given` : cidr;
    assumed.push(
      `spec.clusterIP ${addr} for Service ${key}, allocated from ServiceCIDR ${from.name} (${origin}) as the API server would; it picks a free address at random, the model the lowest free one`,
    );
    return { ...o, spec: { ...spec, clusterIP: addr, clusterIPs: [addr] } };
  });
  return { objects: out, assumed };
}
