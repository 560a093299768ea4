/**
 * The ipsets kube-proxy fills in IPVS mode: their names, types and comments, their members
 * (structured, for the walker's `-m set` matches, and as `ipset list` prints them), and the
 * `ipset list` text.
 *
 * Sources: kubernetes/kubernetes `pkg/proxy/ipvs/ipset.go` (names and comments, read at
 * fleetboard-io/fleetboard@6a9871c7c9b23fcdac8804fa0d45d0f2ad2b06b3, a vendored copy of
 * upstream), `pkg/proxy/ipvs/proxier.go` `ipsetInfo` (the sets and their types, read at
 * aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212), and
 * `pkg/proxy/ipvs/ipset/ipset.go` (`Entry.String`, `createSet`: hash sets are created with
 * `family inet hashsize 1024 maxelem 65536`, bitmap:port sets with `range 0-65535`; read at
 * danwinship/kubernetes@3953c09161ee6b2928da733224e65aff52c4beeb).
 */
import type { IPv4, Protocol } from '../../net/ip';
import { cidrContains } from '../../net/ip';
import type { RuleLine } from '../types';
import type { SetDir } from './rules';

/** The ipset types kube-proxy uses. */
export type IpsetType =
  'hash:ip' | 'hash:ip,port' | 'hash:ip,port,ip' | 'hash:ip,port,net' | 'bitmap:port';

/** The IPv4 set names (`ipset.go` constants); IPv6 twins are `KUBE-6-…` and not modelled. */
export const SET = {
  loopBack: 'KUBE-LOOP-BACK',
  clusterIP: 'KUBE-CLUSTER-IP',
  externalIP: 'KUBE-EXTERNAL-IP',
  externalIPLocal: 'KUBE-EXTERNAL-IP-LOCAL',
  loadBalancer: 'KUBE-LOAD-BALANCER',
  loadBalancerFW: 'KUBE-LOAD-BALANCER-FW',
  loadBalancerLocal: 'KUBE-LOAD-BALANCER-LOCAL',
  loadBalancerSourceIP: 'KUBE-LOAD-BALANCER-SOURCE-IP',
  loadBalancerSourceCIDR: 'KUBE-LOAD-BALANCER-SOURCE-CIDR',
  nodePortTCP: 'KUBE-NODE-PORT-TCP',
  nodePortLocalTCP: 'KUBE-NODE-PORT-LOCAL-TCP',
  nodePortUDP: 'KUBE-NODE-PORT-UDP',
  nodePortLocalUDP: 'KUBE-NODE-PORT-LOCAL-UDP',
  nodePortSCTP: 'KUBE-NODE-PORT-SCTP-HASH',
  nodePortLocalSCTP: 'KUBE-NODE-PORT-LOCAL-SCTP-HASH',
  healthCheckNodePort: 'KUBE-HEALTH-CHECK-NODE-PORT',
  ipvsIPs: 'KUBE-IPVS-IPS',
} as const;

/** `ipsetInfo` (proxier.go), in its order: name, type and the comment used in rules. */
export const IPSET_INFO: readonly { name: string; type: IpsetType; comment: string }[] = [
  {
    name: SET.loopBack,
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose',
  },
  {
    name: SET.clusterIP,
    type: 'hash:ip,port',
    comment: 'Kubernetes service cluster ip + port for masquerade purpose',
  },
  {
    name: SET.externalIP,
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port for masquerade and filter purpose',
  },
  {
    name: SET.externalIPLocal,
    type: 'hash:ip,port',
    comment: 'Kubernetes service external ip + port with externalTrafficPolicy=local',
  },
  { name: SET.loadBalancer, type: 'hash:ip,port', comment: 'Kubernetes service lb portal' },
  {
    name: SET.loadBalancerFW,
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port for load balancer with sourceRange',
  },
  {
    name: SET.loadBalancerLocal,
    type: 'hash:ip,port',
    comment: 'Kubernetes service load balancer ip + port with externalTrafficPolicy=local',
  },
  {
    name: SET.loadBalancerSourceIP,
    type: 'hash:ip,port,ip',
    comment: 'Kubernetes service load balancer ip + port + source IP for packet filter purpose',
  },
  {
    name: SET.loadBalancerSourceCIDR,
    type: 'hash:ip,port,net',
    comment: 'Kubernetes service load balancer ip + port + source cidr for packet filter purpose',
  },
  {
    name: SET.nodePortTCP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port for masquerade purpose',
  },
  {
    name: SET.nodePortLocalTCP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport TCP port with externalTrafficPolicy=local',
  },
  {
    name: SET.nodePortUDP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port for masquerade purpose',
  },
  {
    name: SET.nodePortLocalUDP,
    type: 'bitmap:port',
    comment: 'Kubernetes nodeport UDP port with externalTrafficPolicy=local',
  },
  {
    name: SET.nodePortSCTP,
    type: 'hash:ip,port',
    comment: "Kubernetes nodeport SCTP port for masquerade purpose with type 'hash ip:port'",
  },
  {
    name: SET.nodePortLocalSCTP,
    type: 'hash:ip,port',
    comment:
      "Kubernetes nodeport SCTP port with externalTrafficPolicy=local with type 'hash ip:port'",
  },
  {
    name: SET.healthCheckNodePort,
    type: 'bitmap:port',
    comment: 'Kubernetes health check node port',
  },
  { name: SET.ipvsIPs, type: 'hash:ip', comment: 'Addresses on the ipvs interface' },
];

/** The `comment` kube-proxy puts on the rules that match `set` (`IPSet.getComment`). */
export function setComment(set: string): string {
  const info = IPSET_INFO.find((i) => i.name === set);
  if (!info) throw new Error(`unknown ipset "${set}"`);
  return info.comment;
}

/** One member of a set: its fields, and its text as `ipset list` prints it (`Entry.String`). */
export interface IpsetMember {
  text: string;
  ip?: IPv4;
  proto?: Protocol;
  port?: number;
  ip2?: IPv4;
  net?: string;
  /** `ipset/<set>/<text>` */
  ruleId: string;
}

/** A set and its members, as kube-proxy leaves it after a sync. */
export interface Ipset {
  name: string;
  type: IpsetType;
  members: IpsetMember[];
}

/** The fields of an entry (`utilipset.Entry`). */
export type EntryFields = Omit<IpsetMember, 'text' | 'ruleId'>;

/** `Entry.String()` for a set type: `ip`, `ip,proto:port`, `ip,proto:port,ip2|net`, or `port`. */
export function entryText(type: IpsetType, e: EntryFields): string {
  const ipPort = `${e.ip ?? ''},${e.proto ?? 'tcp'}:${e.port ?? 0}`;
  switch (type) {
    case 'hash:ip':
      return e.ip ?? '';
    case 'hash:ip,port':
      return ipPort;
    case 'hash:ip,port,ip':
      return `${ipPort},${e.ip2 ?? ''}`;
    case 'hash:ip,port,net':
      return `${ipPort},${e.net ?? ''}`;
    case 'bitmap:port':
      return String(e.port ?? 0);
  }
}

/** Collects set members while the generator walks the Services (`activeEntries`). */
export class IpsetWriter {
  private readonly sets = new Map<string, Map<string, IpsetMember>>(
    IPSET_INFO.map((i) => [i.name, new Map()]),
  );

  /** Inserts an entry (a set ignores duplicates, as `sets.Set.Insert` does). */
  add(set: string, e: EntryFields): void {
    const info = IPSET_INFO.find((i) => i.name === set);
    const members = this.sets.get(set);
    if (!info || !members) throw new Error(`unknown ipset "${set}"`);
    const text = entryText(info.type, e);
    if (!members.has(text)) members.set(text, { ...e, text, ruleId: `ipset/${set}/${text}` });
  }

  /** True when `set` has no member yet (`IPSet.isEmpty`: kube-proxy writes no rule for it). */
  isEmpty(set: string): boolean {
    return (this.sets.get(set)?.size ?? 0) === 0;
  }

  /** Every set in `ipsetInfo` order; members sorted (bitmaps numerically, hashes by text). */
  finish(): Ipset[] {
    return IPSET_INFO.map((info) => {
      const members = [...(this.sets.get(info.name)?.values() ?? [])];
      members.sort((a, b) =>
        info.type === 'bitmap:port'
          ? (a.port ?? 0) - (b.port ?? 0)
          : a.text < b.text
            ? -1
            : a.text > b.text
              ? 1
              : 0,
      );
      return { name: info.name, type: info.type, members };
    });
  }
}

/** The packet fields a `-m set` match looks at. */
export interface SetPacket {
  protocol: Protocol;
  src: IPv4;
  dst: IPv4;
  sport: number;
  dport: number;
}

/**
 * The member a packet matches under `dirs` (`-m set --match-set S dst,dst,src`), or
 * undefined. Each dimension of the set type is read from the packet's source or destination
 * as `dirs` says: an address dimension from the IP, a port dimension from the port and the
 * protocol, a `net` dimension by containment.
 */
export function matchingMember(set: Ipset, dirs: SetDir[], p: SetPacket): IpsetMember | undefined {
  const ip = (i: number) => ((dirs[i] ?? 'dst') === 'src' ? p.src : p.dst);
  const port = (i: number) => ((dirs[i] ?? 'dst') === 'src' ? p.sport : p.dport);
  return set.members.find((m) => {
    switch (set.type) {
      case 'hash:ip':
        return m.ip === ip(0);
      case 'bitmap:port':
        return m.port === port(0);
      case 'hash:ip,port':
        return m.ip === ip(0) && m.proto === p.protocol && m.port === port(1);
      case 'hash:ip,port,ip':
        return m.ip === ip(0) && m.proto === p.protocol && m.port === port(1) && m.ip2 === ip(2);
      case 'hash:ip,port,net':
        return (
          m.ip === ip(0) &&
          m.proto === p.protocol &&
          m.port === port(1) &&
          m.net !== undefined &&
          cidrContains(m.net, ip(2))
        );
    }
  });
}

/**
 * `ipset list` for every set. Printed per set: `Name`, `Type`, `Header` (what `createSet`
 * gives it), `Members`, one member a line, a blank line between sets. The kernel-specific
 * lines (`Revision`, `Size in memory`, `References`, `Number of entries`, and newer headers'
 * `bucketsize`/`initval`) are left out. kube-proxy creates the sets while ranging over a Go
 * map, so their real order differs from node to node; they are listed in `ipsetInfo` order.
 */
export function ipsetListLines(sets: Ipset[]): RuleLine[] {
  const lines: RuleLine[] = [];
  sets.forEach((s, i) => {
    const chain = `ipset/${s.name}`;
    const header =
      s.type === 'bitmap:port' ? 'range 0-65535' : 'family inet hashsize 1024 maxelem 65536';
    lines.push(
      { text: `Name: ${s.name}`, chain },
      { text: `Type: ${s.type}`, chain },
      { text: `Header: ${header}`, chain },
      { text: 'Members:', chain },
    );
    for (const m of s.members) lines.push({ text: m.text, ruleId: m.ruleId, chain });
    if (i < sets.length - 1) lines.push({ text: '' });
  });
  return lines;
}
