/**
 * kube-proxy's IPVS mode behind the common {@link ProxyModeImpl} contract: the generator
 * (virtual servers, ipsets, `kube-ipvs0` addresses, iptables rules) and the walker.
 *
 * The scheduler comes from the KubeProxyConfiguration's `ipvs.scheduler` (default `rr`).
 * Source: kubernetes/kubernetes `pkg/proxy/ipvs/proxier.go`, read at
 * aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212.
 */
import type { ProxyModeImpl } from '../types';
import type { IpvsRuleset } from './generate';
import { generateIpvs } from './generate';
import { processIpvs } from './walk';

export type { IpvsRuleset, IpvsOptions, RealServer, VirtualServer } from './generate';
export type { Ipset, IpsetMember, IpsetType } from './ipsets';
export type { IpvsChain, IpvsMatch, IpvsRule } from './rules';
export { generateIpvs, DEFAULT_SCHEDULER } from './generate';
export { processIpvs, findVirtualServer } from './walk';

/** kube-proxy's IPVS mode (`mode: ipvs`), with the configured scheduler. */
export const ipvsMode: ProxyModeImpl<IpvsRuleset> = {
  mode: 'ipvs',
  generate: (c, n) => generateIpvs(c, n, { scheduler: c.kubeProxy.ipvsScheduler }),
  process: processIpvs,
};
