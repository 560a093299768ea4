/**
 * The per-service-port part of kube-proxy's nftables sync: map elements (`cluster-ips`,
 * `service-ips`, `service-nodeports`, `firewall-ips`, `no-endpoint-*`), and the `service-`,
 * `local-`, `external-`, `firewall-` and `endpoint-` chains with their rules, plus the
 * `affinity-` sets for ClientIP session affinity.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/nftables/proxier.go` (`syncProxyRules`, the body
 * of the loop over `proxier.svcPortMap`, and `writeServiceToEndpointRules`), read at
 * aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212; source-range and ipMode
 * filtering from `pkg/proxy/serviceport.go` (`newBaseServiceInfo`: ranges trimmed, a
 * zero-masked range means "allow all", ingress IPs with ipMode Proxy skipped).
 */
import type {
  Cluster,
  ClusterNode,
  EndpointModel,
  ServiceModel,
  ServicePortModel,
} from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import { cidrContains, isIPv4 } from '../../net/ip';
import { categorizeEndpoints, endpointString } from '../endpoints';
import type { CategorizedEndpoints } from '../endpoints';
import { endpointNames, serviceChainNames } from './hash';
import type { NftServiceChainNames } from './hash';
import type { NftMatch, NftVerdict } from './types';
import type { NftWriter } from './writer';

/** What one service port's rules depend on. */
export interface ServicePortContext {
  cluster: Cluster;
  node: ClusterNode;
  svc: ServiceModel;
  port: ServicePortModel;
  /** The local-traffic detector's CIDR (`detectLocalMode`); undefined when not implemented. */
  localCIDR: string | undefined;
  masqueradeAll: boolean;
}

/** `loadBalancerSourceRanges` as kube-proxy keeps them: trimmed, IPv4, none if any is /0. */
export function sourceRanges(svc: ServiceModel): string[] {
  const cidrs = svc.loadBalancerSourceRanges
    .map((c) => c.trim())
    .filter((c) => isIPv4(c.split('/')[0] ?? ''));
  return cidrs.some((c) => c.endsWith('/0')) ? [] : cidrs;
}

/**
 * What the sync decides for one service port before it writes anything: its chains, its
 * endpoints on this node, which chains it uses, and the verdicts for missing endpoints.
 */
interface NftPortPlan {
  /** The ServicePortName, `namespace/name:port`. */
  S: string;
  names: NftServiceChainNames;
  eps: CategorizedEndpoints;
  /** The `endpoint-` chain and `affinity-` set of an endpoint. */
  epNames: (ep: EndpointModel) => { chain: string; affinitySet: string };
  /** The VIP-mode load-balancer IPs (ipMode Proxy ingress IPs are skipped). */
  lbVIPs: string[];
  /** {@link sourceRanges}. */
  ranges: string[];
  affinity: boolean;
  /** Traffic to the ClusterIP has endpoints to go to (`internalTrafficPolicy` counted). */
  hasInternal: boolean;
  /** Traffic from outside has endpoints to go to (`externalTrafficPolicy` counted). */
  hasExternal: boolean;
  /** `service-` or, under `internalTrafficPolicy: Local`, `local-`. */
  internalChain: string;
  /** `service-` or, under `externalTrafficPolicy: Local`, `local-`. */
  externalPolicyChain: string;
  usesClusterChain: boolean;
  usesLocalChain: boolean;
  usesExternalChain: boolean;
  usesFirewall: boolean;
  internalFilter: NftVerdict | undefined;
  externalFilter: NftVerdict | undefined;
}

/** The plan of one service port on the node (the top of the loop body in proxier.go). */
function portPlan(ctx: ServicePortContext): NftPortPlan {
  const { cluster, node, svc, port } = ctx;
  const S = servicePortKey(svc, port.name);
  const proto = port.protocol;
  const eps = categorizeEndpoints(cluster.endpoints[S] ?? [], svc, node.name);
  const lbVIPs = svc.ingress.filter((i) => i.ipMode === 'VIP').map((i) => i.ip);
  const ranges = sourceRanges(svc);
  const internalLocal = svc.internalTrafficPolicy === 'Local';
  const externalLocal = svc.externalTrafficPolicy === 'Local';
  const hasInternal = eps.hasAny && !(internalLocal && eps.local.length === 0);
  const hasExternal = eps.hasAny && !(externalLocal && eps.local.length === 0);
  // serviceport.go ExternallyAccessible: a NodePort, a VIP-mode LB IP or an externalIP.
  const externallyAccessible =
    port.nodePort !== 0 || lbVIPs.length > 0 || svc.externalIPs.length > 0;
  const reject: NftVerdict = { kind: 'goto', chain: 'reject-chain' };
  const names = serviceChainNames(svc.namespace, svc.name, proto, port.name);
  return {
    S,
    names,
    eps,
    epNames: (ep) => endpointNames(svc.namespace, svc.name, proto, port.name, ep.ip, ep.port),
    lbVIPs,
    ranges,
    affinity: svc.sessionAffinity === 'ClientIP',
    hasInternal,
    hasExternal,
    internalChain: internalLocal ? names.local : names.service,
    externalPolicyChain: externalLocal ? names.local : names.service,
    usesClusterChain: eps.cluster.length > 0,
    usesLocalChain: eps.local.length > 0,
    usesExternalChain: eps.hasAny && externallyAccessible,
    usesFirewall: lbVIPs.length > 0 && ranges.length > 0,
    internalFilter: !eps.hasAny ? reject : !hasInternal ? { kind: 'drop' } : undefined,
    externalFilter: !eps.hasAny ? reject : !hasExternal ? { kind: 'drop' } : undefined,
  };
}

/** The chains the port uses, in the order the sync creates them. */
function declareChains(w: NftWriter, plan: NftPortPlan): void {
  const { names, eps } = plan;
  for (const ep of eps.allReachable) w.chain(plan.epNames(ep).chain);
  if (plan.usesClusterChain) w.chain(names.service);
  if (plan.usesLocalChain) w.chain(names.local);
  if (plan.usesExternalChain) w.chain(names.external);
  if (plan.usesFirewall) w.chain(names.firewall);
}

/**
 * The map elements that capture the port's addresses: the ClusterIP, externalIPs and VIP-mode
 * load-balancer IPs (`service-ips`, `firewall-ips`), the NodePort (`service-nodeports`, not
 * subject to loadBalancerSourceRanges), and the `no-endpoint-*` verdicts in their place.
 */
function writeCaptures(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  const { svc, port } = ctx;
  const { S, names, eps, lbVIPs, internalFilter } = plan;
  const proto = port.protocol;
  const key = (ip: string) => ({ ip, proto, port: port.port });
  const noEndpoints = !plan.hasExternal ? plan.externalFilter : undefined;

  // Capture the ClusterIP.
  w.setElement('cluster-ips', svc.clusterIP);
  if (plan.hasInternal)
    w.mapElement('service-ips', {
      ...key(svc.clusterIP),
      verdict: { kind: 'goto', chain: plan.internalChain },
    });
  else if (internalFilter)
    w.mapElement('no-endpoint-services', {
      ...key(svc.clusterIP),
      comment: S,
      verdict: internalFilter,
    });

  // Capture externalIPs.
  for (const eip of svc.externalIPs) {
    if (eps.hasAny)
      w.mapElement('service-ips', {
        ...key(eip),
        verdict: { kind: 'goto', chain: names.external },
      });
    if (noEndpoints)
      w.mapElement('no-endpoint-services', { ...key(eip), comment: S, verdict: noEndpoints });
  }

  // Capture load-balancer ingress (VIP mode only).
  for (const lbip of lbVIPs) {
    if (eps.hasAny)
      w.mapElement('service-ips', {
        ...key(lbip),
        verdict: { kind: 'goto', chain: names.external },
      });
    if (plan.usesFirewall)
      w.mapElement('firewall-ips', {
        ...key(lbip),
        verdict: { kind: 'goto', chain: names.firewall },
      });
  }
  if (noEndpoints)
    for (const lbip of lbVIPs)
      w.mapElement('no-endpoint-services', { ...key(lbip), comment: S, verdict: noEndpoints });

  // Capture the NodePort (not subject to loadBalancerSourceRanges).
  if (port.nodePort !== 0) {
    const np = { proto, port: port.nodePort };
    if (eps.hasAny)
      w.mapElement('service-nodeports', {
        ...np,
        verdict: { kind: 'goto', chain: names.external },
      });
    if (noEndpoints)
      w.mapElement('no-endpoint-nodeports', { ...np, comment: S, verdict: noEndpoints });
  }
}

/** Internal traffic: masquerade off-cluster sources reaching the ClusterIP. */
function writeInternalMasquerade(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  if (!plan.hasInternal) return;
  const { svc, port } = ctx;
  const base: NftMatch[] = [
    { kind: 'addr', dir: 'daddr', not: false, cidrs: [svc.clusterIP] },
    { kind: 'dport', proto: port.protocol, port: port.port },
  ];
  const mark = { kind: 'jump', chain: 'mark-for-masquerade' } as const;
  if (ctx.masqueradeAll) w.rule(plan.internalChain, base, mark);
  else if (ctx.localCIDR)
    w.rule(
      plan.internalChain,
      [...base, { kind: 'addr', dir: 'saddr', not: true, cidrs: [ctx.localCIDR] }],
      mark,
    );
}

/**
 * External traffic, the `external-` chain: masquerade under `Cluster`; under `Local`
 * short-circuit pod and node-local traffic to `service-` (masquerading the latter); then on to
 * the external policy chain.
 */
function writeExternalChain(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  if (!plan.usesExternalChain) return;
  const { names } = plan;
  const X = names.external;
  if (ctx.svc.externalTrafficPolicy !== 'Local') {
    w.rule(X, [], { kind: 'jump', chain: 'mark-for-masquerade' });
  } else {
    if (ctx.localCIDR)
      w.rule(
        X,
        [{ kind: 'addr', dir: 'saddr', not: false, cidrs: [ctx.localCIDR] }],
        { kind: 'goto', chain: names.service },
        'short-circuit pod traffic',
      );
    const fibLocal: NftMatch = { kind: 'fibLocal', dir: 'saddr' };
    w.rule(
      X,
      [fibLocal],
      { kind: 'jump', chain: 'mark-for-masquerade' },
      'masquerade local traffic',
    );
    w.rule(X, [fibLocal], { kind: 'goto', chain: names.service }, 'short-circuit local traffic');
  }
  if (plan.hasExternal) w.rule(X, [], { kind: 'goto', chain: plan.externalPolicyChain });
}

/** loadBalancerSourceRanges, the `firewall-` chain: drop what is not from an allowed range. */
function writeFirewallChain(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  if (!plan.usesFirewall) return;
  const { ranges, lbVIPs } = plan;
  const sources = [...ranges];
  // "For VIP-like LBs, the VIP is often added as a local address": allow the node itself.
  if (ranges.some((c) => cidrContains(c, ctx.node.internalIP))) sources.push(...lbVIPs);
  w.rule(plan.names.firewall, [{ kind: 'addr', dir: 'saddr', not: true, cidrs: sources }], {
    kind: 'drop',
  });
}

/**
 * writeServiceToEndpointRules: the `affinity-` sets, then in `service-` and `local-` the
 * affinity checks and the uniform random choice (`numgen`) among the endpoint chains.
 */
function writeEndpointChoice(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  const { names, eps, epNames, affinity } = plan;
  if (affinity)
    for (const ep of eps.allReachable)
      w.set(epNames(ep).affinitySet, { timeoutSeconds: ctx.svc.affinityTimeoutSeconds });

  const toEndpoints = (chain: string, list: EndpointModel[]) => {
    if (affinity)
      for (const ep of list)
        w.rule(chain, [{ kind: 'addrInSet', dir: 'saddr', set: epNames(ep).affinitySet }], {
          kind: 'goto',
          chain: epNames(ep).chain,
        });
    w.rule(chain, [], {
      kind: 'numgen',
      mod: list.length,
      targets: list.map((ep, index) => ({
        index,
        chain: epNames(ep).chain,
        endpoint: endpointString(ep),
      })),
    });
  };
  if (plan.usesClusterChain) toEndpoints(names.service, eps.cluster);
  if (plan.usesLocalChain) toEndpoints(names.local, eps.local);
}

/** The `endpoint-` chains: hairpin masquerade, affinity update, DNAT. */
function writeEndpointChains(w: NftWriter, ctx: ServicePortContext, plan: NftPortPlan): void {
  for (const ep of plan.eps.allReachable) {
    const n = plan.epNames(ep);
    w.rule(n.chain, [{ kind: 'addr', dir: 'saddr', not: false, cidrs: [ep.ip] }], {
      kind: 'jump',
      chain: 'mark-for-masquerade',
    });
    if (plan.affinity) w.rule(n.chain, [], { kind: 'updateSet', set: n.affinitySet });
    w.rule(n.chain, [{ kind: 'l4proto', proto: ctx.port.protocol }], {
      kind: 'dnat',
      to: endpointString(ep),
    });
  }
}

/** Writes the rules and elements of one service port, in `syncProxyRules` order. */
export function writeServicePort(w: NftWriter, ctx: ServicePortContext): void {
  const plan = portPlan(ctx);
  declareChains(w, plan);
  writeCaptures(w, ctx, plan);
  writeInternalMasquerade(w, ctx, plan);
  writeExternalChain(w, ctx, plan);
  writeFirewallChain(w, ctx, plan);
  writeEndpointChoice(w, ctx, plan);
  writeEndpointChains(w, ctx, plan);
}
