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
 * - ipvsadm and libipvs for the listing and its order: see `virtualServers.ts`.
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
 *
 * The per-port sync is `sync.ts`; the virtual servers and their `ipvsadm -Ln` lines are
 * `virtualServers.ts`; the iptables rules `iptablesRules.ts`; the ipsets `ipsets.ts`.
 */
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import type { IPv4 } from '../../net/ip';
import { cidrContains, isIPv4 } from '../../net/ip';
import type { ModeRuleset, RuleLine } from '../types';
import type { Ipset } from './ipsets';
import { IpsetWriter, SET, ipsetListLines } from './ipsets';
import type { IpvsChain, Table } from './rules';
import { iptablesSaveLines } from './rules';
import { writeIpvsIptables } from './iptablesRules';
import type { IpvsSync } from './sync';
import { syncServicePort } from './sync';
import type { VirtualServer } from './virtualServers';
import { compareVirtualServers, ipvsadmLines } from './virtualServers';

export type { RealServer, VirtualServer } from './virtualServers';
export { libipvsAddressCompare } from './virtualServers';

/** kube-proxy's default `--ipvs-scheduler` (`defaultScheduler`, proxier.go). */
export const DEFAULT_SCHEDULER = 'rr';

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
  const hasNodePort = cluster.services.some((s) => s.ports.some((p) => p.nodePort !== 0));
  const st: IpvsSync = {
    cluster,
    node,
    scheduler,
    sets,
    servers: [],
    dummy: [],
    noNodeAccess: [],
    nodeAddrs: [...new Set([...node.addresses, node.bridgeIP])],
    nodeIPs: hasNodePort ? nodePortAddresses(cluster, node) : [],
  };
  for (const svc of cluster.services) {
    // Headless Services (clusterIP None) get no proxying at all.
    if (!isIPv4(svc.clusterIP)) continue;
    for (const port of svc.ports) syncServicePort(st, svc, port);
  }
  const { servers, dummy, noNodeAccess } = st;
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
