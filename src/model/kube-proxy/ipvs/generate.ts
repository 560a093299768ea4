/**
 * kube-proxy's IPVS mode on one node: the IPVS virtual and real servers (as `ipvsadm -Ln`
 * prints them), the ipsets it fills (`ipset list`), the addresses it binds to the
 * `kube-ipvs0` dummy interface (`ip addr show kube-ipvs0`), and the iptables rules it still
 * writes (`iptables-save`).
 *
 * Sources:
 * - kubernetes/kubernetes `pkg/proxy/ipvs/proxier.go` (`syncProxyRules`, `syncService`,
 *   `syncEndpoint`), read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212;
 *   `pkg/proxy/ipvs/netlink_linux.go` (`GetAllLocalAddressesExcept`, `isValidForSet`) read at
 *   fleetboard-io/fleetboard@6a9871c7c9b23fcdac8804fa0d45d0f2ad2b06b3 (vendored upstream).
 * - ipvsadm `ipvsadm.c` (`list_all`, `print_title`, `print_service_entry`) read at
 *   Distrotech/ipvsadm@0047f4d3bd015391ff8cb8524b31687cf2626b09, and `libipvs/libipvs.c`
 *   (`ipvs_cmp_services`, `ipvs_cmp_dests`) at Distrotech/ipvsadm@34c033ca687705068542dbc8f202a170706dc228.
 * - shared/reference/kube-proxy.md §4 and §1.5–§1.6.
 *
 * Facts the model follows, each from proxier.go:
 * - every Service port gets a ClusterIP virtual server, each externalIP one, each VIP-mode
 *   load-balancer ingress IP one (`LoadBalancerVIPs` leaves out `ipMode: Proxy`), and a
 *   NodePort one per node address; real servers have weight 1 and Masq forwarding;
 * - node addresses: with `nodePortAddresses` unset, every local address outside `kube-ipvs0`
 *   except loopback — here the node's addresses and its pod bridge (cni0) address;
 * - `syncEndpoint`: a virtual server that wants local endpoints (eTP=Local for NodePort, LB
 *   and externalIP; iTP=Local for the ClusterIP) gets them, but with no local endpoint it gets
 *   the cluster-wide ones ("Allow access from local PODs even if no local endpoints exist",
 *   kubernetes/kubernetes#97081) — it is never left empty for that reason;
 * - ClientIP affinity is IPVS persistence with `sessionAffinityConfig.clientIP.timeoutSeconds`.
 */
import type { Cluster, ClusterNode, EndpointModel, ServiceModel } from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import type { IPv4, Protocol } from '../../net/ip';
import { cidrContains, hostPort, ipToInt, isIPv4 } from '../../net/ip';
import type { ModeRuleset, RuleLine } from '../types';
import { categorizeEndpoints } from '../endpoints';
import type { Ipset } from './ipsets';
import { IpsetWriter, SET, ipsetListLines } from './ipsets';
import type { IpvsChain, Table } from './rules';
import { iptablesSaveLines } from './rules';
import type { IptablesInputs } from './iptablesRules';
import { writeIpvsIptables } from './iptablesRules';

/** kube-proxy's default `--ipvs-scheduler` (`defaultScheduler`, proxier.go). */
export const DEFAULT_SCHEDULER = 'rr';

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

/** kube-proxy's IPVS-mode state on one node. */
export interface IpvsRuleset extends ModeRuleset {
  mode: 'ipvs';
  scheduler: string;
  virtualServers: VirtualServer[];
  /** Every set kube-proxy creates, in `ipsetInfo` order, with its members. */
  ipsets: Ipset[];
  /** The addresses bound to `kube-ipvs0` (also the members of KUBE-IPVS-IPS). */
  dummyAddresses: IPv4[];
  /** The iptables chains by table, in `iptables-save` order. */
  tables: Record<Table, IpvsChain[]>;
  /** `0x4000` for the default masquerade bit 14. */
  masqueradeMark: number;
  /** Each tool's output on its own; {@link ModeRuleset.lines} joins them under `# <command>` headers. */
  sections: { ipvsadm: RuleLine[]; ipset: RuleLine[]; kubeIpvs0: RuleLine[]; iptables: RuleLine[] };
}

/** Options of {@link generateIpvs}. */
export interface IpvsOptions {
  /** `--ipvs-scheduler` / `ipvs.scheduler`; empty or absent means `rr`, as in kube-proxy. */
  scheduler?: string;
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

function compareVirtualServers(a: VirtualServer, b: VirtualServer): number {
  return (
    PROTO_ORDER[a.protocol] - PROTO_ORDER[b.protocol] ||
    libipvsAddressCompare(a.address, b.address) ||
    a.port - b.port
  );
}

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
 * The node's addresses that get NodePort virtual servers. Unset `nodePortAddresses`: every
 * local address outside kube-ipvs0 but loopback (`GetAllLocalAddressesExcept`,
 * `isValidForSet`); else those in the given CIDRs (`primary`: the node's primary IP).
 */
export function nodePortAddresses(cluster: Cluster, node: ClusterNode): IPv4[] {
  const local = [...new Set([...node.addresses, node.bridgeIP])].filter(
    (ip) => !cidrContains('127.0.0.0/8', ip),
  );
  const cidrs = cluster.kubeProxy.nodePortAddresses;
  if (cidrs.length === 0) return local;
  return local.filter((ip) =>
    cidrs.some((cidr) => (cidr === 'primary' ? ip === node.internalIP : cidrContains(cidr, ip))),
  );
}

/** The local-traffic detector's CIDR (`detectLocalMode`), undefined when there is none. */
function localDetectorCIDR(cluster: Cluster, node: ClusterNode): string | undefined {
  const kp = cluster.kubeProxy;
  const cidr = kp.detectLocalMode === 'NodeCIDR' ? node.podCIDR : kp.clusterCIDR;
  return cidr || undefined;
}

/**
 * Generates kube-proxy's IPVS-mode state for `nodeName`.
 * @param opts.scheduler the IPVS scheduler; kube-proxy's default `rr` when absent. (The
 *   cluster's KubeProxyConfiguration does not carry `ipvs.scheduler` yet.)
 * @throws {Error} `unknown node "<name>"` when the node is not in the cluster.
 */
export function generateIpvs(
  cluster: Cluster,
  nodeName: string,
  opts: IpvsOptions = {},
): IpvsRuleset {
  const node = cluster.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`unknown node "${nodeName}"`);
  const scheduler = opts.scheduler || DEFAULT_SCHEDULER;
  const kp = cluster.kubeProxy;
  const mark = 1 << kp.masqueradeBit;
  const sets = new IpsetWriter();
  const servers: VirtualServer[] = [];
  const dummy: IPv4[] = [];
  const noNodeAccess: IptablesInputs['noNodeAccess'] = [];
  const nodeAddrs = [...new Set([...node.addresses, node.bridgeIP])];
  const hasNodePort = cluster.services.some((s) => s.ports.some((p) => p.nodePort !== 0));
  const nodeIPs = hasNodePort ? nodePortAddresses(cluster, node) : [];
  const bind = (ip: IPv4) => {
    if (!dummy.includes(ip)) dummy.push(ip);
  };

  for (const svc of cluster.services) {
    // Headless Services (clusterIP None) get no proxying at all.
    if (!isIPv4(svc.clusterIP)) continue;
    for (const port of svc.ports) {
      const S = servicePortKey(svc, port.name);
      const proto = port.protocol;
      const all = cluster.endpoints[S] ?? [];
      const eps = categorizeEndpoints(all, svc, node.name);
      const pick = (onlyLocal: boolean): EndpointModel[] =>
        onlyLocal && eps.local.length > 0 ? eps.local : eps.cluster;
      const addServer = (
        kind: VirtualServer['kind'],
        address: IPv4,
        vport: number,
        onlyLocal: boolean,
      ) =>
        servers.push(
          virtualServer(svc, S, kind, proto, address, vport, scheduler, pick(onlyLocal)),
        );

      // Hairpin: every local endpoint, `ip,proto:port,ip` (KUBE-LOOP-BACK).
      for (const ep of all)
        if (ep.nodeName === node.name)
          sets.add(SET.loopBack, { ip: ep.ip, proto, port: ep.port, ip2: ep.ip });

      sets.add(SET.clusterIP, { ip: svc.clusterIP, proto, port: port.port });
      addServer('ClusterIP', svc.clusterIP, port.port, svc.internalTrafficPolicy === 'Local');
      bind(svc.clusterIP);

      const extLocal = svc.externalTrafficPolicy === 'Local';
      for (const eip of svc.externalIPs) {
        sets.add(extLocal ? SET.externalIPLocal : SET.externalIP, {
          ip: eip,
          proto,
          port: port.port,
        });
        addServer('ExternalIP', eip, port.port, extLocal);
        // "We must not add the address to the dummy device if it exist on another interface".
        if (!nodeAddrs.includes(eip)) bind(eip);
      }

      for (const ing of svc.ingress.filter((i) => i.ipMode === 'VIP')) {
        const entry = { ip: ing.ip, proto, port: port.port };
        sets.add(SET.loadBalancer, entry);
        if (extLocal) sets.add(SET.loadBalancerLocal, entry);
        if (svc.loadBalancerSourceRanges.length > 0) {
          sets.add(SET.loadBalancerFW, entry);
          let allowFromNode = false;
          for (const raw of svc.loadBalancerSourceRanges) {
            const cidr = raw.trim();
            sets.add(SET.loadBalancerSourceCIDR, { ...entry, net: cidr });
            if (cidrContains(cidr, node.internalIP)) allowFromNode = true;
          }
          if (allowFromNode) sets.add(SET.loadBalancerSourceIP, { ...entry, ip2: ing.ip });
          else noNodeAccess.push({ ip: ing.ip, port: port.port, proto });
        }
        addServer('LoadBalancer', ing.ip, port.port, extLocal);
        if (!nodeAddrs.includes(ing.ip)) bind(ing.ip);
      }

      if (port.nodePort !== 0 && nodeIPs.length > 0) {
        const entries =
          proto === 'sctp'
            ? nodeIPs.map((ip) => ({ ip, proto, port: port.nodePort }))
            : [{ proto, port: port.nodePort }];
        const [global, local] =
          proto === 'tcp'
            ? [SET.nodePortTCP, SET.nodePortLocalTCP]
            : proto === 'udp'
              ? [SET.nodePortUDP, SET.nodePortLocalUDP]
              : [SET.nodePortSCTP, SET.nodePortLocalSCTP];
        for (const e of entries) {
          sets.add(global, e);
          if (extLocal) sets.add(local, e);
        }
        for (const ip of nodeIPs) addServer('NodePort', ip, port.nodePort, extLocal);
      }

      if (svc.healthCheckNodePort !== 0)
        sets.add(SET.healthCheckNodePort, { proto: 'tcp', port: svc.healthCheckNodePort });
    }
  }
  for (const ip of dummy) sets.add(SET.ipvsIPs, { ip });

  const w = writeIpvsIptables({
    isEmpty: (s) => sets.isEmpty(s),
    mark,
    masqueradeAll: kp.masqueradeAll,
    localCIDR: localDetectorCIDR(cluster, node),
    noNodeAccess,
  });
  const tables = { filter: w.ordered('filter'), nat: w.ordered('nat') };
  const ipsets = sets.finish();
  servers.sort(compareVirtualServers);

  const sections = {
    ipvsadm: ipvsadmLines(servers),
    ipset: ipsetListLines(ipsets),
    kubeIpvs0: kubeIpvs0Lines(dummy),
    iptables: [
      ...iptablesSaveLines(tables.filter, 'filter'),
      ...iptablesSaveLines(tables.nat, 'nat'),
    ],
  };
  const lines: RuleLine[] = [
    { text: '# ipvsadm -Ln' },
    ...sections.ipvsadm,
    { text: '' },
    { text: '# ipset list' },
    ...sections.ipset,
    { text: '' },
    { text: '# ip addr show kube-ipvs0' },
    ...sections.kubeIpvs0,
    { text: '' },
    { text: '# iptables-save' },
    ...sections.iptables,
  ];
  return {
    mode: 'ipvs',
    nodeName: node.name,
    lines,
    scheduler,
    virtualServers: servers,
    ipsets,
    dummyAddresses: dummy,
    tables,
    masqueradeMark: mark,
    sections,
  };
}

function virtualServer(
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
function ipvsadmLines(servers: VirtualServer[]): RuleLine[] {
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

/**
 * `ip addr show kube-ipvs0`: the dummy interface (never up, hence `state DOWN`) and one
 * `/32` per bound address (`netlink.NewIPNet`), in the order kube-proxy binds them. The
 * interface index and `link/ether` line differ per host and are left out.
 */
function kubeIpvs0Lines(addresses: IPv4[]): RuleLine[] {
  const lines: RuleLine[] = [
    { text: 'kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default' },
  ];
  for (const ip of addresses) {
    const ruleId = `kube-ipvs0/${ip}`;
    lines.push(
      { text: `    inet ${ip}/32 scope global kube-ipvs0`, ruleId, chain: 'kube-ipvs0' },
      { text: '       valid_lft forever preferred_lft forever', chain: 'kube-ipvs0' },
    );
  }
  return lines;
}
