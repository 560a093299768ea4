/**
 * IPv6, said at the field (issue 14 point 7). The model is kube-proxy's IPv4 proxier: on a
 * dual-stack cluster it is the IPv4 half of what kube-proxy runs (the metaproxier runs one
 * proxier per family, pkg/proxy/metaproxier). So every valid IPv6 value gets a warning at its
 * own line saying what the model does with it, instead of being read as "no address":
 * - an IPv6 value beside an IPv4 one of the same object (dual-stack): left out, the IPv4
 *   family is traced;
 * - an object whose only family is IPv6: left out, as the IPv4 proxier leaves it out
 *   (ServiceChangeTracker skips a Service without an IPv4 ClusterIP, EndpointsChangeTracker
 *   ignores an EndpointSlice of addressType IPv6), or, for a Node, not placeable at all.
 *
 * These are warnings and their wording is ours: the API server accepts every one of them.
 * Malformed addresses are not looked at here (./checks.ts reports them as the API server does).
 */
import type { Checker, Obj } from './checks';
import { isObj, prop } from './checks';
import { isV4, parseIP } from './ip';
import { goQuote } from './field';

/** `NOT_MODELLED` starts every message, so a reader (and a test) can tell them apart. */
export const NOT_MODELLED = 'IPv6 is not modelled yet';

type Family = 'IPv4' | 'IPv6' | undefined;

/** The family of a valid address (or of a CIDR's address), else undefined. */
function familyOf(v: unknown): Family {
  if (typeof v !== 'string') return undefined;
  const ip = parseIP(v.trim().split('/')[0] ?? '');
  if (!ip) return undefined;
  return isV4(ip) ? 'IPv4' : 'IPv6';
}

/** A list field's items, `[]` when it is absent or not a list. */
function items(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** One address-bearing field of an object: its path and value. */
interface Slot {
  path: string;
  value: unknown;
}

/**
 * Warns at each IPv6 value of `slots`, which hold one object's addresses of one role (its
 * ClusterIPs, its Pod IPs…): `dual` when the role also has an IPv4 value, else `alone`.
 */
function warnIPv6(c: Checker, slots: Slot[], dual: string, alone: string): void {
  const v4 = slots.some((s) => familyOf(s.value) === 'IPv4');
  for (const s of slots)
    if (familyOf(s.value) === 'IPv6')
      c.warn(
        s.path,
        `${s.path}: ${NOT_MODELLED}: ${goQuote(String(s.value))} ${v4 ? dual : alone}`,
      );
}

const DUAL = 'is left out; the model traces the IPv4 family';

function checkServiceFamilies(c: Checker, svc: Obj): void {
  const spec = prop(svc, 'spec');
  const ips: Slot[] = [];
  const clusterIP = prop(spec, 'clusterIP');
  const clusterIPs = items(prop(spec, 'clusterIPs'));
  // spec.clusterIP is clusterIPs[0] (the API server makes them agree): said once, at the list.
  if (clusterIPs.length > 0)
    clusterIPs.forEach((v, i) => ips.push({ path: `spec.clusterIPs[${i}]`, value: v }));
  else ips.push({ path: 'spec.clusterIP', value: clusterIP });
  warnIPv6(
    c,
    ips,
    DUAL,
    "is this Service's only ClusterIP, so kube-proxy's IPv4 rules leave the Service out, and so does the model",
  );
  const families = items(prop(spec, 'ipFamilies'));
  if (ips.every((s) => familyOf(s.value) === undefined) && families[0] === 'IPv6')
    c.warn(
      'spec.ipFamilies[0]',
      `spec.ipFamilies[0]: ${NOT_MODELLED}: the ClusterIP would be allocated from the IPv6 range, so the model leaves the Service out`,
    );
  const external = items(prop(spec, 'externalIPs')).map((v, i) => ({
    path: `spec.externalIPs[${i}]`,
    value: v,
  }));
  warnIPv6(
    c,
    external,
    DUAL,
    "is left out of the rules, as kube-proxy's IPv4 proxier leaves it out",
  );
  const ranges = items(prop(spec, 'loadBalancerSourceRanges')).map((v, i) => ({
    path: `spec.loadBalancerSourceRanges[${i}]`,
    value: v,
  }));
  warnIPv6(c, ranges, DUAL, "is left out: only IPv4 ranges reach kube-proxy's IPv4 firewall");
  const ingress = items(prop(prop(prop(svc, 'status'), 'loadBalancer'), 'ingress'));
  const hasName = ingress.some(
    (i) => typeof prop(i, 'hostname') === 'string' && prop(i, 'hostname') !== '',
  );
  const ingressIPs = ingress.map((i, n) => ({
    path: `status.loadBalancer.ingress[${n}].ip`,
    value: prop(i, 'ip'),
  }));
  warnIPv6(
    c,
    ingressIPs,
    'is shown in EXTERNAL-IP but not dialled; the model dials the IPv4 address',
    hasName
      ? 'is shown in EXTERNAL-IP but not dialled; the model dials the hostname'
      : 'is shown in EXTERNAL-IP, but it is the only address, so there is nothing the model can dial',
  );
}

function checkPodFamilies(c: Checker, pod: Obj): void {
  const status = prop(pod, 'status');
  const podIPs = items(prop(status, 'podIPs'));
  const slots: Slot[] =
    podIPs.length > 0
      ? podIPs.map((p, i) => ({ path: `status.podIPs[${i}].ip`, value: prop(p, 'ip') }))
      : [{ path: 'status.podIP', value: prop(status, 'podIP') }];
  warnIPv6(c, slots, DUAL, "is this Pod's only IP, so it is no endpoint in the model");
}

function checkNodeFamilies(c: Checker, node: Obj): void {
  const addresses = items(prop(prop(node, 'status'), 'addresses'));
  for (const type of ['InternalIP', 'ExternalIP']) {
    const slots = addresses.flatMap((a, i) =>
      isObj(a) && prop(a, 'type') === type
        ? [{ path: `status.addresses[${i}].address`, value: prop(a, 'address') }]
        : [],
    );
    warnIPv6(
      c,
      slots,
      `is left out; the model uses the node's IPv4 ${type}`,
      type === 'InternalIP'
        ? "is this node's only InternalIP, and the model needs an IPv4 one to place the node"
        : 'is left out',
    );
  }
  const spec = prop(node, 'spec');
  const cidrs = items(prop(spec, 'podCIDRs'));
  const slots =
    cidrs.length > 0
      ? cidrs.map((v, i) => ({ path: `spec.podCIDRs[${i}]`, value: v }))
      : [{ path: 'spec.podCIDR', value: prop(spec, 'podCIDR') }];
  warnIPv6(c, slots, DUAL, 'is left out');
}

function checkSliceFamily(c: Checker, slice: Obj): void {
  if (prop(slice, 'addressType') === 'IPv6')
    c.warn(
      'addressType',
      `addressType: ${NOT_MODELLED}: kube-proxy's IPv4 proxier ignores an EndpointSlice of addressType "IPv6", and so does the model`,
    );
}

function checkServiceCIDRFamilies(c: Checker, cidr: Obj): void {
  const slots = items(prop(prop(cidr, 'spec'), 'cidrs')).map((v, i) => ({
    path: `spec.cidrs[${i}]`,
    value: v,
  }));
  warnIPv6(c, slots, DUAL, 'is left out: the model allocates and checks IPv4 ClusterIPs only');
}

/**
 * Adds the IPv6 warnings for one object of `kind` (Service, Pod, Node, EndpointSlice,
 * ServiceCIDR; other kinds have none). Never throws, whatever the shape of `obj`.
 */
export function checkIPFamilies(c: Checker, kind: string, obj: Obj): void {
  if (kind === 'Service') checkServiceFamilies(c, obj);
  else if (kind === 'Pod') checkPodFamilies(c, obj);
  else if (kind === 'Node') checkNodeFamilies(c, obj);
  else if (kind === 'EndpointSlice') checkSliceFamily(c, obj);
  else if (kind === 'ServiceCIDR') checkServiceCIDRFamilies(c, obj);
}

/**
 * Why the model cannot run these (already validated) objects for want of IPv4, in words, or
 * `''`: a Node with IPv6 InternalIPs only cannot be placed; with every Service IPv6-only there
 * is nothing to trace.
 */
export function ipv6Blocker(objects: readonly unknown[]): string {
  const nodes = objects.filter((o) => prop(o, 'kind') === 'Node');
  for (const n of nodes) {
    const internal = items(prop(prop(n, 'status'), 'addresses'))
      .filter((a) => prop(a, 'type') === 'InternalIP')
      .map((a) => familyOf(prop(a, 'address')));
    if (internal.includes('IPv6') && !internal.includes('IPv4'))
      return `${NOT_MODELLED}: Node ${String(prop(prop(n, 'metadata'), 'name'))} has only IPv6 InternalIPs`;
  }
  const services = objects.filter((o) => prop(o, 'kind') === 'Service');
  const v6only = (s: unknown): boolean => {
    const spec = prop(s, 'spec');
    const ips = [prop(spec, 'clusterIP'), ...items(prop(spec, 'clusterIPs'))].map(familyOf);
    if (ips.includes('IPv4')) return false;
    return ips.includes('IPv6') || items(prop(spec, 'ipFamilies'))[0] === 'IPv6';
  };
  if (services.length > 0 && services.every(v6only))
    return `${NOT_MODELLED}: every Service here is IPv6-only, so there is no IPv4 Service to trace`;
  return '';
}
