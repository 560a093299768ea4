/**
 * kube-proxy's nftables rules for one node: the `ip kube-proxy` table as a fresh kube-proxy
 * writes it on its first full sync, i.e. `setupNFTables` followed by `syncProxyRules`.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/nftables/proxier.go` (`nftablesBaseChains`,
 * `nftablesJumpChains`, `setupNFTables`, `syncProxyRules`, `writeServiceToEndpointRules`),
 * read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212, and
 * shared/reference/kube-proxy.md §3. Objects are created in the transaction's order, which is
 * the order `nft list` prints them. (On a kube-proxy restart against an existing table,
 * `setupNFTables` deletes and re-adds the base chains, which then list after the others;
 * kube-proxy visits Services in Go map order, the model in the cluster's order.)
 *
 * NodePort addresses: in nftables mode an unset `nodePortAddresses` defaults to `primary`
 * (`platformApplyDefaults` in cmd/kube-proxy/app/server_linux.go, read at
 * aroradaman/kubernetes@dc26514f3a9bc9d9159055a4fd2ee0084f6eff94; KEP-3866), which
 * `newProxyServer` (cmd/kube-proxy/app/server.go) turns into the node's primary IP as a /32.
 * So NodePorts answer only on `nodeport-ips` = { the node's InternalIP }, unlike iptables
 * mode. A zero CIDR (`0.0.0.0/0`) means "match all" (`NewNodePortAddresses`,
 * pkg/proxy/util/nodeport_addresses.go): then there is no `nodeport-ips` set and the rules
 * use `fib daddr type local ip daddr != 127.0.0.0/8`.
 */
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import { cidrContains, isIPv4 } from '../../net/ip';
import { tableLines } from './format';
import { writeServicePort } from './serviceRules';
import type { NftMatch, NftRuleset } from './types';
import { NftWriter } from './writer';
import { DEFAULT_SERVICE_CIDR_ORIGIN, proxyServiceCIDRs } from '../../k8s/serviceCIDR';

/** Options the cluster does not carry. */
export interface NftGenerateOptions {
  /**
   * Overrides the cluster's Service CIDRs (kube-proxy's `serviceCIDRs`, set by
   * `OnServiceCIDRsChanged` from the ServiceCIDR objects), as kube-proxy's own tests set them.
   */
  serviceCIDRs?: string[];
}

/** `nftablesBaseChains`: name, type, hook, priority (DNATPriority = -100, SNATPriority = 100). */
const BASE_CHAINS = [
  ['filter-prerouting', 'filter', 'prerouting', -110],
  ['filter-input', 'filter', 'input', -110],
  ['filter-forward', 'filter', 'forward', -110],
  ['filter-output', 'filter', 'output', -110],
  ['filter-output-post-dnat', 'filter', 'output', -90],
  ['nat-prerouting', 'nat', 'prerouting', -100],
  ['nat-output', 'nat', 'output', -100],
  ['nat-postrouting', 'nat', 'postrouting', 100],
] as const;

/** `nftablesJumpChains`: [dstChain, srcChain, `ct state new`?], in source order. */
const JUMP_CHAINS: [string, string, boolean][] = [
  ['nodeport-endpoints-check', 'filter-input', true],
  ['service-endpoints-check', 'filter-input', true],
  ['service-endpoints-check', 'filter-forward', true],
  ['service-endpoints-check', 'filter-output', true],
  ['firewall-check', 'filter-prerouting', true],
  ['firewall-check', 'filter-output', true],
  ['services', 'nat-output', false],
  ['services', 'nat-prerouting', false],
  ['masquerading', 'nat-postrouting', false],
  ['cluster-ips-check', 'filter-forward', true],
  ['cluster-ips-check', 'filter-output-post-dnat', true],
];

/** Which node addresses accept NodePort traffic (`NodePortAddresses.MatchAll`/`GetNodeIPs`). */
export function nodePortAddresses(
  cluster: Cluster,
  node: ClusterNode,
): { matchAll: boolean; ips: string[] } {
  const configured = cluster.kubeProxy.nodePortAddresses;
  const cidrs = (configured.length === 0 ? ['primary'] : configured)
    .map((c) => (c.trim() === 'primary' ? `${node.internalIP}/32` : c.trim()))
    .filter((c) => isIPv4(c.split('/')[0] ?? ''));
  if (cidrs.length === 0 || cidrs.some((c) => c.endsWith('/0'))) return { matchAll: true, ips: [] };
  // GetNodeIPs walks the interface addresses (here: the Node's addresses and its pod-bridge
  // address); setupNFTables skips loopback ones.
  const ips = [...node.addresses, node.bridgeIP].filter(
    (ip) => !cidrContains('127.0.0.0/8', ip) && cidrs.some((c) => cidrContains(c, ip)),
  );
  return { matchAll: false, ips: [...new Set(ips)] };
}

/**
 * Generates the `ip kube-proxy` table for `nodeName`.
 * @throws {Error} `unknown node "<name>"` when the node is not in the cluster.
 */
export function generateNftables(
  cluster: Cluster,
  nodeName: string,
  options: NftGenerateOptions = {},
): NftRuleset {
  const node = cluster.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`unknown node "${nodeName}"`);
  const kp = cluster.kubeProxy;
  // nftables mode reads its own mark bit (server_linux.go: `config.NFTables.MasqueradeBit`).
  const mark = 1 << kp.nftablesMasqueradeBit;
  const serviceCIDRs = options.serviceCIDRs ?? proxyServiceCIDRs(cluster.serviceCIDRs);
  const assumed: string[] = [];
  const assumedCIDR = !options.serviceCIDRs && cluster.serviceCIDRs.find((m) => m.assumed);
  if (!options.serviceCIDRs && serviceCIDRs.length === 0)
    assumed.push(
      'assumed: no Service CIDR known, so no rule drops traffic to unallocated ClusterIPs (as kube-proxy before it learns one)',
    );
  if (assumedCIDR)
    assumed.push(
      `assumed: Service CIDR ${assumedCIDR.cidrs.join(',')} (${DEFAULT_SERVICE_CIDR_ORIGIN}; no ServiceCIDR given) for cluster-ips-check`,
    );
  const npa = nodePortAddresses(cluster, node);
  const w = new NftWriter();

  // setupNFTables
  for (const [name, type, hook, priority] of BASE_CHAINS)
    w.chain(name, { base: { type, hook, priority } });
  for (const [dst, src, ctNew] of JUMP_CHAINS) {
    w.chain(dst);
    w.rule(src, ctNew ? [{ kind: 'ctStateNew' }] : [], { kind: 'jump', chain: dst });
  }
  for (const name of ['services', 'cluster-ips-check', 'masquerading', 'mark-for-masquerade'])
    w.chain(name);
  w.rule('mark-for-masquerade', [], { kind: 'mark', op: 'or', value: mark });
  w.rule('masquerading', [{ kind: 'markClear', mask: mark }], { kind: 'return' });
  w.rule('masquerading', [], { kind: 'mark', op: 'xor', value: mark });
  w.rule('masquerading', [], { kind: 'masquerade' });

  w.set('cluster-ips', { comment: 'Active ClusterIPs' });
  w.rule(
    'cluster-ips-check',
    [{ kind: 'addrInSet', dir: 'daddr', set: 'cluster-ips' }],
    { kind: 'reject' },
    'Reject traffic to invalid ports of ClusterIPs',
  );
  if (serviceCIDRs.length > 0)
    w.rule(
      'cluster-ips-check',
      [{ kind: 'addr', dir: 'daddr', not: false, cidrs: serviceCIDRs }],
      { kind: 'drop' },
      'Drop traffic to unallocated ClusterIPs',
    );

  w.set('nodeport-ips', { comment: 'IPs that accept NodePort traffic' });
  if (npa.matchAll) w.deleteSet('nodeport-ips');
  else for (const ip of npa.ips) w.setElement('nodeport-ips', ip);

  w.map(
    'no-endpoint-services',
    'daddr.l4proto.dport',
    'vmap to drop or reject packets to services with no endpoints',
  );
  w.map(
    'no-endpoint-nodeports',
    'l4proto.dport',
    'vmap to drop or reject packets to service nodeports with no endpoints',
  );
  w.chain('reject-chain', { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' });
  w.rule('reject-chain', [], { kind: 'reject' });
  w.rule('service-endpoints-check', [], {
    kind: 'vmap',
    key: 'daddr.l4proto.dport',
    map: 'no-endpoint-services',
  });
  const nodePortDst: NftMatch = npa.matchAll
    ? { kind: 'addr', dir: 'daddr', not: true, cidrs: ['127.0.0.0/8'] }
    : { kind: 'addrInSet', dir: 'daddr', set: 'nodeport-ips' };
  w.rule('nodeport-endpoints-check', [nodePortDst], {
    kind: 'vmap',
    key: 'l4proto.dport',
    map: 'no-endpoint-nodeports',
  });

  w.map(
    'firewall-ips',
    'daddr.l4proto.dport',
    'destinations that are subject to LoadBalancerSourceRanges',
  );
  w.rule('firewall-check', [], { kind: 'vmap', key: 'daddr.l4proto.dport', map: 'firewall-ips' });

  w.map('service-ips', 'daddr.l4proto.dport', 'ClusterIP, ExternalIP and LoadBalancer IP traffic');
  w.map('service-nodeports', 'l4proto.dport', 'NodePort traffic');
  w.rule('services', [], { kind: 'vmap', key: 'daddr.l4proto.dport', map: 'service-ips' });
  w.rule(
    'services',
    npa.matchAll ? [{ kind: 'fibLocal', dir: 'daddr' }, nodePortDst] : [nodePortDst],
    { kind: 'vmap', key: 'l4proto.dport', map: 'service-nodeports' },
  );

  // syncProxyRules: one block per service port (kube-proxy iterates a Go map; the model
  // takes the cluster's order).
  const localCIDR = kp.detectLocalMode === 'NodeCIDR' ? node.podCIDR : kp.clusterCIDR;
  for (const svc of cluster.services) {
    // ShouldSkipService (pkg/proxy/util): headless Services get no rules.
    if (!isIPv4(svc.clusterIP)) continue;
    for (const port of svc.ports)
      writeServicePort(w, {
        cluster,
        node,
        svc,
        port,
        localCIDR: localCIDR || undefined,
        masqueradeAll: kp.nftablesMasqueradeAll,
      });
  }

  const tableComment = 'rules for kube-proxy';
  const sets = [...w.sets.values()];
  const chains = [...w.chains.values()];
  return {
    mode: 'nftables',
    nodeName: node.name,
    lines: tableLines({ tableComment, sets, chains }),
    tableComment,
    sets,
    chains,
    masqueradeMark: mark,
    assumed,
  };
}
