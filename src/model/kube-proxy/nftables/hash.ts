/**
 * kube-proxy's nftables chain and set names.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/nftables/proxier.go` (`hashAndTruncate`,
 * `servicePortChainNameBase`, `servicePortEndpointChainNameBase` and the `…NamePrefix`
 * constants), read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212:
 * the first 8 characters of RFC 4648 base32 (standard alphabet) of SHA-256(name), a dash,
 * then the name itself, cut to `chainNameBaseLengthMax` (256 − 16 = 240) characters ending
 * in `...` if longer.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base32 } from '@scure/base';

const encoder = new TextEncoder();

/** `chainNameBaseLengthMax` = knftables.NameLengthMax (256) − chainNamePrefixLengthMax (16). */
const BASE_LENGTH_MAX = 240;

/**
 * `hashAndTruncate`: `HASH8-name`, truncated to 240 characters (the last three `...`).
 * @param name e.g. `ns1/svc1/tcp/p80` → `ULMVA6XW-ns1/svc1/tcp/p80`
 */
export function hashAndTruncate(name: string): string {
  const hash = base32.encode(sha256(encoder.encode(name))).slice(0, 8);
  const out = `${hash}-${name}`;
  return out.length > BASE_LENGTH_MAX ? `${out.slice(0, BASE_LENGTH_MAX - 3)}...` : out;
}

/**
 * `servicePortChainNameBase`: `namespace/name/protocol/portName` hashed (the port name may
 * be empty, leaving a trailing slash).
 */
export function serviceChainBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
): string {
  return hashAndTruncate(`${namespace}/${name}/${protocol}/${portName}`);
}

/**
 * `servicePortEndpointChainNameBase`: `namespace/name/protocol/portName__IP/PORT` hashed
 * (IPv4 only here; kube-proxy turns IPv6 colons into dots).
 */
export function endpointChainBase(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
  ip: string,
  port: number,
): string {
  return hashAndTruncate(`${namespace}/${name}/${protocol}/${portName}__${ip}/${port}`);
}

/** The per-service-port chains: `service-`, `local-`, `external-`, `firewall-` + one base. */
export interface NftServiceChainNames {
  service: string;
  local: string;
  external: string;
  firewall: string;
}

/** Chain names for one service port (the prefixes are proxier.go's `…ChainNamePrefix`). */
export function serviceChainNames(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
): NftServiceChainNames {
  const base = serviceChainBase(namespace, name, protocol, portName);
  return {
    service: `service-${base}`,
    local: `local-${base}`,
    external: `external-${base}`,
    firewall: `firewall-${base}`,
  };
}

/** The `endpoint-` chain and `affinity-` set of one endpoint of a service port. */
export function endpointNames(
  namespace: string,
  name: string,
  protocol: string,
  portName: string,
  ip: string,
  port: number,
): { chain: string; affinitySet: string } {
  const base = endpointChainBase(namespace, name, protocol, portName, ip, port);
  return { chain: `endpoint-${base}`, affinitySet: `affinity-${base}` };
}
