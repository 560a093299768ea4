/**
 * IPv4 addresses, CIDRs and transport endpoints as the model uses them.
 *
 * The model is IPv4-only for now (the canonical scenario and kube-proxy's `ip` table
 * family); IPv6 is a later extension. Addresses are plain dotted-quad strings so that they
 * print exactly as `iptables-save` and `conntrack -L` print them.
 */

/** A dotted-quad IPv4 address, e.g. `"10.244.1.5"`. */
export type IPv4 = string;

/** A transport protocol in the lower case kube-proxy uses in rule text (`-p tcp`). */
export type Protocol = 'tcp' | 'udp' | 'sctp';

/**
 * Parses a dotted-quad IPv4 address into an unsigned 32-bit integer.
 * @throws {Error} `invalid IPv4 address: "<s>"` when `s` is not four decimal octets 0–255.
 */
export function ipToInt(s: IPv4): number {
  const n = parseIPv4(s);
  if (n < 0) throw new Error(`invalid IPv4 address: "${s}"`);
  return n;
}

/**
 * Four dot-separated groups of 1–3 decimal digits, each at most 255, as an unsigned 32-bit
 * integer; -1 when `s` is anything else. One pass over the characters, no allocation.
 */
function parseIPv4(s: string): number {
  let n = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 48 && ch <= 57) {
      if (++digits > 3) return -1;
      octet = octet * 10 + (ch - 48);
    } else if (ch === 46) {
      if (digits === 0 || octet > 255 || ++dots > 3) return -1;
      n = n * 256 + octet;
      octet = 0;
      digits = 0;
    } else return -1;
  }
  if (digits === 0 || octet > 255 || dots !== 3) return -1;
  return n * 256 + octet;
}

/** True when `s` is a valid dotted-quad IPv4 address. Never throws. */
export function isIPv4(s: string): boolean {
  return parseIPv4(s) >= 0;
}

/**
 * True when `ip` lies inside `cidr` (`"10.244.0.0/16"`); a bare address is a /32.
 * @throws {Error} when either value is malformed.
 */
export function cidrContains(cidr: string, ip: IPv4): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > 32) throw new Error(`invalid CIDR: "${cidr}"`);
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : ~((1 << (32 - bits)) - 1) >>> 0;
  return (ipToInt(base ?? '') & mask) >>> 0 === (ipToInt(ip) & mask) >>> 0;
}

/**
 * The first usable address of a CIDR, e.g. `10.244.1.0/24` → `10.244.1.1`: the address a
 * bridge CNI (cni0) gives the node on its pod subnet.
 */
export function firstHost(cidr: string): IPv4 {
  const [base] = cidr.split('/');
  const n = ipToInt(base ?? '') + 1;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** `ip:port` as kube-proxy prints an endpoint (IPv4 only; IPv6 would be `[ip]:port`). */
export function hostPort(ip: IPv4, port: number): string {
  return `${ip}:${port}`;
}
