/**
 * IPv4 ranges as integers, for the gap filler's inferences (a node's podCIDR, the cluster's
 * pod network, placeholder addresses): a range is `{ base, bits }`, its base an unsigned
 * 32-bit integer with the host bits cleared.
 */
import { ipToInt, isIPv4 } from '../net/ip';

/** An IPv4 range: `base` (host bits cleared) and prefix length `bits`. */
export interface Cidr4 {
  base: number;
  bits: number;
}

/** An unsigned 32-bit integer as a dotted quad. */
export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The netmask of a /`bits` range as an unsigned 32-bit integer. */
export function maskOf(bits: number): number {
  return bits === 0 ? 0 : (~(2 ** (32 - bits) - 1) >>> 0) >>> 0;
}

/** `10.244.1.0/24` → base and prefix length; undefined when malformed. */
export function parseCidr(s: string): Cidr4 | undefined {
  const [ip, bitsText, extra] = s.trim().split('/');
  if (extra !== undefined || ip === undefined || !isIPv4(ip) || !/^\d{1,2}$/.test(bitsText ?? ''))
    return undefined;
  const bits = Number(bitsText);
  if (bits > 32) return undefined;
  return { base: (ipToInt(ip) & maskOf(bits)) >>> 0, bits };
}

/** Whether the IPv4 address `ip` lies in `c`. */
export function inCidr(c: Cidr4, ip: string): boolean {
  return isIPv4(ip) && (ipToInt(ip) & maskOf(c.bits)) >>> 0 === c.base;
}

/** IPv4 ranges, indexed by prefix length: "does any hold this address" in ≤ 33 lookups. */
export class CidrSet {
  private readonly bases = new Map<number, Set<number>>();

  constructor(cidrs: readonly Cidr4[]) {
    for (const c of cidrs) {
      const set = this.bases.get(c.bits) ?? new Set<number>();
      set.add(c.base);
      this.bases.set(c.bits, set);
    }
  }

  /** True when one of the ranges holds the address `ip` (an unsigned 32-bit integer). */
  holds(ip: number): boolean {
    for (const [bits, set] of this.bases) if (set.has((ip & maskOf(bits)) >>> 0)) return true;
    return false;
  }
}

/** `c` as `a.b.c.d/bits`. */
export function cidrText(c: Cidr4): string {
  return `${intToIp(c.base)}/${c.bits}`;
}

/** The /24 holding `ip`. */
export function slash24(ip: string): string {
  return cidrText({ base: (ipToInt(ip) & maskOf(24)) >>> 0, bits: 24 });
}
