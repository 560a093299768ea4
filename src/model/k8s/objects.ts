/**
 * The input format: Kubernetes-style objects, exactly as `kubectl get … -o yaml` prints
 * them, plus a few kinds of our own (API group {@link OUR_GROUP}) for what the API server
 * does not describe: the cloud load balancer and the clients.
 *
 * Kubernetes kinds use the `kubernetes-types` package's definitions (every field optional,
 * as in the API), so pasted YAML maps 1:1 and error messages can name field paths a kubectl
 * user knows (`spec.ports[0].nodePort`).
 */
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';

export type { Node, Pod, Service, EndpointSlice, ObjectMeta };

/** The API group of our own kinds. */
export const OUR_GROUP = 'lbpath.example/v1alpha1';

/**
 * kube-proxy's own configuration file (`kubeproxy.config.k8s.io/v1alpha1`), the subset the
 * model reads. Defaults are kube-proxy's (see `resolveKubeProxyConfig`).
 */
export interface KubeProxyConfiguration {
  apiVersion: 'kubeproxy.config.k8s.io/v1alpha1';
  kind: 'KubeProxyConfiguration';
  mode?: '' | 'iptables' | 'ipvs' | 'nftables';
  clusterCIDR?: string;
  detectLocalMode?: '' | 'ClusterCIDR' | 'NodeCIDR';
  nodePortAddresses?: string[];
  iptables?: { masqueradeBit?: number; masqueradeAll?: boolean; localhostNodePorts?: boolean };
  ipvs?: { scheduler?: string };
  /**
   * nftables mode's own settings: kube-proxy in `mode: nftables` reads its mark bit and
   * masqueradeAll here, not under `iptables` (cmd/kube-proxy/app/server_linux.go passes
   * `config.NFTables.MasqueradeBit`; v1alpha1 conversion.go takes `Linux.MasqueradeAll` from
   * `nftables.masqueradeAll` in nftables mode). Default bit 14 (v1alpha1 defaults.go).
   */
  nftables?: { masqueradeBit?: number; masqueradeAll?: boolean };
}

/**
 * `networking.k8s.io/v1` ServiceCIDR (GA in 1.33, KEP-1880 MultiCIDRServiceAllocator): a range
 * the API server allocates ClusterIPs from, and that kube-proxy reads for nftables'
 * `cluster-ips-check`. kube-apiserver writes the default one, named `kubernetes`, from its
 * `--service-cluster-ip-range`. `spec.cidrs` holds one CIDR, or two of different families.
 * (Declared here: the `kubernetes-types` package in use predates networking/v1 ServiceCIDR.)
 */
export interface ServiceCIDR {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'ServiceCIDR';
  metadata?: ObjectMeta;
  spec?: { cidrs?: string[] };
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/**
 * How the cloud load balancer hands a connection to a node.
 * - `NodePort`: it rewrites the destination to `<node IP>:<nodePort>` (instance targets).
 * - `LoadBalancerIP`: it keeps the destination `<LB IP>:<port>` and routes the packet to the
 *   node (passthrough, e.g. a Direct Server Return style network LB); this is what
 *   `ipMode: VIP` declares kube-proxy may rely on.
 */
export type LoadBalancerDelivery = 'NodePort' | 'LoadBalancerIP';

/**
 * What carries the client's packets to a node, and so where the node's reply goes:
 * - `NAT` (the default): a stateful balancer on the path both ways. It rewrites the destination
 *   to the NodePort (`delivery: NodePort`, e.g. AWS NLB instance targets, a classic ELB) or
 *   keeps the load-balancer IP (`delivery: LoadBalancerIP`), and the reply goes back through
 *   it, which sends it to the client from the address the client dialled. A proxying balancer
 *   (`ipMode: Proxy`) is on the path both ways too, whatever this field says: it ends the
 *   client's connection and opens its own.
 * - `DirectServerReturn`: a passthrough balancer such as Google Cloud's passthrough Network
 *   Load Balancer. Its packets reach the node with destination, source and ports unchanged
 *   ("Responses from the backend VMs go directly to the clients, not back through the load
 *   balancer. The industry term for this is direct server return (DSR)": Google Cloud docs,
 *   load-balancing/docs/passthrough-network-load-balancer). Delivery is `LoadBalancerIP`, so
 *   kube-proxy's rule for the load-balancer IP (ipMode VIP) must catch it; the node's reply
 *   leaves with the load-balancer IP as its source, straight to the client.
 * - `MetalLB-L2`: no balancer at all. One node's MetalLB speaker answers ARP for the address
 *   ("one node assumes the responsibility of advertising a service to the local network",
 *   metallb.universe.tf/concepts/layer2; the node is chosen as in `speaker/layer2_controller.go`),
 *   so the client's packets arrive at that node with the address as destination, and it
 *   answers the client itself.
 * - `MetalLB-BGP`: no balancer either. Every node that MetalLB announces from (all nodes when
 *   any endpoint can serve under Cluster; under Local only nodes with a local endpoint that can
 *   serve, `speaker/bgp_controller.go` ShouldAnnounce) advertises a route to the address; the
 *   router picks one per connection (ECMP, metallb.universe.tf/concepts/bgp) and only routes.
 */
export type LoadBalancerImplementation =
  'NAT' | 'DirectServerReturn' | 'MetalLB-L2' | 'MetalLB-BGP';

/** Every {@link LoadBalancerImplementation}, in the order the app offers them. */
export const LOAD_BALANCER_IMPLEMENTATIONS: readonly LoadBalancerImplementation[] = [
  'NAT',
  'DirectServerReturn',
  'MetalLB-L2',
  'MetalLB-BGP',
];

/** Our kind: the cloud load balancer in front of one Service. */
export interface CloudLoadBalancer {
  apiVersion: typeof OUR_GROUP;
  kind: 'CloudLoadBalancer';
  metadata: { name: string };
  spec: {
    /** The Service it fronts, `namespace/name`. */
    service: string;
    /** How it delivers to the node when `ipMode` is VIP; with `ipMode: Proxy` it always proxies to the NodePort. */
    delivery?: LoadBalancerDelivery;
    /**
     * What it is, and so where the reply goes (see {@link LoadBalancerImplementation});
     * default `NAT`. `DirectServerReturn` and the MetalLB modes always keep the destination
     * (`delivery: LoadBalancerIP`).
     */
    implementation?: LoadBalancerImplementation;
    /** The balancer's own address on the nodes' network: the source of connections it proxies (`ipMode: Proxy`). */
    backendAddress?: string;
    /** The address the cloud will publish in `status.loadBalancer.ingress[0].ip`. */
    address?: string;
    healthCheck?: {
      intervalSeconds?: number;
      timeoutSeconds?: number;
      healthyThreshold?: number;
      unhealthyThreshold?: number;
    };
  };
}

/** Where a client sits. */
export type ClientLocation = 'Internet' | 'Node' | 'Pod';

/** Our kind: a client that opens connections. */
export interface Client {
  apiVersion: typeof OUR_GROUP;
  kind: 'Client';
  metadata: { name: string };
  spec: {
    location: ClientLocation;
    /** Source address (Internet), ignored for Node (the node's InternalIP is used) and Pod (the Pod's IP). */
    address?: string;
    /** For Node: the node it runs on. */
    nodeName?: string;
    /** For Pod: the Pod (`namespace/name`) it runs in. */
    pod?: string;
    /** TCP source port of the connection, default 51234. */
    sourcePort?: number;
  };
}

/** Any object the scenario may hold. Unknown kinds are kept and ignored by the model. */
export type ScenarioObject =
  | (Service & { kind: 'Service' })
  | (EndpointSlice & { kind: 'EndpointSlice' })
  | (Node & { kind: 'Node' })
  | (Pod & { kind: 'Pod' })
  | KubeProxyConfiguration
  | ServiceCIDR
  | CloudLoadBalancer
  | Client;
