/**
 * The resolved cluster: the scenario's objects with API defaults filled in and every
 * reference followed, in the shape the rule generators, the balancer and the trace use.
 *
 * Defaults are the API server's and kube-proxy's (cited on each); anything the model had to
 * assume is listed in {@link Cluster.assumed} so the UI can show it.
 */
import type { IPv4, Protocol } from '../net/ip';
import { firstHost } from '../net/ip';
import type {
  ClientLocation,
  LoadBalancerDelivery,
  LoadBalancerImplementation,
} from '../k8s/objects';
import type { ServiceCIDRModel } from '../k8s/serviceCIDR';

export type { ServiceCIDRModel };

/** A node as kube-proxy and the balancer see it. */
export interface ClusterNode {
  name: string;
  /** `status.addresses[type=InternalIP]`, first one first: the node's primary IP. */
  internalIP: IPv4;
  /** Every address local to the node (InternalIP(s), ExternalIP(s)); used for `addrtype LOCAL`. */
  addresses: IPv4[];
  /** `spec.podCIDR` */
  podCIDR: string;
  /** The node's address on its pod bridge (cni0): first host of `podCIDR`. */
  bridgeIP: IPv4;
  /** `status.conditions[type=Ready].status == "True"` */
  ready: boolean;
  /** `metadata.labels` (e.g. `node.kubernetes.io/exclude-from-external-load-balancers`). */
  labels?: Record<string, string>;
  /**
   * Set only on a node that is down before the control plane noticed (`SceneOptions.downNodes`,
   * see `markNodesDown`): what its Node object's `Ready` condition still says. `ready` is then
   * false (nothing on the node answers).
   */
  apiReady?: boolean;
}

/** A Pod, reduced to what the data path needs. */
export interface ClusterPod {
  namespace: string;
  name: string;
  ip: IPv4;
  nodeName: string;
  labels: Record<string, string>;
  /** `status.conditions[type=Ready].status == "True"` */
  ready: boolean;
}

/** One entry of `spec.ports`, with the target port resolved to a number. */
export interface ServicePortModel {
  /** `spec.ports[].name`; empty for a single unnamed port. */
  name: string;
  protocol: Protocol;
  /** `spec.ports[].port`, the Service port (ClusterIP and load-balancer port). */
  port: number;
  /** `spec.ports[].targetPort` as a number (the Pod's port). */
  targetPort: number;
  /** `spec.ports[].nodePort`; 0 when none was allocated. */
  nodePort: number;
}

/** One `status.loadBalancer.ingress[]` entry. */
export interface IngressModel {
  ip: IPv4;
  /** `ipMode`; the API defaults it to `VIP` when `ip` is set (KEP-1860). */
  ipMode: 'VIP' | 'Proxy';
}

/** A Service with API defaults applied. */
export interface ServiceModel {
  namespace: string;
  name: string;
  type: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  clusterIP: IPv4;
  ports: ServicePortModel[];
  /** Defaults to `Cluster` for NodePort and LoadBalancer Services. */
  externalTrafficPolicy: 'Cluster' | 'Local';
  /** Defaults to `Cluster`. */
  internalTrafficPolicy: 'Cluster' | 'Local';
  /** Allocated only for type LoadBalancer with `externalTrafficPolicy: Local`; 0 otherwise. */
  healthCheckNodePort: number;
  sessionAffinity: 'None' | 'ClientIP';
  /** `sessionAffinityConfig.clientIP.timeoutSeconds`, API default 10800 (seconds). */
  affinityTimeoutSeconds: number;
  loadBalancerSourceRanges: string[];
  externalIPs: IPv4[];
  /** `status.loadBalancer.ingress` entries that carry an `ip` (hostname-only entries are ignored by kube-proxy). */
  ingress: IngressModel[];
  /**
   * Every `status.loadBalancer.ingress` entry as the API holds it, in order, `ip` and
   * `hostname` (`''` when absent): what kubectl's EXTERNAL-IP column prints (IPv6 and Proxy
   * entries included) and where an AWS-style balancer's DNS name is found. Empty unless type
   * LoadBalancer. Optional so that hand-built models (tests) need not carry it: absent reads
   * as empty.
   */
  statusIngress?: { ip: string; hostname: string }[];
}

/**
 * The DNS name a client dials when the Service's balancer published only hostnames
 * (`status.loadBalancer.ingress[].hostname` and no `ip`, as AWS's ELB/NLB do); undefined when
 * any entry has an `ip`, or none has a hostname. kube-proxy keeps only ingress IPs as
 * load-balancer VIPs (`pkg/proxy/serviceport.go` newBaseServiceInfo skips `ing.IP == ""`), so
 * for such a Service it writes no load-balancer-IP rule at all.
 */
export function ingressHostname(svc: Pick<ServiceModel, 'statusIngress'>): string | undefined {
  const status = svc.statusIngress ?? [];
  if (status.some((i) => i.ip !== '')) return undefined;
  return status.find((i) => i.hostname !== '')?.hostname;
}

/** One endpoint of one Service port, from an EndpointSlice. */
export interface EndpointModel {
  ip: IPv4;
  port: number;
  nodeName: string;
  /** `conditions.ready`; nil counts as ready. */
  ready: boolean;
  /** `conditions.serving`; nil counts as serving (kube-proxy's reading). */
  serving: boolean;
  /** `conditions.terminating`; nil counts as false. */
  terminating: boolean;
  /** `targetRef.name` when it names a Pod. */
  podName: string;
}

/** kube-proxy's configuration with kube-proxy's defaults applied. */
export interface KubeProxyConfig {
  /** Default `iptables` on Linux. */
  mode: 'iptables' | 'ipvs' | 'nftables';
  clusterCIDR: string;
  /** Default `ClusterCIDR` (uses `clusterCIDR` to tell pod traffic from other traffic). */
  detectLocalMode: 'ClusterCIDR' | 'NodeCIDR';
  /** Empty means every local address (the "match all" case). */
  nodePortAddresses: string[];
  /** `iptables.masqueradeBit` (iptables and IPVS modes); default 14, i.e. mark 0x4000. */
  masqueradeBit: number;
  /** `iptables.masqueradeAll` (iptables and IPVS modes); default false. */
  masqueradeAll: boolean;
  /** `nftables.masqueradeBit`, what nftables mode uses instead; default 14. */
  nftablesMasqueradeBit: number;
  /** `nftables.masqueradeAll`, what nftables mode uses instead; default false. */
  nftablesMasqueradeAll: boolean;
  /** Default true (IPv4 NodePorts also answer on 127.0.0.1). */
  localhostNodePorts: boolean;
  /** `ipvs.scheduler`; empty means kube-proxy's default, `rr`. */
  ipvsScheduler: string;
}

/** The cloud load balancer with its defaults. */
export interface LoadBalancerModel {
  name: string;
  /** `namespace/name` of the Service it fronts. */
  service: string;
  delivery: LoadBalancerDelivery;
  /** Default `NAT`; see `LoadBalancerImplementation` (`k8s/objects.ts`). */
  implementation: LoadBalancerImplementation;
  backendAddress: IPv4;
  /** The address it publishes once provisioned. */
  address: IPv4;
  healthCheck: {
    intervalSeconds: number;
    timeoutSeconds: number;
    healthyThreshold: number;
    unhealthyThreshold: number;
  };
}

/** A client, resolved to its source address. */
export interface ClientModel {
  name: string;
  location: ClientLocation;
  address: IPv4;
  sourcePort: number;
  /** The node it runs on (Node and Pod clients). */
  nodeName?: string;
  /** `namespace/name` of the Pod (Pod clients). */
  pod?: string;
}

/** Everything the model knows about the cluster and its surroundings. */
export interface Cluster {
  nodes: ClusterNode[];
  pods: ClusterPod[];
  services: ServiceModel[];
  /** Endpoints per Service port, keyed by {@link servicePortKey}. */
  endpoints: Record<string, EndpointModel[]>;
  kubeProxy: KubeProxyConfig;
  /**
   * The ServiceCIDR objects in input order, or the assumed default `kubernetes` 10.96.0.0/12
   * (flagged `assumed`) when the input holds none. kube-proxy's nftables mode drops traffic to
   * their unallocated addresses (`cluster-ips-check`).
   */
  serviceCIDRs: ServiceCIDRModel[];
  loadBalancers: LoadBalancerModel[];
  clients: ClientModel[];
  /** Human-readable notes about values the model assumed ("assumed: …"). */
  assumed: string[];
}

/** The key of a Service port's endpoints: `namespace/name:portName` (kube-proxy's ServicePortName). */
export function servicePortKey(svc: { namespace: string; name: string }, portName: string): string {
  return portName === ''
    ? `${svc.namespace}/${svc.name}`
    : `${svc.namespace}/${svc.name}:${portName}`;
}

/** Looks a node up by name; undefined when absent. */
export function findNode(cluster: Cluster, name: string): ClusterNode | undefined {
  return cluster.nodes.find((n) => n.name === name);
}

/** The node whose local addresses include `ip`, if any. */
export function nodeOwningAddress(cluster: Cluster, ip: IPv4): ClusterNode | undefined {
  return cluster.nodes.find((n) => n.addresses.includes(ip) || n.bridgeIP === ip);
}

/** The Pod with IP `ip`, if any. */
export function podByIP(cluster: Cluster, ip: IPv4): ClusterPod | undefined {
  return cluster.pods.find((p) => p.ip === ip);
}

export { firstHost };
