/**
 * IPVS virtual and real servers as kube-proxy creates them and `ipvsadm -Ln` prints them:
 * the records, libipvs's sort order, and the printed lines.
 *
 * Sources: ipvsadm `ipvsadm.c` (`list_all`, `print_title`, `print_service_entry`) read at
 * Distrotech/ipvsadm@0047f4d3bd015391ff8cb8524b31687cf2626b09, and `libipvs/libipvs.c`
 * (`ipvs_cmp_services`, `ipvs_cmp_dests`) at Distrotech/ipvsadm@34c033ca687705068542dbc8f202a170706dc228;
 * kubernetes/kubernetes `pkg/proxy/ipvs/proxier.go` (`syncService`, `syncEndpoint`).
 */
import type { EndpointModel, ServiceModel } from '../../scenario/cluster';
import type { IPv4, Protocol } from '../../net/ip';
import { hostPort, ipToInt } from '../../net/ip';
import type { RuleLine } from '../types';

/** An IPVS real server (destination): always weight 1 and Masq (NAT) forwarding here. */
export interface RealServer {
  ip: IPv4;
  port: number;
  weight: number;
  /** `ipvs/<PROTO>/<vip:port>/<ip:port>` */
  ruleId: string;
  /** The line as `ipvsadm -Ln` prints it. */
  text: string;
}

/** An IPVS virtual server (service) and its real servers, in `ipvsadm -Ln` order. */
export interface VirtualServer {
  protocol: Protocol;
  address: IPv4;
  port: number;
  scheduler: string;
  /** Set for ClientIP session affinity: `persistent <timeout>`. */
  persistentTimeout?: number;
  /** Which Service address it serves. */
  kind: 'ClusterIP' | 'ExternalIP' | 'LoadBalancer' | 'NodePort';
  /** kube-proxy's ServicePortName, `namespace/name:port`. */
  servicePort: string;
  realServers: RealServer[];
  /** `ipvs/<PROTO>/<ip:port>` */
  ruleId: string;
  text: string;
}

const PROTO_ORDER: Record<Protocol, number> = { tcp: 6, udp: 17, sctp: 132 };

/**
 * libipvs's `ipvs_cmp_services`/`ipvs_cmp_dests` address order: `ntohl(a) - ntohl(b)` is
 * computed on unsigned 32-bit values and read as a signed `int`, so addresses more than 2^31
 * apart compare the "wrong" way (192.168.0.11 sorts before 10.96.0.50). `ipvsadm -Ln` shows
 * that order.
 */
export function libipvsAddressCompare(a: IPv4, b: IPv4): number {
  return (ipToInt(a) - ipToInt(b)) | 0;
}

/** libipvs's order of virtual servers: protocol number, address ({@link libipvsAddressCompare}), port. */
export function compareVirtualServers(a: VirtualServer, b: VirtualServer): number {
  return (
    PROTO_ORDER[a.protocol] - PROTO_ORDER[b.protocol] ||
    libipvsAddressCompare(a.address, b.address) ||
    a.port - b.port
  );
}

/** libipvs's order of real servers: address ({@link libipvsAddressCompare}), port. */
function compareRealServers(a: RealServer, b: RealServer): number {
  return libipvsAddressCompare(a.ip, b.ip) || a.port - b.port;
}

/** `%-Ns` */
const pad = (s: string, n: number) => s.padEnd(n, ' ');

/** `ipvsadm -Ln`'s virtual-server line: `TCP  10.96.0.50:80 rr [persistent T]`. */
function virtualServerText(vs: Omit<VirtualServer, 'text' | 'ruleId' | 'realServers'>): string {
  const persistent =
    vs.persistentTimeout !== undefined ? ` persistent ${vs.persistentTimeout}` : '';
  return `${vs.protocol.toUpperCase()}  ${hostPort(vs.address, vs.port)} ${vs.scheduler}${persistent}`;
}

/** `ipvsadm -Ln`'s real-server line: `printf("  -> %-28s %-7s %-6d %-10u %-10u\n", …)`. */
function realServerText(ip: IPv4, port: number, weight: number): string {
  return `  -> ${pad(hostPort(ip, port), 28)} ${pad('Masq', 7)} ${pad(String(weight), 6)} ${pad('0', 10)} ${pad('0', 10)}`;
}

/**
 * The virtual server for one Service address and port, with a real server per distinct
 * endpoint `ip:port` (weight 1, Masq), sorted as libipvs lists them; `persistent` under
 * ClientIP session affinity.
 */
export function virtualServer(
  svc: ServiceModel,
  servicePort: string,
  kind: VirtualServer['kind'],
  protocol: Protocol,
  address: IPv4,
  port: number,
  scheduler: string,
  endpoints: EndpointModel[],
): VirtualServer {
  const head = { protocol, address, port, scheduler, kind, servicePort };
  const vs =
    svc.sessionAffinity === 'ClientIP'
      ? { ...head, persistentTimeout: svc.affinityTimeoutSeconds }
      : head;
  const ruleId = `ipvs/${protocol.toUpperCase()}/${hostPort(address, port)}`;
  const seen = new Set<string>();
  const realServers: RealServer[] = [];
  for (const ep of endpoints) {
    const key = hostPort(ep.ip, ep.port);
    if (seen.has(key)) continue;
    seen.add(key);
    realServers.push({
      ip: ep.ip,
      port: ep.port,
      weight: 1,
      ruleId: `${ruleId}/${key}`,
      text: realServerText(ep.ip, ep.port, 1),
    });
  }
  realServers.sort(compareRealServers);
  return { ...vs, realServers, ruleId, text: virtualServerText(vs) };
}

/**
 * `ipvsadm -Ln`: the version line (`ip_vs` 1.2.1 with the default 4096-entry connection
 * table), the title, then each virtual server and its real servers in libipvs's order.
 */
export function ipvsadmLines(servers: VirtualServer[]): RuleLine[] {
  const lines: RuleLine[] = [
    { text: 'IP Virtual Server version 1.2.1 (size=4096)' },
    { text: 'Prot LocalAddress:Port Scheduler Flags' },
    { text: '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn' },
  ];
  for (const vs of servers) {
    const chain = `ipvs/${vs.protocol.toUpperCase()} ${hostPort(vs.address, vs.port)}`;
    lines.push({ text: vs.text, ruleId: vs.ruleId, chain });
    for (const rs of vs.realServers) lines.push({ text: rs.text, ruleId: rs.ruleId, chain });
  }
  return lines;
}
