/**
 * The per-service-port part of kube-proxy's IPVS `syncProxyRules`: for each Service address
 * (ClusterIP, externalIPs, VIP-mode load-balancer IPs, the NodePort on each node address) a
 * virtual server with its endpoints, the ipset entries the iptables rules match on, and the
 * addresses bound to `kube-ipvs0`. Source: kubernetes/kubernetes `pkg/proxy/ipvs/proxier.go`
 * (`syncProxyRules`, `syncService`, `syncEndpoint`), read at
 * aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212.
 */
import type {
  ClusterNode,
  EndpointModel,
  ServiceModel,
  ServicePortModel,
} from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import type { Cluster } from '../../scenario/cluster';
import type { IPv4, Protocol } from '../../net/ip';
import { cidrContains } from '../../net/ip';
import { categorizeEndpoints } from '../endpoints';
import type { IpsetWriter } from './ipsets';
import { SET } from './ipsets';
import type { IptablesInputs } from './iptablesRules';
import type { VirtualServer } from './virtualServers';
import { virtualServer } from './virtualServers';

/** What the sync of one node writes into, across its Services. */
export interface IpvsSync {
  cluster: Cluster;
  node: ClusterNode;
  scheduler: string;
  sets: IpsetWriter;
  /** The virtual servers, in creation order (sorted when printed). */
  servers: VirtualServer[];
  /** The addresses bound to `kube-ipvs0`, in the order kube-proxy binds them. */
  dummy: IPv4[];
  /** LB ingress `ip:port/proto` whose access from the node is dropped. */
  noNodeAccess: IptablesInputs['noNodeAccess'];
  /** The node's local addresses: its addresses and its pod bridge's. */
  nodeAddrs: IPv4[];
  /** The addresses that get NodePort virtual servers (`nodePortAddresses`). */
  nodeIPs: IPv4[];
}

/** One Service port being synced. */
interface PortSync {
  svc: ServiceModel;
  port: ServicePortModel;
  proto: Protocol;
  /**
   * Adds the virtual server for `address:vport`; `onlyLocal` asks for the node's local
   * endpoints, with the cluster-wide ones when it has none (kubernetes#97081).
   */
  addServer: (
    kind: VirtualServer['kind'],
    address: IPv4,
    vport: number,
    onlyLocal: boolean,
  ) => void;
}

/** Binds `ip` to `kube-ipvs0` once. */
function bind(st: IpvsSync, ip: IPv4): void {
  if (!st.dummy.includes(ip)) st.dummy.push(ip);
}

/** externalIPs: KUBE-EXTERNAL-IP(-LOCAL), a virtual server each, bound unless on another interface. */
function syncExternalIPs(st: IpvsSync, ps: PortSync): void {
  const { svc, port, proto } = ps;
  const extLocal = svc.externalTrafficPolicy === 'Local';
  for (const eip of svc.externalIPs) {
    st.sets.add(extLocal ? SET.externalIPLocal : SET.externalIP, {
      ip: eip,
      proto,
      port: port.port,
    });
    ps.addServer('ExternalIP', eip, port.port, extLocal);
    // "We must not add the address to the dummy device if it exist on another interface".
    if (!st.nodeAddrs.includes(eip)) bind(st, eip);
  }
}

/**
 * VIP-mode load-balancer IPs: KUBE-LOAD-BALANCER(-LOCAL), and with source ranges the
 * firewall sets (KUBE-LOAD-BALANCER-FW, -SOURCE-CIDR, and -SOURCE-IP when a range holds the
 * node's own address, else a no-node-access drop); a virtual server each.
 */
function syncLoadBalancerIPs(st: IpvsSync, ps: PortSync): void {
  const { svc, port, proto } = ps;
  const { sets, node } = st;
  const extLocal = svc.externalTrafficPolicy === 'Local';
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
      else st.noNodeAccess.push({ ip: ing.ip, port: port.port, proto });
    }
    ps.addServer('LoadBalancer', ing.ip, port.port, extLocal);
    if (!st.nodeAddrs.includes(ing.ip)) bind(st, ing.ip);
  }
}

/**
 * The NodePort: the protocol's KUBE-NODE-PORT(-LOCAL)-* set (per address for SCTP, one
 * port entry otherwise) and a virtual server on each node address.
 */
function syncNodePort(st: IpvsSync, ps: PortSync): void {
  const { svc, port, proto } = ps;
  const { sets, nodeIPs } = st;
  if (port.nodePort === 0 || nodeIPs.length === 0) return;
  const extLocal = svc.externalTrafficPolicy === 'Local';
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
  for (const ip of nodeIPs) ps.addServer('NodePort', ip, port.nodePort, extLocal);
}

/**
 * Syncs one Service port (see the module comment), in proxier.go's order: the hairpin
 * entries of local endpoints (KUBE-LOOP-BACK), the ClusterIP, externalIPs, load-balancer IPs,
 * the NodePort, the healthCheckNodePort (KUBE-HEALTH-CHECK-NODE-PORT).
 */
export function syncServicePort(st: IpvsSync, svc: ServiceModel, port: ServicePortModel): void {
  const { cluster, node, sets } = st;
  const S = servicePortKey(svc, port.name);
  const proto = port.protocol;
  const all = cluster.endpoints[S] ?? [];
  const eps = categorizeEndpoints(all, svc, node.name);
  const pick = (onlyLocal: boolean): EndpointModel[] =>
    onlyLocal && eps.local.length > 0 ? eps.local : eps.cluster;
  const ps: PortSync = {
    svc,
    port,
    proto,
    addServer: (kind, address, vport, onlyLocal) =>
      st.servers.push(
        virtualServer(svc, S, kind, proto, address, vport, st.scheduler, pick(onlyLocal)),
      ),
  };

  // Hairpin: every local endpoint, `ip,proto:port,ip` (KUBE-LOOP-BACK).
  for (const ep of all)
    if (ep.nodeName === node.name)
      sets.add(SET.loopBack, { ip: ep.ip, proto, port: ep.port, ip2: ep.ip });

  sets.add(SET.clusterIP, { ip: svc.clusterIP, proto, port: port.port });
  ps.addServer('ClusterIP', svc.clusterIP, port.port, svc.internalTrafficPolicy === 'Local');
  bind(st, svc.clusterIP);

  syncExternalIPs(st, ps);
  syncLoadBalancerIPs(st, ps);
  syncNodePort(st, ps);

  if (svc.healthCheckNodePort !== 0)
    sets.add(SET.healthCheckNodePort, { proto: 'tcp', port: svc.healthCheckNodePort });
}
