/**
 * kube-proxy's iptables chain names.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/iptables/proxier.go`, functions `portProtoHash`
 * and `servicePortEndpointChainName`: SHA-256 of the string, RFC 4648 base32 (standard
 * alphabet), first 16 characters — iptables chain names must be ≤ 28 characters.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base32 } from '@scure/base';

const encoder = new TextEncoder();

/** First 16 base32 characters of SHA-256(`input`). */
function hash16(input: string): string {
  return base32.encode(sha256(encoder.encode(input))).slice(0, 16);
}

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
