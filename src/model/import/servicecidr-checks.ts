/**
 * ServiceCIDR (`networking.k8s.io/v1`) as the API server validates it: kubernetes
 * `pkg/apis/networking/validation/validation.go` `ValidateServiceCIDR` (spec.cidrs: at least
 * one, at most two, two only of different families, each a valid CIDR), with each CIDR checked
 * by apimachinery `pkg/api/validation/ip.go` `IsValidCIDR` (strict parsing: no leading zeros,
 * no bits set beyond the prefix length, canonical form).
 */
import type { Checker, Obj } from './checks';
import { isString } from './checks';
import { goQuote, invalid, required } from './field';
import { isCIDR, isV4, parseIP } from './ip';

/** `IsValidCIDR`'s details (apimachinery pkg/api/validation/ip.go `parseCIDR`, `IsValidCIDR`). */
const SLOPPY = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const LEADING_ZEROS = 'must not have leading 0s in IP or prefix length';
const MAPPED = 'must not have an IPv4-mapped IPv6 address';
const HOST_BITS = 'must not have bits set beyond the prefix length';

/** `ValidateServiceCIDR`'s details for the list as a whole. */
const TOO_MANY = 'may only hold up to 2 values';
const NOT_DUAL =
  'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64';

/**
 * The Spec as upstream prints it in those two errors: `field.Invalid(fieldPath,
 * cidrConfig.Spec, …)` renders a struct with Go's `%#v`.
 */
function specValue(cidrs: readonly string[]): string {
  return `networking.ServiceCIDRSpec{CIDRs:[]string{${cidrs.map(goQuote).join(', ')}}}`;
}

/** The detail strict parsing gives for `value` (accepted by `ParseCIDRSloppy`), or undefined. */
function strictDetail(value: string): string | undefined {
  const [addr = '', bits = ''] = value.split('/');
  const v4 = addr.includes('.') && !addr.includes(':');
  // netip.ParsePrefix refuses leading zeros in an IPv4 octet or in the prefix length.
  if (/^0\d/.test(bits) || (v4 && addr.split('.').some((o) => /^0\d/.test(o))))
    return LEADING_ZEROS;
  const ip = parseIP(addr);
  if (!ip) return SLOPPY;
  if (!v4 && isV4(ip)) return MAPPED;
  const bytes = v4 ? ip.slice(12) : ip;
  const n = Number(bits);
  for (let bit = n; bit < bytes.length * 8; bit++)
    if (((bytes[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1) return HOST_BITS;
  return undefined;
}

/** True for an IPv4 CIDR (as `IsDualStackCIDRStrings` tells the families apart). */
function familyV4(value: string): boolean {
  const ip = parseIP(value.split('/')[0] ?? '');
  return !!ip && isV4(ip);
}

/**
 * ServiceCIDR `spec.cidrs`, after `ValidateServiceCIDR`. IPv4 canonical form is what strict
 * parsing already demands; IPv6 canonical spelling (RFC 5952) is not checked here.
 */
export function checkServiceCIDR(c: Checker, obj: Obj): void {
  const spec = c.obj(obj, 'spec', 'spec');
  const path = 'spec.cidrs';
  const list = c.list(spec, 'cidrs', path) ?? [];
  const cidrs = c.items(list, path, isString, 'a string').map(([v]) => v);
  if (list.length === 0) {
    c.error(path, required(path, 'at least one CIDR required'));
    return;
  }
  if (cidrs.length !== list.length) return;
  if (cidrs.length > 2) {
    c.error(path, `${path}: Invalid value: ${specValue(cidrs)}: ${TOO_MANY}`);
    return;
  }
  if (cidrs.length === 2) {
    const [a = '', b = ''] = cidrs;
    // IsDualStackCIDRStrings: an unparseable entry is an error too.
    if (!isCIDR(a) || !isCIDR(b) || familyV4(a) === familyV4(b)) {
      c.error(path, `${path}: Invalid value: ${specValue(cidrs)}: ${NOT_DUAL}`);
      return;
    }
  }
  cidrs.forEach((value, i) => {
    const p = `${path}[${i}]`;
    const detail = isCIDR(value) ? strictDetail(value) : SLOPPY;
    if (detail) c.error(p, invalid(p, value, detail));
  });
}
