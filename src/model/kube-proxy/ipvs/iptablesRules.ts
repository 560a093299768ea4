/**
 * The iptables rules kube-proxy writes in IPVS mode. They do no load balancing: they mark
 * packets for masquerade (by ipset match), accept IPVS traffic, filter access to the
 * `kube-ipvs0` addresses, and masquerade marked packets in POSTROUTING.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/ipvs/proxier.go` — `iptablesJumpChain`,
 * `iptablesChains`, `ipsetWithIptablesChain`, `createAndLinkKubeChain`, `writeIptablesRules`,
 * `acceptIPVSTraffic` — read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212
 * (and unchanged in a newer copy whose `CategorizeEndpoints` call takes the node name).
 */
import type { Protocol } from '../../net/ip';
import type { IpvsMatch, SetDir, Table, Target } from './rules';
import { IpvsRuleWriter } from './rules';
import { SET, setComment } from './ipsets';

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_NODE_PORT = 'KUBE-NODE-PORT';
const KUBE_LOAD_BALANCER = 'KUBE-LOAD-BALANCER';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
const KUBE_SOURCE_RANGES_FIREWALL = 'KUBE-SOURCE-RANGES-FIREWALL';
const KUBE_IPVS_FILTER = 'KUBE-IPVS-FILTER';
const KUBE_IPVS_OUT_FILTER = 'KUBE-IPVS-OUT-FILTER';

/** `iptablesJumpChain`, in source order; each is installed with EnsureRule(Prepend). */
const JUMPS: { table: Table; from: string; to: string; comment: string }[] = [
  { table: 'nat', from: 'OUTPUT', to: KUBE_SERVICES, comment: 'kubernetes service portals' },
  { table: 'nat', from: 'PREROUTING', to: KUBE_SERVICES, comment: 'kubernetes service portals' },
  {
    table: 'nat',
    from: 'POSTROUTING',
    to: KUBE_POSTROUTING,
    comment: 'kubernetes postrouting rules',
  },
  { table: 'filter', from: 'FORWARD', to: KUBE_FORWARD, comment: 'kubernetes forwarding rules' },
  {
    table: 'filter',
    from: 'INPUT',
    to: KUBE_NODE_PORT,
    comment: 'kubernetes health check rules',
  },
  { table: 'filter', from: 'INPUT', to: KUBE_PROXY_FIREWALL, comment: 'kube-proxy firewall rules' },
  {
    table: 'filter',
    from: 'FORWARD',
    to: KUBE_PROXY_FIREWALL,
    comment: 'kube-proxy firewall rules',
  },
  {
    table: 'filter',
    from: 'INPUT',
    to: KUBE_IPVS_FILTER,
    comment: 'kubernetes ipvs access filter',
  },
  {
    table: 'filter',
    from: 'OUTPUT',
    to: KUBE_IPVS_OUT_FILTER,
    comment: 'kubernetes ipvs access filter',
  },
];

/** `iptablesChains`: the chains every sync declares. */
const CHAINS: { table: Table; name: string }[] = [
  { table: 'nat', name: KUBE_SERVICES },
  { table: 'nat', name: KUBE_POSTROUTING },
  { table: 'nat', name: KUBE_NODE_PORT },
  { table: 'nat', name: KUBE_LOAD_BALANCER },
  { table: 'nat', name: KUBE_MARK_MASQ },
  { table: 'filter', name: KUBE_FORWARD },
  { table: 'filter', name: KUBE_NODE_PORT },
  { table: 'filter', name: KUBE_PROXY_FIREWALL },
  { table: 'filter', name: KUBE_SOURCE_RANGES_FIREWALL },
  { table: 'filter', name: KUBE_IPVS_FILTER },
  { table: 'filter', name: KUBE_IPVS_OUT_FILTER },
];

/**
 * `ipsetWithIptablesChain`, in source order: one rule per non-empty set. "kubeNodePortLocalSetTCP
 * must be prior to kubeNodePortSetTCP, the same for UDP" (its comment).
 */
const SET_RULES: {
  set: string;
  table: Table;
  from: string;
  to: string;
  dirs: SetDir[];
  proto?: Protocol;
}[] = [
  {
    set: SET.loopBack,
    table: 'nat',
    from: KUBE_POSTROUTING,
    to: 'MASQUERADE',
    dirs: ['dst', 'dst', 'src'],
  },
  {
    set: SET.loadBalancer,
    table: 'nat',
    from: KUBE_SERVICES,
    to: KUBE_LOAD_BALANCER,
    dirs: ['dst', 'dst'],
  },
  {
    set: SET.loadBalancerLocal,
    table: 'nat',
    from: KUBE_LOAD_BALANCER,
    to: 'RETURN',
    dirs: ['dst', 'dst'],
  },
  {
    set: SET.nodePortLocalTCP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: 'RETURN',
    dirs: ['dst'],
    proto: 'tcp',
  },
  {
    set: SET.nodePortTCP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: KUBE_MARK_MASQ,
    dirs: ['dst'],
    proto: 'tcp',
  },
  {
    set: SET.nodePortLocalUDP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: 'RETURN',
    dirs: ['dst'],
    proto: 'udp',
  },
  {
    set: SET.nodePortUDP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: KUBE_MARK_MASQ,
    dirs: ['dst'],
    proto: 'udp',
  },
  {
    set: SET.nodePortLocalSCTP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: 'RETURN',
    dirs: ['dst', 'dst'],
    proto: 'sctp',
  },
  {
    set: SET.nodePortSCTP,
    table: 'nat',
    from: KUBE_NODE_PORT,
    to: KUBE_MARK_MASQ,
    dirs: ['dst', 'dst'],
    proto: 'sctp',
  },
  {
    set: SET.loadBalancerFW,
    table: 'filter',
    from: KUBE_PROXY_FIREWALL,
    to: KUBE_SOURCE_RANGES_FIREWALL,
    dirs: ['dst', 'dst'],
  },
  {
    set: SET.loadBalancerSourceCIDR,
    table: 'filter',
    from: KUBE_SOURCE_RANGES_FIREWALL,
    to: 'RETURN',
    dirs: ['dst', 'dst', 'src'],
  },
  {
    set: SET.loadBalancerSourceIP,
    table: 'filter',
    from: KUBE_SOURCE_RANGES_FIREWALL,
    to: 'RETURN',
    dirs: ['dst', 'dst', 'src'],
  },
];

/** What {@link writeIpvsIptables} needs besides the sets. */
export interface IptablesInputs {
  /** Whether a set has no members (`IPSet.isEmpty`). */
  isEmpty: (set: string) => boolean;
  /** 1 << masqueradeBit. */
  mark: number;
  masqueradeAll: boolean;
  /** The local-traffic detector's CIDR (`! -s CIDR` is `IfNotLocal()`); undefined: no detector. */
  localCIDR: string | undefined;
  /** LB ingress `ip:port/proto` whose access from the node is dropped (`lbNoNodeAccessIPPortProtocolEntries`). */
  noNodeAccess: { ip: string; port: number; proto: Protocol }[];
}

const c = (text: string): IpvsMatch => ({ kind: 'comment', text });
const set = (name: string, dirs: SetDir[]): IpvsMatch => ({ kind: 'set', name, dirs });
const to = (name: string): Target =>
  name === 'RETURN' || name === 'ACCEPT' || name === 'DROP'
    ? { kind: name }
    : name === 'MASQUERADE'
      ? { kind: 'MASQUERADE', randomFully: false }
      : { kind: 'jump', chain: name };

/**
 * Writes the IPVS mode's iptables rules, in kube-proxy's order. Assumed host capability, as
 * on a current distribution: iptables supports `--random-fully` (`HasRandomFully`).
 */
export function writeIpvsIptables(inputs: IptablesInputs): IpvsRuleWriter {
  const w = new IpvsRuleWriter();
  const { isEmpty, mark } = inputs;

  // createAndLinkKubeChain: chains, then the jumps, each prepended, so within one built-in
  // chain the last one listed ends up first.
  for (const ch of CHAINS) w.chain(ch.table, ch.name);
  const byFrom = new Map<string, (typeof JUMPS)[number][]>();
  for (const j of JUMPS)
    byFrom.set(`${j.table}/${j.from}`, [j, ...(byFrom.get(`${j.table}/${j.from}`) ?? [])]);
  for (const list of byFrom.values())
    for (const j of list) w.add(j.table, j.from, [c(j.comment)], { kind: 'jump', chain: j.to });

  // writeIptablesRules
  w.add('nat', KUBE_SERVICES, [{ kind: 'src', cidr: '127.0.0.0/8', not: false }], {
    kind: 'RETURN',
  });

  for (const r of SET_RULES) {
    if (isEmpty(r.set)) continue;
    const m: IpvsMatch[] = [];
    if (r.proto) m.push({ kind: 'proto', proto: r.proto });
    m.push(c(setComment(r.set)), set(r.set, r.dirs));
    // The hairpin MASQUERADE (KUBE-LOOP-BACK) is a plain "-j MASQUERADE", no --random-fully.
    w.add(r.table, r.from, m, to(r.to));
  }

  if (!isEmpty(SET.clusterIP)) {
    const base: IpvsMatch[] = [c(setComment(SET.clusterIP))];
    if (inputs.masqueradeAll) base.push(set(SET.clusterIP, ['dst', 'dst']));
    else if (inputs.localCIDR)
      base.push(set(SET.clusterIP, ['dst', 'dst']), {
        kind: 'src',
        cidr: inputs.localCIDR,
        not: true,
      });
    // No detector: masquerade node-originated traffic whose source is a service VIP.
    else base.push(set(SET.clusterIP, ['src', 'dst']));
    w.add('nat', KUBE_SERVICES, base, { kind: 'jump', chain: KUBE_MARK_MASQ });
  }

  const externalIPRules = (name: string) => {
    const args: IpvsMatch[] = [c(setComment(name)), set(name, ['dst', 'dst'])];
    w.add(
      'nat',
      KUBE_SERVICES,
      [...args, { kind: 'physdev-is-in', not: true }, { kind: 'addrtype', dir: 'src', not: true }],
      { kind: 'ACCEPT' },
    );
    w.add('nat', KUBE_SERVICES, [...args, { kind: 'addrtype', dir: 'dst', not: false }], {
      kind: 'ACCEPT',
    });
  };
  if (!isEmpty(SET.externalIP)) {
    w.add(
      'nat',
      KUBE_SERVICES,
      [c(setComment(SET.externalIP)), set(SET.externalIP, ['dst', 'dst'])],
      { kind: 'jump', chain: KUBE_MARK_MASQ },
    );
    externalIPRules(SET.externalIP);
  }
  if (!isEmpty(SET.externalIPLocal)) externalIPRules(SET.externalIPLocal);

  w.add('nat', KUBE_SERVICES, [{ kind: 'addrtype', dir: 'dst', not: false }], {
    kind: 'jump',
    chain: KUBE_NODE_PORT,
  });
  w.add('nat', KUBE_LOAD_BALANCER, [], { kind: 'jump', chain: KUBE_MARK_MASQ });
  w.add('filter', KUBE_SOURCE_RANGES_FIREWALL, [], { kind: 'DROP' });
  for (const e of inputs.noNodeAccess)
    w.add(
      'filter',
      KUBE_IPVS_OUT_FILTER,
      [
        { kind: 'src', cidr: e.ip, not: false },
        { kind: 'ipvs', vaddr: e.ip, vproto: e.proto, vport: e.port },
      ],
      { kind: 'DROP' },
    );

  // acceptIPVSTraffic: "Those rules must be in the end of KUBE-SERVICE chain".
  for (const s of [SET.clusterIP, SET.loadBalancer])
    if (!isEmpty(s)) w.add('nat', KUBE_SERVICES, [set(s, ['dst', 'dst'])], { kind: 'ACCEPT' });

  const markMatch = { kind: 'mark', value: mark, mask: mark } as const;
  w.add('filter', KUBE_FORWARD, [c('kubernetes forwarding rules'), { ...markMatch, not: false }], {
    kind: 'ACCEPT',
  });
  w.add(
    'filter',
    KUBE_FORWARD,
    [
      c('kubernetes forwarding conntrack rule'),
      { kind: 'ctstate', states: ['RELATED', 'ESTABLISHED'], not: false },
    ],
    { kind: 'ACCEPT' },
  );
  w.add(
    'filter',
    KUBE_NODE_PORT,
    [c(setComment(SET.healthCheckNodePort)), set(SET.healthCheckNodePort, ['dst'])],
    { kind: 'ACCEPT' },
  );
  // KUBE-IPVS-FILTER (kubernetes/kubernetes#72236): only service ports on kube-ipvs0 addresses.
  for (const [s, dirs] of [
    [SET.loadBalancer, ['dst', 'dst']],
    [SET.clusterIP, ['dst', 'dst']],
    [SET.externalIP, ['dst', 'dst']],
    [SET.externalIPLocal, ['dst', 'dst']],
    [SET.healthCheckNodePort, ['dst']],
  ] as const)
    w.add('filter', KUBE_IPVS_FILTER, [set(s, [...dirs])], { kind: 'RETURN' });
  w.add(
    'filter',
    KUBE_IPVS_FILTER,
    [{ kind: 'ctstate', states: ['NEW'], not: false }, set(SET.ipvsIPs, ['dst'])],
    { kind: 'REJECT' },
  );

  w.add('nat', KUBE_POSTROUTING, [{ ...markMatch, not: true }], { kind: 'RETURN' });
  w.add('nat', KUBE_POSTROUTING, [], { kind: 'MARK', op: 'xor', value: mark });
  w.add('nat', KUBE_POSTROUTING, [c('kubernetes service traffic requiring SNAT')], {
    kind: 'MASQUERADE',
    randomFully: true,
  });
  w.add('nat', KUBE_MARK_MASQ, [], { kind: 'MARK', op: 'or', value: mark });
  return w;
}
