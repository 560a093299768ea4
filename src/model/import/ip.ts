/**
 * IP and CIDR parsing with the semantics the API server uses: `k8s.io/utils/net`'s
 * `ParseIPSloppy` / `ParseCIDRSloppy`, which are Go 1.16's `net.ParseIP` / `net.ParseCIDR`
 * (IPv4 octets may carry leading zeros and are read as decimal). Addresses are 16 bytes, an
 * IPv4 address in its IPv4-mapped IPv6 form, as Go's `net.IP` holds them.
 */

/** A parsed address: 16 bytes, IPv4 as `::ffff:a.b.c.d`. */
export type IPBytes = readonly number[];

const V4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Go's `dtoi`: leading decimal digits → [value, digits read], or undefined when none / too big. */
function dtoi(s: string): [number, number] | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length && s[i]! >= '0' && s[i]! <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return undefined;
  }
  return i === 0 ? undefined : [n, i];
}

/** Go 1.16 `parseIPv4`: four decimal octets ≤ 255, leading zeros allowed. */
function parseIPv4(s: string): IPBytes | undefined {
  const out = [...V4_PREFIX];
  let rest = s;
  for (let i = 0; i < 4; i++) {
    if (rest.length === 0) return undefined;
    if (i > 0) {
      if (rest[0] !== '.') return undefined;
      rest = rest.slice(1);
    }
    const r = dtoi(rest);
    if (!r || r[0] > 0xff) return undefined;
    out.push(r[0]);
    rest = rest.slice(r[1]);
  }
  return rest.length === 0 ? out : undefined;
}

/** Go `parseIPv6`: hex groups of 1–4 digits, one `::`, an optional trailing dotted IPv4. */
function parseIPv6(s: string): IPBytes | undefined {
  const ip: number[] = new Array<number>(16).fill(0);
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const m = /^[0-9a-fA-F]{1,4}/.exec(rest);
    if (!m) return undefined;
    const digits = m[0];
    if (rest[digits.length] === '.') {
      // An embedded IPv4 address: only in the last 32 bits.
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4(rest);
      if (!v4) return undefined;
      for (let k = 0; k < 4; k++) ip[i + k] = v4[12 + k]!;
      i += 4;
      rest = '';
      break;
    }
    const n = parseInt(digits, 16);
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    rest = rest.slice(digits.length);
    if (rest.length === 0) break;
    if (rest[0] !== ':' || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest.length === 0) break;
    }
  }
  if (rest.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined; // an ellipsis must stand for at least one group
  }
  return ip;
}

/** `netutils.ParseIPSloppy`: the kind is decided by the first `.` or `:` in the text. */
export function parseIP(s: string): IPBytes | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

/** `netutils.ParseCIDRSloppy` accepts `s`: an address, `/`, and a decimal prefix within the family's length. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let bits = 32;
  let ip = parseIPv4(addr);
  if (!ip) {
    bits = 128;
    ip = parseIPv6(addr);
  }
  const n = dtoi(mask);
  return !!ip && !!n && n[1] === mask.length && n[0] <= bits;
}

/** Go `net.IP.To4() != nil`: an IPv4 or IPv4-mapped address. */
export function isV4(ip: IPBytes): boolean {
  return V4_PREFIX.every((b, i) => ip[i] === b);
}

/**
 * `ValidateEndpointIP` / `ValidateNonSpecialIP` (pkg/apis/core/validation/validation.go):
 * the details for an address that must not be unspecified, loopback or link-local.
 */
export function specialIPDetails(text: string, ip: IPBytes): string[] {
  const v4 = isV4(ip);
  const out: string[] = [];
  const allZero = (v4 ? ip.slice(12) : ip).every((b) => b === 0);
  if (allZero) out.push(`may not be unspecified (${text})`);
  const loopback = v4 ? ip[12] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
  if (loopback) out.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  const linkLocal = v4
    ? ip[12] === 169 && ip[13] === 254
    : ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80;
  if (linkLocal) out.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  const llMulticast = v4
    ? ip[12] === 224 && ip[13] === 0 && ip[14] === 0
    : ip[0] === 0xff && (ip[1]! & 0x0f) === 0x02;
  if (llMulticast) {
    out.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  }
  return out;
}
