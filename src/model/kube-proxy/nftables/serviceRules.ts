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
import { endpointNames, serviceChainNames } from './hash';
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

/** Writes the rules and elements of one service port, in `syncProxyRules` order. */
export function writeServicePort(w: NftWriter, ctx: ServicePortContext): void {
  const { cluster, node, svc, port } = ctx;
  const S = servicePortKey(svc, port.name);
  const proto = port.protocol;
  const names = serviceChainNames(svc.namespace, svc.name, proto, port.name);
  const eps = categorizeEndpoints(cluster.endpoints[S] ?? [], svc, node.name);
  const epNames = (ep: EndpointModel) =>
    endpointNames(svc.namespace, svc.name, proto, port.name, ep.ip, ep.port);
  const lbVIPs = svc.ingress.filter((i) => i.ipMode === 'VIP').map((i) => i.ip);
  const ranges = sourceRanges(svc);
  const affinity = svc.sessionAffinity === 'ClientIP';

  for (const ep of eps.allReachable) w.chain(epNames(ep).chain);
  const usesClusterChain = eps.cluster.length > 0;
  if (usesClusterChain) w.chain(names.service);
  const usesLocalChain = eps.local.length > 0;
  if (usesLocalChain) w.chain(names.local);

  let internalChain = names.service;
  let hasInternal = eps.hasAny;
  if (svc.internalTrafficPolicy === 'Local') {
    internalChain = names.local;
    if (eps.local.length === 0) hasInternal = false;
  }
  let externalPolicyChain = names.service;
  let hasExternal = eps.hasAny;
  if (svc.externalTrafficPolicy === 'Local') {
    externalPolicyChain = names.local;
    if (eps.local.length === 0) hasExternal = false;
  }
  // serviceport.go ExternallyAccessible: a NodePort, a VIP-mode LB IP or an externalIP.
  const externallyAccessible =
    port.nodePort !== 0 || lbVIPs.length > 0 || svc.externalIPs.length > 0;
  const usesExternalChain = eps.hasAny && externallyAccessible;
  if (usesExternalChain) w.chain(names.external);

  let internalFilter: NftVerdict | undefined;
  let externalFilter: NftVerdict | undefined;
  if (!eps.hasAny) {
    internalFilter = { kind: 'goto', chain: 'reject-chain' };
    externalFilter = internalFilter;
  } else {
    if (!hasInternal) internalFilter = { kind: 'drop' };
    if (!hasExternal) externalFilter = { kind: 'drop' };
  }
  const key = (ip: string) => ({ ip, proto, port: port.port });

  // Capture the ClusterIP.
  w.setElement('cluster-ips', svc.clusterIP);
  if (hasInternal)
    w.mapElement('service-ips', {
      ...key(svc.clusterIP),
      verdict: { kind: 'goto', chain: internalChain },
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
    if (!hasExternal && externalFilter)
      w.mapElement('no-endpoint-services', { ...key(eip), comment: S, verdict: externalFilter });
  }

  // Capture load-balancer ingress (VIP mode only).
  const usesFirewall = lbVIPs.length > 0 && ranges.length > 0;
  if (usesFirewall) w.chain(names.firewall);
  for (const lbip of lbVIPs) {
    if (eps.hasAny)
      w.mapElement('service-ips', {
        ...key(lbip),
        verdict: { kind: 'goto', chain: names.external },
      });
    if (usesFirewall)
      w.mapElement('firewall-ips', {
        ...key(lbip),
        verdict: { kind: 'goto', chain: names.firewall },
      });
  }
  if (!hasExternal && externalFilter)
    for (const lbip of lbVIPs)
      w.mapElement('no-endpoint-services', { ...key(lbip), comment: S, verdict: externalFilter });

  // Capture the NodePort (not subject to loadBalancerSourceRanges).
  if (port.nodePort !== 0) {
    const np = { proto, port: port.nodePort };
    if (eps.hasAny)
      w.mapElement('service-nodeports', {
        ...np,
        verdict: { kind: 'goto', chain: names.external },
      });
    if (!hasExternal && externalFilter)
      w.mapElement('no-endpoint-nodeports', { ...np, comment: S, verdict: externalFilter });
  }

  // Internal traffic: masquerade off-cluster sources reaching the ClusterIP.
  if (hasInternal) {
    const base: NftMatch[] = [
      { kind: 'addr', dir: 'daddr', not: false, cidrs: [svc.clusterIP] },
      { kind: 'dport', proto, port: port.port },
    ];
    const mark = { kind: 'jump', chain: 'mark-for-masquerade' } as const;
    if (ctx.masqueradeAll) w.rule(internalChain, base, mark);
    else if (ctx.localCIDR)
      w.rule(
        internalChain,
        [...base, { kind: 'addr', dir: 'saddr', not: true, cidrs: [ctx.localCIDR] }],
        mark,
      );
  }

  // External traffic: the external- chain.
  if (usesExternalChain) {
    const X = names.external;
    if (svc.externalTrafficPolicy !== 'Local') {
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
    if (hasExternal) w.rule(X, [], { kind: 'goto', chain: externalPolicyChain });
  }

  // loadBalancerSourceRanges: drop what is not from an allowed range.
  if (usesFirewall) {
    const sources = [...ranges];
    // "For VIP-like LBs, the VIP is often added as a local address": allow the node itself.
    if (ranges.some((c) => cidrContains(c, node.internalIP))) sources.push(...lbVIPs);
    w.rule(names.firewall, [{ kind: 'addr', dir: 'saddr', not: true, cidrs: sources }], {
      kind: 'drop',
    });
  }

  if (affinity)
    for (const ep of eps.allReachable)
      w.set(epNames(ep).affinitySet, { timeoutSeconds: svc.affinityTimeoutSeconds });

  // writeServiceToEndpointRules: affinity checks, then the uniform random choice.
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
  if (usesClusterChain) toEndpoints(names.service, eps.cluster);
  if (usesLocalChain) toEndpoints(names.local, eps.local);

  // The endpoint- chains: hairpin masquerade, affinity update, DNAT.
  for (const ep of eps.allReachable) {
    const n = epNames(ep);
    w.rule(n.chain, [{ kind: 'addr', dir: 'saddr', not: false, cidrs: [ep.ip] }], {
      kind: 'jump',
      chain: 'mark-for-masquerade',
    });
    if (affinity) w.rule(n.chain, [], { kind: 'updateSet', set: n.affinitySet });
    w.rule(n.chain, [{ kind: 'l4proto', proto }], { kind: 'dnat', to: endpointString(ep) });
  }
}
