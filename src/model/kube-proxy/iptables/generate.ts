/**
 * kube-proxy's iptables rules for one node, written as `syncProxyRules` writes them.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/iptables/proxier.go` (`iptablesJumpChains`,
 * `syncProxyRules`, `writeServiceToEndpointRules`), read at
 * danwinship/kubernetes@07c76c3a11bef9f4a6de65237bc91adc2c5b50ee (v1.31/1.32 era), and
 * `../shared/reference/kube-proxy.md` §1. Assumed host capabilities, as on a current
 * distribution: iptables supports `--random-fully`, the nfacct counters exist,
 * `nf_conntrack_tcp_be_liberal` is 0. kubelet's own KUBE-FIREWALL jump is taken to exist
 * before kube-proxy starts (kubelet starts first), so kube-proxy's prepended jumps sit above it.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import { cidrContains } from '../../net/ip';
import { categorizeEndpoints, endpointString } from '../endpoints';
import { endpointChainName, serviceChainNames } from './hash';
import type { IptablesRuleset, Match, Table, Target } from './rule';
import { RuleWriter, finishRuleset, BUILTIN_CHAINS } from './rule';

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
const KUBE_PROXY_CANARY = 'KUBE-PROXY-CANARY';
const KUBE_FIREWALL = 'KUBE-FIREWALL';

/** `iptablesJumpChains`, in source order; each is installed with EnsureRule(Prepend). */
const JUMPS: { table: Table; dst: string; src: string; comment: string; ctNew: boolean }[] = [
  {
    table: 'filter',
    dst: KUBE_EXTERNAL_SERVICES,
    src: 'INPUT',
    comment: 'kubernetes externally-visible service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_EXTERNAL_SERVICES,
    src: 'FORWARD',
    comment: 'kubernetes externally-visible service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_NODEPORTS,
    src: 'INPUT',
    comment: 'kubernetes health check service ports',
    ctNew: false,
  },
  {
    table: 'filter',
    dst: KUBE_SERVICES,
    src: 'FORWARD',
    comment: 'kubernetes service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_SERVICES,
    src: 'OUTPUT',
    comment: 'kubernetes service portals',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_FORWARD,
    src: 'FORWARD',
    comment: 'kubernetes forwarding rules',
    ctNew: false,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'INPUT',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'OUTPUT',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  {
    table: 'filter',
    dst: KUBE_PROXY_FIREWALL,
    src: 'FORWARD',
    comment: 'kubernetes load balancer firewall',
    ctNew: true,
  },
  {
    table: 'nat',
    dst: KUBE_SERVICES,
    src: 'OUTPUT',
    comment: 'kubernetes service portals',
    ctNew: false,
  },
  {
    table: 'nat',
    dst: KUBE_SERVICES,
    src: 'PREROUTING',
    comment: 'kubernetes service portals',
    ctNew: false,
  },
  {
    table: 'nat',
    dst: KUBE_POSTROUTING,
    src: 'POSTROUTING',
    comment: 'kubernetes postrouting rules',
    ctNew: false,
  },
];

const c = (text: string): Match => ({ kind: 'comment', text });
const jump = (chain: string): Target => ({ kind: 'jump', chain });

/** The local-traffic detector (`detectLocalMode`): which source CIDR counts as "from a pod". */
function localDetectorCIDR(cluster: Cluster, node: ClusterNode): string | undefined {
  const kp = cluster.kubeProxy;
  if (kp.detectLocalMode === 'NodeCIDR') return node.podCIDR || undefined;
  return kp.clusterCIDR || undefined;
}

/** Node addresses that NodePorts answer on when `nodePortAddresses` is set. */
function nodePortIPs(cluster: Cluster, node: ClusterNode): string[] {
  const cidrs = cluster.kubeProxy.nodePortAddresses;
  const out: string[] = [];
  for (const cidr of cidrs) {
    if (cidr === 'primary') {
      if (!out.includes(node.internalIP)) out.push(node.internalIP);
      continue;
    }
    for (const ip of [...node.addresses, '127.0.0.1'])
      if (cidrContains(cidr, ip) && !out.includes(ip)) out.push(ip);
  }
  return out;
}

/**
 * Generates kube-proxy's iptables rules (filter and nat tables) for `nodeName`.
 * @throws {Error} `unknown node "<name>"` when the node is not in the cluster.
 */
export function generateIptables(cluster: Cluster, nodeName: string): IptablesRuleset {
  const node = cluster.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`unknown node "${nodeName}"`);
  const kp = cluster.kubeProxy;
  const w = new RuleWriter();
  const mark = 1 << kp.masqueradeBit;
  const matchAll = kp.nodePortAddresses.length === 0;
  // newProxier: localhost NodePorts need the loopback range to be among the NodePort addresses.
  const localhostNodePorts =
    kp.localhostNodePorts &&
    (matchAll || nodePortIPs(cluster, node).some((ip) => ip.startsWith('127.')));
  const localCIDR = localDetectorCIDR(cluster, node);

  for (const table of ['filter', 'nat'] as const)
    for (const name of BUILTIN_CHAINS[table]) w.chain(table, name, true);

  // Jump rules: kubelet's KUBE-FIREWALL jumps exist first; kube-proxy prepends its own in
  // list order, so each later one ends up above the earlier ones.
  const prepended: Record<string, { table: Table; matches: Match[]; target: Target }[]> = {};
  for (const j of JUMPS) {
    const key = `${j.table}/${j.src}`;
    const matches: Match[] = [];
    if (j.ctNew) matches.push({ kind: 'ctstate', states: ['NEW'], not: false });
    matches.push(c(j.comment));
    (prepended[key] ??= []).unshift({ table: j.table, matches, target: jump(j.dst) });
  }
  for (const [key, rules] of Object.entries(prepended)) {
    const [table, chain] = key.split('/') as [Table, string];
    for (const r of rules) w.add(table, chain, r.matches, r.target);
  }
  // iptablesKubeletJumpChains: ensured on every full sync, whatever localhostNodePorts is.
  w.add('filter', 'INPUT', [], jump(KUBE_FIREWALL));
  w.add('filter', 'OUTPUT', [], jump(KUBE_FIREWALL));
  w.chain('filter', KUBE_FIREWALL);

  for (const name of [
    KUBE_SERVICES,
    KUBE_EXTERNAL_SERVICES,
    KUBE_FORWARD,
    KUBE_NODEPORTS,
    KUBE_PROXY_FIREWALL,
  ])
    w.chain('filter', name);
  for (const name of [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ])
    w.chain('nat', name);
  // ipt.Monitor's canary chains (kube-proxy creates them in mangle, nat and filter).
  w.chain('filter', KUBE_PROXY_CANARY);
  w.chain('nat', KUBE_PROXY_CANARY);

  w.add('nat', KUBE_POSTROUTING, [{ kind: 'mark', value: mark, mask: mark, not: true }], {
    kind: 'RETURN',
  });
  w.add('nat', KUBE_POSTROUTING, [], { kind: 'MARK', op: 'xor', value: mark });
  w.add('nat', KUBE_POSTROUTING, [c('kubernetes service traffic requiring SNAT')], {
    kind: 'MASQUERADE',
    randomFully: true,
  });
  w.add('nat', KUBE_MARK_MASQ, [], { kind: 'MARK', op: 'or', value: mark });

  if (localhostNodePorts) {
    w.add(
      'filter',
      KUBE_FIREWALL,
      [
        c('block incoming localnet connections'),
        { kind: 'dst', cidr: '127.0.0.0/8', not: false },
        { kind: 'src', cidr: '127.0.0.0/8', not: true },
        { kind: 'ctstate', states: ['RELATED', 'ESTABLISHED', 'DNAT'], not: true },
      ],
      { kind: 'DROP' },
    );
  }

  for (const svc of cluster.services)
    writeService(w, cluster, node, svc, localCIDR, localhostNodePorts);

  if (matchAll) {
    const m: Match[] = [
      c('kubernetes service nodeports; NOTE: this must be the last rule in this chain'),
      { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
    ];
    if (!localhostNodePorts) m.push({ kind: 'dst', cidr: '127.0.0.0/8', not: true });
    w.add('nat', KUBE_SERVICES, m, jump(KUBE_NODEPORTS));
  } else {
    for (const ip of nodePortIPs(cluster, node)) {
      if (ip.startsWith('127.') && !localhostNodePorts) continue;
      w.add(
        'nat',
        KUBE_SERVICES,
        [
          c('kubernetes service nodeports; NOTE: this must be the last rule in this chain'),
          { kind: 'dst', cidr: ip, not: false },
        ],
        jump(KUBE_NODEPORTS),
      );
    }
  }

  w.add(
    'filter',
    KUBE_FORWARD,
    [
      { kind: 'ctstate', states: ['INVALID'], not: false },
      { kind: 'nfacct', name: 'ct_state_invalid_dropped_pkts' },
    ],
    { kind: 'DROP' },
  );
  w.add(
    'filter',
    KUBE_FORWARD,
    [c('kubernetes forwarding rules'), { kind: 'mark', value: mark, mask: mark, not: false }],
    {
      kind: 'ACCEPT',
    },
  );
  w.add(
    'filter',
    KUBE_FORWARD,
    [
      c('kubernetes forwarding conntrack rule'),
      { kind: 'ctstate', states: ['RELATED', 'ESTABLISHED'], not: false },
    ],
    { kind: 'ACCEPT' },
  );

  return finishRuleset(w, node.name, mark);
}

/** The per-service-port part of `syncProxyRules`. */
function writeService(
  w: RuleWriter,
  cluster: Cluster,
  node: ClusterNode,
  svc: ServiceModel,
  localCIDR: string | undefined,
  localhostNodePorts: boolean,
): void {
  const externallyAccessible = svc.type !== 'ClusterIP' || svc.externalIPs.length > 0;
  // ipMode Proxy ingress IPs are skipped (servicechangetracker.go, proxyutil.IsVIPMode).
  const lbVIPs = svc.ingress.filter((i) => i.ipMode === 'VIP').map((i) => i.ip);
  for (const port of svc.ports) {
    const S = servicePortKey(svc, port.name);
    const p = port.protocol;
    const names = serviceChainNames(S, p);
    const eps = categorizeEndpoints(cluster.endpoints[S] ?? [], svc, node.name);
    const hasEndpoints = eps.hasAny;
    const usesClusterChain = eps.cluster.length > 0;
    const usesLocalChain =
      eps.local.length > 0 &&
      (svc.externalTrafficPolicy === 'Local' || svc.internalTrafficPolicy === 'Local');

    let internalChain = names.svc;
    let hasInternal = hasEndpoints;
    if (svc.internalTrafficPolicy === 'Local') {
      internalChain = names.svl;
      if (eps.local.length === 0) hasInternal = false;
    }
    let externalPolicyChain = names.svc;
    let hasExternal = hasEndpoints;
    if (svc.externalTrafficPolicy === 'Local') {
      externalPolicyChain = names.svl;
      if (eps.local.length === 0) hasExternal = false;
    }
    const extChain = names.ext;
    const usesExtChain = hasEndpoints && externallyAccessible;
    const usesFW = hasEndpoints && lbVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const lbChain = usesFW ? names.fw : extChain;

    let internalFilter: { target: 'REJECT' | 'DROP'; comment: string } | undefined;
    let externalFilter: { target: 'REJECT' | 'DROP'; comment: string } | undefined;
    if (!hasEndpoints) {
      internalFilter = { target: 'REJECT', comment: `${S} has no endpoints` };
      externalFilter = internalFilter;
    } else {
      if (!hasInternal) internalFilter = { target: 'DROP', comment: `${S} has no local endpoints` };
      if (!hasExternal) externalFilter = { target: 'DROP', comment: `${S} has no local endpoints` };
    }
    const proto: Match = { kind: 'proto', proto: p };
    const dst = (ip: string): Match => ({ kind: 'dst', cidr: ip, not: false });
    const dport = (n: number): Match => ({ kind: 'dport', port: n });

    if (hasInternal)
      w.add(
        'nat',
        'KUBE-SERVICES',
        [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)],
        jump(internalChain),
      );
    else if (internalFilter)
      w.add(
        'filter',
        'KUBE-SERVICES',
        [c(internalFilter.comment), proto, dst(svc.clusterIP), dport(port.port)],
        {
          kind: internalFilter.target,
        },
      );

    for (const eip of svc.externalIPs) {
      if (hasEndpoints)
        w.add(
          'nat',
          'KUBE-SERVICES',
          [c(`${S} external IP`), proto, dst(eip), dport(port.port)],
          jump(extChain),
        );
      if (!hasExternal && externalFilter)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [c(externalFilter.comment), proto, dst(eip), dport(port.port)],
          {
            kind: externalFilter.target,
          },
        );
    }

    for (const lbip of lbVIPs) {
      if (hasEndpoints)
        w.add(
          'nat',
          'KUBE-SERVICES',
          [c(`${S} loadbalancer IP`), proto, dst(lbip), dport(port.port)],
          jump(lbChain),
        );
      if (usesFW)
        w.add(
          'filter',
          'KUBE-PROXY-FIREWALL',
          [c(`${S} traffic not accepted by ${names.fw}`), proto, dst(lbip), dport(port.port)],
          { kind: 'DROP' },
        );
    }
    if (!hasExternal && externalFilter)
      for (const lbip of lbVIPs)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [c(externalFilter.comment), proto, dst(lbip), dport(port.port)],
          {
            kind: externalFilter.target,
          },
        );

    if (port.nodePort !== 0) {
      if (hasEndpoints) {
        if (localhostNodePorts)
          w.add(
            'nat',
            'KUBE-NODEPORTS',
            [
              c(S),
              proto,
              dst('127.0.0.0/8'),
              dport(port.nodePort),
              { kind: 'nfacct', name: 'localhost_nps_accepted_pkts' },
            ],
            jump(extChain),
          );
        w.add('nat', 'KUBE-NODEPORTS', [c(S), proto, dport(port.nodePort)], jump(extChain));
      }
      if (!hasExternal && externalFilter)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [
            c(externalFilter.comment),
            { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
            proto,
            dport(port.nodePort),
          ],
          { kind: externalFilter.target },
        );
    }

    if (svc.healthCheckNodePort !== 0)
      w.add(
        'filter',
        'KUBE-NODEPORTS',
        [
          c(`${S} health check node port`),
          { kind: 'proto', proto: 'tcp' },
          dport(svc.healthCheckNodePort),
        ],
        { kind: 'ACCEPT' },
      );

    if (hasInternal) {
      const base: Match[] = [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)];
      if (cluster.kubeProxy.masqueradeAll)
        w.add('nat', internalChain, base, jump('KUBE-MARK-MASQ'));
      else if (localCIDR)
        w.add(
          'nat',
          internalChain,
          [...base, { kind: 'src', cidr: localCIDR, not: true }],
          jump('KUBE-MARK-MASQ'),
        );
    }

    if (usesExtChain) {
      w.chain('nat', extChain);
      if (svc.externalTrafficPolicy !== 'Local') {
        w.add(
          'nat',
          extChain,
          [c(`masquerade traffic for ${S} external destinations`)],
          jump('KUBE-MARK-MASQ'),
        );
      } else {
        if (localCIDR)
          w.add(
            'nat',
            extChain,
            [
              c(`pod traffic for ${S} external destinations`),
              { kind: 'src', cidr: localCIDR, not: false },
            ],
            jump(names.svc),
          );
        w.add(
          'nat',
          extChain,
          [
            c(`masquerade LOCAL traffic for ${S} external destinations`),
            { kind: 'addrtype', dir: 'src', type: 'LOCAL' },
          ],
          jump('KUBE-MARK-MASQ'),
        );
        w.add(
          'nat',
          extChain,
          [
            c(`route LOCAL traffic for ${S} external destinations`),
            { kind: 'addrtype', dir: 'src', type: 'LOCAL' },
          ],
          jump(names.svc),
        );
      }
      if (hasExternal) w.add('nat', extChain, [], jump(externalPolicyChain));
    }

    if (usesFW) {
      w.chain('nat', names.fw);
      let allowFromNode = false;
      for (const cidr of svc.loadBalancerSourceRanges) {
        w.add(
          'nat',
          names.fw,
          [c(`${S} loadbalancer IP`), { kind: 'src', cidr, not: false }],
          jump(extChain),
        );
        if (cidrContains(cidr, node.internalIP)) allowFromNode = true;
      }
      if (allowFromNode)
        for (const lbip of lbVIPs)
          w.add(
            'nat',
            names.fw,
            [c(`${S} loadbalancer IP`), { kind: 'src', cidr: lbip, not: false }],
            jump(extChain),
          );
      w.add('nat', names.fw, [c(`other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL`)], {
        kind: 'none',
      });
    }

    const writeLB = (chain: string, list: typeof eps.cluster) => {
      w.chain('nat', chain);
      if (svc.sessionAffinity === 'ClientIP')
        for (const ep of list) {
          const sep = endpointChainName(S, p, endpointString(ep));
          w.add(
            'nat',
            chain,
            [
              c(`${S} -> ${endpointString(ep)}`),
              { kind: 'recent', name: sep, mode: 'rcheck', seconds: svc.affinityTimeoutSeconds },
            ],
            jump(sep),
          );
        }
      list.forEach((ep, i) => {
        const sep = endpointChainName(S, p, endpointString(ep));
        const m: Match[] = [c(`${S} -> ${endpointString(ep)}`)];
        if (i < list.length - 1) m.push({ kind: 'statistic', probability: 1 / (list.length - i) });
        w.add('nat', chain, m, jump(sep));
      });
    };
    if (usesClusterChain) writeLB(names.svc, eps.cluster);
    if (usesLocalChain) writeLB(names.svl, eps.local);

    for (const ep of eps.allReachable) {
      const sep = endpointChainName(S, p, endpointString(ep));
      w.chain('nat', sep);
      w.add('nat', sep, [c(S), { kind: 'src', cidr: ep.ip, not: false }], jump('KUBE-MARK-MASQ'));
      const m: Match[] = [c(S)];
      if (svc.sessionAffinity === 'ClientIP') m.push({ kind: 'recent', name: sep, mode: 'set' });
      m.push(proto);
      w.add('nat', sep, m, { kind: 'DNAT', to: endpointString(ep) });
    }
  }
}
