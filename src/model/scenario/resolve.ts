/**
 * Scenario objects → {@link Cluster}: applies the API server's and kube-proxy's defaults and
 * follows references (EndpointSlice → Service, Pod → Node).
 *
 * Sources for the defaults:
 * - Service: `pkg/apis/core/v1/defaults.go` (SetDefaults_Service): externalTrafficPolicy
 *   `Cluster` for externally-accessible Services (NodePort, LoadBalancer, ClusterIP with
 *   `externalIPs`), internalTrafficPolicy `Cluster`, sessionAffinity
 *   `None`, protocol `TCP`, targetPort = port, ClientIP timeout 10800 s; `ipMode` defaults to
 *   `VIP` when `ip` is set (SetDefaults_LoadBalancerIngress, KEP-1860).
 * - EndpointSlice conditions as kube-proxy reads them: ready nil ⇒ true; serving nil ⇒ true;
 *   terminating nil ⇒ false; only `addresses[0]` (`pkg/proxy/endpointslicecache.go`).
 * - kube-proxy: mode iptables, masqueradeBit 14 (`iptables.` and `nftables.`),
 *   localhostNodePorts true, detectLocalMode ClusterCIDR
 *   (`pkg/proxy/apis/config/v1alpha1/defaults.go`).
 * - ServiceCIDRs: see ../k8s/serviceCIDR.ts; without one, kubeadm's default 10.96.0.0/12.
 */
import type { EndpointSlice, Node, Pod, Service } from '../k8s/objects';
import type {
  CloudLoadBalancer,
  Client,
  KubeProxyConfiguration,
  ScenarioObject,
} from '../k8s/objects';
import { LOAD_BALANCER_IMPLEMENTATIONS } from '../k8s/objects';
import type {
  Cluster,
  ClusterNode,
  ClusterPod,
  ClientModel,
  EndpointModel,
  KubeProxyConfig,
  LoadBalancerModel,
  ServiceModel,
  ServicePortModel,
} from './cluster';
import { ingressHostname, servicePortKey } from './cluster';
import { firstHost, isIPv4 } from '../net/ip';
import { isIPv4CIDR, serviceCIDRsOf } from '../k8s/serviceCIDR';
import type { Protocol } from '../net/ip';

/** Raised when an object cannot be resolved; `path` is the field path a kubectl user knows. */
export class ScenarioError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ScenarioError';
  }
}

function nsName(meta: { namespace?: string; name?: string } | undefined): string {
  return `${meta?.namespace ?? 'default'}/${meta?.name ?? ''}`;
}

function resolveNode(node: Node): ClusterNode {
  const name = node.metadata?.name ?? '';
  const addresses = node.status?.addresses ?? [];
  // The IPv4 family only: kube-proxy's IPv4 proxier takes the node's IPv4 address
  // (utilnode.GetNodeHostIPs, InternalIP first); IPv6 is not modelled yet (the validator warns
  // at each IPv6 address, ../import/family-checks.ts).
  const of = (type: string) =>
    addresses.filter((a) => a.type === type && isIPv4(a.address)).map((a) => a.address);
  const internal = of('InternalIP');
  const external = of('ExternalIP');
  const internalIP = internal[0];
  if (!internalIP) {
    const v6 = addresses.some((a) => a.type === 'InternalIP' && a.address.includes(':'));
    throw new ScenarioError(
      `Node ${name}: status.addresses`,
      v6 ? 'IPv6 is not modelled yet: no IPv4 InternalIP' : 'no InternalIP',
    );
  }
  const podCIDR = node.spec?.podCIDR ?? '';
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return {
    name,
    internalIP,
    addresses: [...internal, ...external],
    podCIDR,
    bridgeIP: podCIDR ? firstHost(podCIDR) : internalIP,
    ready,
    ...(node.metadata?.labels ? { labels: { ...node.metadata.labels } } : {}),
  };
}

function resolvePod(pod: Pod): ClusterPod {
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    // The Pod's IPv4 address (podIPs holds one per family; podIP is podIPs[0]), '' when it
    // has none: an IPv6-only Pod is no endpoint of the IPv4 proxier.
    ip:
      (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').find(isIPv4) ??
      (isIPv4(pod.status?.podIP ?? '') ? (pod.status?.podIP ?? '') : ''),
    nodeName: pod.spec?.nodeName ?? '',
    labels: { ...pod.metadata?.labels },
    ready: pod.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
  };
}

function resolveService(svc: Service): ServiceModel {
  const spec = svc.spec ?? {};
  const type = (spec.type ?? 'ClusterIP') as ServiceModel['type'];
  // apiservice.ExternallyAccessible (pkg/api/v1/service/util.go): LoadBalancer, NodePort, or
  // ClusterIP with externalIPs. kube-proxy reads the policy through ExternalPolicyLocal, so
  // Local applies to a ClusterIP Service's externalIPs too.
  const external =
    type === 'NodePort' ||
    type === 'LoadBalancer' ||
    (type === 'ClusterIP' && (spec.externalIPs ?? []).length > 0);
  const ports: ServicePortModel[] = (spec.ports ?? []).map((p, i) => {
    let targetPort: number;
    if (p.targetPort === undefined) targetPort = p.port;
    else if (typeof p.targetPort === 'number') targetPort = p.targetPort;
    else if (/^\d+$/.test(p.targetPort)) targetPort = Number(p.targetPort);
    // A named targetPort ("http") is resolved per Pod by the EndpointSlice controller;
    // the slice's port carries the number, filled in by resolveCluster.
    else targetPort = 0;
    if (!Number.isInteger(p.port))
      throw new ScenarioError(`spec.ports[${i}].port`, 'Required value');
    return {
      name: p.name ?? '',
      protocol: (p.protocol ?? 'TCP').toLowerCase() as Protocol,
      port: p.port,
      targetPort,
      nodePort: p.nodePort ?? 0,
    };
  });
  // kube-proxy's IPv4 proxier keeps only IPv4 ingress addresses (servicechangetracker.go).
  const ingress = (svc.status?.loadBalancer?.ingress ?? [])
    .filter((i) => i.ip !== undefined && isIPv4(i.ip))
    .map((i) => ({ ip: i.ip as string, ipMode: (i.ipMode ?? 'VIP') as 'VIP' | 'Proxy' }));
  return {
    namespace: svc.metadata?.namespace ?? 'default',
    name: svc.metadata?.name ?? '',
    type,
    // The IPv4 family's ClusterIP (proxyutil.GetClusterIPByFamily: spec.clusterIPs, else
    // spec.clusterIP); '' for an IPv6-only Service, which resolveCluster leaves out.
    clusterIP: ipv4ClusterIP(spec),
    ports,
    externalTrafficPolicy: external
      ? ((spec.externalTrafficPolicy ?? 'Cluster') as 'Cluster' | 'Local')
      : 'Cluster',
    internalTrafficPolicy: (spec.internalTrafficPolicy ?? 'Cluster') as 'Cluster' | 'Local',
    healthCheckNodePort:
      type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local'
        ? (spec.healthCheckNodePort ?? 0)
        : 0,
    sessionAffinity: (spec.sessionAffinity ?? 'None') as 'None' | 'ClientIP',
    affinityTimeoutSeconds: spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800,
    // newBaseServiceInfo (pkg/proxy/serviceport.go): trimmed, then only the IPv4 CIDRs.
    loadBalancerSourceRanges:
      type === 'LoadBalancer'
        ? (spec.loadBalancerSourceRanges ?? []).map((r) => r.trim()).filter(isIPv4CIDR)
        : [],
    // The IPv4 proxier keeps only IPv4 externalIPs (serviceport.go "Filter ExternalIPs to
    // correct IP family").
    externalIPs: (spec.externalIPs ?? []).filter(isIPv4),
    ingress: type === 'LoadBalancer' ? ingress : [],
    statusIngress:
      type === 'LoadBalancer'
        ? (svc.status?.loadBalancer?.ingress ?? []).map((i) => ({
            ip: i.ip ?? '',
            hostname: i.hostname ?? '',
          }))
        : [],
  };
}

/** The IPv4 entry of `spec.clusterIPs` (else `spec.clusterIP` when IPv4), or ''. */
function ipv4ClusterIP(spec: NonNullable<Service['spec']>): string {
  if (spec.clusterIP === 'None') return 'None';
  const listed = (spec.clusterIPs ?? []).find((ip) => isIPv4(ip));
  if (listed) return listed;
  return isIPv4(spec.clusterIP ?? '') ? (spec.clusterIP ?? '') : '';
}

/** True when the Service has ClusterIPs, or asks for families, and none is IPv4. */
function ipv6Only(spec: NonNullable<Service['spec']>): boolean {
  const ips = [spec.clusterIP ?? '', ...(spec.clusterIPs ?? [])].filter((ip) => ip.includes(':'));
  return ips.length > 0 || (spec.ipFamilies ?? [])[0] === 'IPv6';
}

function resolveSlices(
  slices: EndpointSlice[],
  services: ServiceModel[],
): Record<string, EndpointModel[]> {
  const out: Record<string, EndpointModel[]> = {};
  for (const svc of services)
    for (const port of svc.ports) out[servicePortKey(svc, port.name)] = [];
  for (const slice of slices) {
    // EndpointsChangeTracker.EndpointSliceUpdate (pkg/proxy/endpointschangetracker.go) ignores
    // slices of the other family: the IPv4 proxier reads addressType IPv4 only.
    if (slice.addressType !== undefined && slice.addressType !== 'IPv4') continue;
    const svcName = slice.metadata?.labels?.['kubernetes.io/service-name'];
    const svc = services.find(
      (s) => s.name === svcName && s.namespace === (slice.metadata?.namespace ?? 'default'),
    );
    if (!svc) continue;
    for (const sp of slice.ports ?? []) {
      const key = servicePortKey(svc, sp.name ?? '');
      const list = out[key];
      if (!list || sp.port === undefined) continue;
      for (const ep of slice.endpoints ?? []) {
        // kube-proxy uses only the first address of an endpoint (all of them are fungible,
        // per the EndpointSlice API) — endpointslicecache.go addEndpoints.
        const ip = ep.addresses[0];
        if (ip === undefined) continue;
        list.push({
          ip,
          port: sp.port,
          nodeName: ep.nodeName ?? '',
          ready: ep.conditions?.ready ?? true,
          serving: ep.conditions?.serving ?? true,
          terminating: ep.conditions?.terminating ?? false,
          podName: ep.targetRef?.kind === 'Pod' ? (ep.targetRef.name ?? '') : '',
        });
      }
    }
  }
  return out;
}

function resolveKubeProxy(
  cfg: KubeProxyConfiguration | undefined,
  assumed: string[],
): KubeProxyConfig {
  if (!cfg)
    assumed.push('kube-proxy: no KubeProxyConfiguration given; using its defaults (mode iptables)');
  return {
    mode: cfg?.mode ? cfg.mode : 'iptables',
    // kube-proxy's default is empty: no local-traffic detector, so no `! -s <clusterCIDR>` rules.
    clusterCIDR: cfg?.clusterCIDR ?? '',
    detectLocalMode: cfg?.detectLocalMode ? cfg.detectLocalMode : 'ClusterCIDR',
    nodePortAddresses: [...(cfg?.nodePortAddresses ?? [])],
    masqueradeBit: cfg?.iptables?.masqueradeBit ?? 14,
    masqueradeAll: cfg?.iptables?.masqueradeAll ?? false,
    nftablesMasqueradeBit: cfg?.nftables?.masqueradeBit ?? 14,
    nftablesMasqueradeAll: cfg?.nftables?.masqueradeAll ?? false,
    localhostNodePorts: cfg?.iptables?.localhostNodePorts ?? true,
    ipvsScheduler: cfg?.ipvs?.scheduler ?? '',
  };
}

/**
 * The balancer's address on the nodes' network when the scenario gives none: `.250` in the
 * first node's /24 (the canonical scenario's 192.168.0.250), so a proxying balancer's
 * connections come from the nodes' own network whatever the cluster's addresses.
 */
function defaultBackendAddress(nodeIPs: readonly string[]): string {
  const first = nodeIPs.find(isIPv4);
  if (!first) return '192.168.0.250';
  const prefix = first.split('.').slice(0, 3).join('.');
  for (let host = 250; host > 1; host--) {
    const ip = `${prefix}.${host}`;
    if (!nodeIPs.includes(ip)) return ip;
  }
  return `${prefix}.250`;
}

function resolveLoadBalancer(
  lb: CloudLoadBalancer,
  nodeIPs: readonly string[],
  assumed: string[],
): LoadBalancerModel {
  const hc = lb.spec.healthCheck ?? {};
  const implementation = lb.spec.implementation ?? 'NAT';
  if (!LOAD_BALANCER_IMPLEMENTATIONS.includes(implementation))
    throw new ScenarioError(
      `CloudLoadBalancer ${lb.metadata.name}: spec.implementation`,
      `Unsupported value: "${String(implementation)}": supported values: ${LOAD_BALANCER_IMPLEMENTATIONS.map((v) => `"${v}"`).join(', ')}`,
    );
  // Direct server return and MetalLB never rewrite the destination: the packet reaches the
  // node addressed to the load-balancer IP, whatever `delivery` says.
  const keepsDestination = implementation !== 'NAT';
  if (keepsDestination && lb.spec.delivery === 'NodePort')
    assumed.push(
      `CloudLoadBalancer ${lb.metadata.name}: spec.delivery NodePort ignored; ${implementation} keeps the load-balancer IP as the destination (LoadBalancerIP)`,
    );
  return {
    name: lb.metadata.name,
    service: lb.spec.service,
    delivery: keepsDestination ? 'LoadBalancerIP' : (lb.spec.delivery ?? 'NodePort'),
    implementation,
    backendAddress: lb.spec.backendAddress ?? defaultBackendAddress(nodeIPs),
    address: lb.spec.address ?? '',
    // Defaults modelled on a common cloud's network load balancer health check.
    healthCheck: {
      intervalSeconds: hc.intervalSeconds ?? 10,
      timeoutSeconds: hc.timeoutSeconds ?? 5,
      healthyThreshold: hc.healthyThreshold ?? 2,
      unhealthyThreshold: hc.unhealthyThreshold ?? 3,
    },
  };
}

function resolveClient(c: Client, nodes: ClusterNode[], pods: ClusterPod[]): ClientModel {
  const base = {
    name: c.metadata.name,
    location: c.spec.location,
    sourcePort: c.spec.sourcePort ?? 51234,
  };
  if (c.spec.location === 'Node') {
    const node = nodes.find((n) => n.name === c.spec.nodeName);
    if (!node)
      throw new ScenarioError(
        `Client ${c.metadata.name}: spec.nodeName`,
        `no node "${c.spec.nodeName ?? ''}"`,
      );
    return { ...base, address: node.internalIP, nodeName: node.name };
  }
  if (c.spec.location === 'Pod') {
    const pod = pods.find((p) => `${p.namespace}/${p.name}` === c.spec.pod);
    if (!pod)
      throw new ScenarioError(
        `Client ${c.metadata.name}: spec.pod`,
        `no Pod "${c.spec.pod ?? ''}"`,
      );
    return {
      ...base,
      address: pod.ip,
      nodeName: pod.nodeName,
      pod: `${pod.namespace}/${pod.name}`,
    };
  }
  return { ...base, address: c.spec.address ?? '198.51.100.23' };
}

/**
 * A balancer whose Service published only a hostname delivers to the NodePort, whatever its
 * `delivery` says. kube-proxy makes load-balancer VIPs of ingress IPs only
 * (`pkg/proxy/serviceport.go`: `if ing.IP == "" { continue }`), so no node has a rule for a
 * packet that keeps the balancer's address as its destination (no `KUBE-EXT-` jump for it):
 * `LoadBalancerIP` delivery could not work. The balancers that publish hostnames (AWS's
 * Classic ELB and NLB with instance targets) target NodePorts, so that is what is modelled;
 * the change is listed in `assumed`.
 */
function deliverHostnameBalancersToNodePorts(
  services: readonly ServiceModel[],
  loadBalancers: LoadBalancerModel[],
  assumed: string[],
): void {
  for (const lb of loadBalancers) {
    if (lb.delivery !== 'LoadBalancerIP') continue;
    const svc = services.find((s) => `${s.namespace}/${s.name}` === lb.service);
    const hostname = svc ? ingressHostname(svc) : undefined;
    if (hostname === undefined) continue;
    // Only AWS-style balancers publish a name (GCP's passthrough balancer and MetalLB publish
    // IPs), and they answer through themselves: direct server return or MetalLB would need a
    // rule for the VIP on the node, which a hostname-only ingress never gets.
    if (lb.implementation !== 'NAT') {
      assumed.push(
        `balancer ${lb.name} is taken as a NAT balancer, not ${lb.implementation}: ${lb.service} published only the hostname ${hostname}, as AWS balancers do`,
      );
      lb.implementation = 'NAT';
    }
    lb.delivery = 'NodePort';
    assumed.push(
      `balancer ${lb.name} delivers to the NodePort, not keeping the load-balancer IP: ${lb.service} published only the hostname ${hostname}, and kube-proxy writes rules for ingress IPs only, so no node would accept a packet still addressed to the balancer`,
    );
  }
}

/**
 * Resolves scenario objects into a {@link Cluster}.
 * @throws {ScenarioError} when an object lacks something the model cannot do without (a
 *   Node without an InternalIP, a Client naming a node or Pod that does not exist).
 */
export function resolveCluster(objects: readonly ScenarioObject[]): Cluster {
  const assumed: string[] = [];
  const of = <K extends ScenarioObject['kind']>(kind: K) =>
    objects.filter((o): o is Extract<ScenarioObject, { kind: K }> => o.kind === kind);
  const nodes = of('Node').map(resolveNode);
  const pods = of('Pod').map(resolvePod);
  // ServiceChangeTracker.serviceToServiceMap (pkg/proxy/servicechangetracker.go) skips a
  // Service with no ClusterIP of the proxier's family: the IPv4 proxier never sees an
  // IPv6-only one, and neither does the model.
  const services = of('Service').flatMap((svc) => {
    const model = resolveService(svc);
    if (model.clusterIP !== '' || !ipv6Only(svc.spec ?? {})) return [model];
    assumed.push(
      `Service ${model.namespace}/${model.name} left out: it is IPv6-only, and IPv6 is not modelled yet (kube-proxy's IPv4 rules leave it out too)`,
    );
    return [];
  });
  const endpoints = resolveSlices(of('EndpointSlice'), services);
  for (const svc of services)
    for (const port of svc.ports)
      if (port.targetPort === 0)
        port.targetPort = endpoints[servicePortKey(svc, port.name)]?.[0]?.port ?? 0;
  // Endpoints whose Pod is not in the input (e.g. kubectl get svc,endpointslices only): the
  // model still needs a place to deliver to, so each such endpoint becomes a Pod of its own.
  const knownIPs = new Set(pods.map((p) => p.ip));
  for (const [key, eps] of Object.entries(endpoints))
    for (const e of eps)
      if (!knownIPs.has(e.ip) && e.nodeName) {
        knownIPs.add(e.ip);
        pods.push({
          namespace: key.split('/')[0] ?? 'default',
          name: e.podName || e.ip,
          ip: e.ip,
          nodeName: e.nodeName,
          labels: {},
          ready: e.ready,
        });
        assumed.push(`a Pod at ${e.ip} on ${e.nodeName}: only its endpoint is known`);
      }
  const kubeProxy = resolveKubeProxy(of('KubeProxyConfiguration')[0], assumed);
  const cidrs = serviceCIDRsOf(objects);
  if (cidrs.assumed) assumed.push(cidrs.assumed);
  const serviceCIDRs = cidrs.models;
  const nodeIPs = nodes.map((n) => n.internalIP);
  const loadBalancers = of('CloudLoadBalancer').map((lb) =>
    resolveLoadBalancer(lb, nodeIPs, assumed),
  );
  deliverHostnameBalancersToNodePorts(services, loadBalancers, assumed);
  const clients = of('Client').map((c) => resolveClient(c, nodes, pods));
  return {
    nodes,
    pods,
    services,
    endpoints,
    kubeProxy,
    serviceCIDRs,
    loadBalancers,
    clients,
    assumed,
  };
}

export { nsName };
