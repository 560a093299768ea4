/**
 * kube-proxy's iptables rules for one node, written as `syncProxyRules` writes them.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/iptables/proxier.go` (`iptablesJumpChains`,
 * `syncProxyRules`, `writeServiceToEndpointRules`), read at
 * danwinship/kubernetes@07c76c3a11bef9f4a6de65237bc91adc2c5b50ee (v1.31/1.32 era), and
 * `../shared/reference/kube-proxy.md` §1. Assumed host capabilities, as on a current
 * distribution, unless {@link IptablesGenerateOptions} says otherwise: iptables supports
 * `--random-fully`, the nfacct counters exist, `nf_conntrack_tcp_be_liberal` is 0. kubelet's
 * own KUBE-FIREWALL jump is taken to exist before kube-proxy starts (kubelet starts first), so
 * kube-proxy's prepended jumps sit above it.
 */
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import { cidrContains, isIPv4 } from '../../net/ip';
import type { IptablesRuleset, Match, Table, Target } from './rule';
import { comment as c, jump } from './build';
import { writeServiceRules } from './serviceRules';
import type { ServiceRuleContext } from './serviceRules';
import { isLargeCluster } from './endpointSet';
import { RuleWriter, finishRuleset, BUILTIN_CHAINS, formatKubeProxyMark } from './rule';

/** Host and proxier facts the cluster does not carry; each defaults to a current host. */
export interface IptablesGenerateOptions {
  /** `iptables.HasRandomFully()`: MASQUERADE gets `--random-fully`. Default true. */
  randomFully?: boolean;
  /**
   * The nfacct counters exist (`proxier.nfAcctCounters`): the INVALID drop counts into
   * `ct_state_invalid_dropped_pkts`, and localhost NodePorts get their own counted rule.
   * Default true.
   */
  nfacct?: boolean;
  /** `nf_conntrack_tcp_be_liberal` is set: no INVALID drop rule at all. Default false. */
  conntrackTCPLiberal?: boolean;
  /**
   * The masquerade mark as kube-proxy writes it into the restore payload
   * (`proxier.masqueradeMark`). Default `%#08x` of the mark (`0x00004000`); kube-proxy's unit
   * tests (`NewFakeProxier`) set `0x4000`. Only the rules' `restore` text uses it.
   */
  masqueradeMark?: string;
}

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
export function generateIptables(
  cluster: Cluster,
  nodeName: string,
  options: IptablesGenerateOptions = {},
): IptablesRuleset {
  const node = cluster.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(`unknown node "${nodeName}"`);
  const kp = cluster.kubeProxy;
  const mark = 1 << kp.masqueradeBit;
  const markText = options.masqueradeMark;
  const w = new RuleWriter((v) =>
    markText !== undefined && v === mark ? markText : formatKubeProxyMark(v),
  );
  const nfacct = options.nfacct ?? true;
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
  // kubelet's chain; kube-proxy writes it into its payload only with its rule (below).
  w.chain('filter', KUBE_FIREWALL).restored = localhostNodePorts;

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
  // ipt.Monitor's canary chains (kube-proxy creates them in mangle, nat and filter, with
  // `iptables -N`, not in the restore payload).
  w.chain('filter', KUBE_PROXY_CANARY).restored = false;
  w.chain('nat', KUBE_PROXY_CANARY).restored = false;

  w.add('nat', KUBE_POSTROUTING, [{ kind: 'mark', value: mark, mask: mark, not: true }], {
    kind: 'RETURN',
  });
  w.add('nat', KUBE_POSTROUTING, [], { kind: 'MARK', op: 'xor', value: mark });
  w.add('nat', KUBE_POSTROUTING, [c('kubernetes service traffic requiring SNAT')], {
    kind: 'MASQUERADE',
    randomFully: options.randomFully ?? true,
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

  const ctx: ServiceRuleContext = {
    cluster,
    node,
    localCIDR,
    // The counted localhost NodePort rule needs its nfacct counter (`nfAcctCounters`).
    localhostNodePortRule: localhostNodePorts && nfacct,
    largeClusterMode: isLargeCluster(cluster),
  };
  // ShouldSkipService (pkg/proxy/util/utils.go): a Service without a ClusterIP (headless
  // `None`, or none allocated) gets no rules; nor one whose ClusterIP is not IPv4 here.
  for (const svc of cluster.services) if (isIPv4(svc.clusterIP)) writeServiceRules(w, ctx, svc);

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

  if (!options.conntrackTCPLiberal) {
    const invalid: Match[] = [{ kind: 'ctstate', states: ['INVALID'], not: false }];
    if (nfacct) invalid.push({ kind: 'nfacct', name: 'ct_state_invalid_dropped_pkts' });
    w.add('filter', KUBE_FORWARD, invalid, { kind: 'DROP' });
  }
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
