/**
 * kube-proxy's iptables chain names.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/iptables/proxier.go`, functions `portProtoHash`
 * and `servicePortEndpointChainName`: SHA-256 of the string, RFC 4648 base32 (standard
 * alphabet), first 16 characters — iptables chain names must be ≤ 28 characters.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { memoize } from '../memo';

const encoder = new TextEncoder();
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * First 16 RFC 4648 base32 characters (standard alphabet) of SHA-256(`input`): 16 × 5 bits
 * are exactly the digest's first 10 bytes, so only those are encoded. Memoised: a cluster's
 * chain names are the same on every node and in every run.
 */
const hash16 = memoize((input: string): string => {
  const d = sha256(encoder.encode(input));
  let out = '';
  for (let i = 0; i < 10; i += 5) {
    // 5 bytes = 40 bits = 8 characters; two 20-bit halves keep the arithmetic in int range.
    const hi = ((d[i] as number) << 12) | ((d[i + 1] as number) << 4) | ((d[i + 2] as number) >> 4);
    const lo =
      (((d[i + 2] as number) & 15) << 16) | ((d[i + 3] as number) << 8) | (d[i + 4] as number);
    for (const v of [hi, lo])
      out +=
        ALPHABET[(v >> 15) & 31]! +
        ALPHABET[(v >> 10) & 31]! +
        ALPHABET[(v >> 5) & 31]! +
        ALPHABET[v & 31]!;
  }
  return out;
});

/**
 * The 16-character suffix shared by a service port's KUBE-SVC-, KUBE-SVL-, KUBE-EXT- and
 * KUBE-FW- chains.
 * @param servicePortName `namespace/name:portName`, or `namespace/name` for an unnamed port
 * @param protocol `tcp`, `udp` or `sctp`
 */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return hash16(servicePortName + protocol);
}

/** The per-service-port chain names kube-proxy uses. */
export interface ServiceChainNames {
  svc: string;
  svl: string;
  ext: string;
  fw: string;
}

/** `KUBE-SVC-…`, `KUBE-SVL-…`, `KUBE-EXT-…` and `KUBE-FW-…` for one service port. */
export function serviceChainNames(servicePortName: string, protocol: string): ServiceChainNames {
  const h = portProtoHash(servicePortName, protocol);
  return { svc: `KUBE-SVC-${h}`, svl: `KUBE-SVL-${h}`, ext: `KUBE-EXT-${h}`, fw: `KUBE-FW-${h}` };
}

/**
 * `KUBE-SEP-…` for one endpoint of one service port.
 * @param endpoint `ip:port` of the endpoint (the target port)
 */
export function endpointChainName(
  servicePortName: string,
  protocol: string,
  endpoint: string,
): string {
  return `KUBE-SEP-${hash16(servicePortName + protocol + endpoint)}`;
}
