/**
 * The contract every kube-proxy mode (iptables, nftables, IPVS) implements, so the trace and
 * the rules view work the same way in each: a generator that writes the node's rules as the
 * mode's own tool prints them, and a walker that runs one new packet through them.
 */
import type { Cluster, ClusterNode } from '../scenario/cluster';
import type { IPv4, Protocol } from '../net/ip';

/** kube-proxy's modes on Linux. */
export type ProxyMode = 'iptables' | 'nftables' | 'ipvs';

/** The header fields the rules look at and change. `mark` is the packet mark (skb->mark). */
export interface ModePacket {
  protocol: Protocol;
  src: IPv4;
  sport: number;
  dst: IPv4;
  dport: number;
  mark: number;
}

/** Where the packet comes from, as seen by the node. */
export type Origin = 'network' | 'local-pod' | 'local-host';

/** One printable line of a rule set. `ruleId` is set on lines a walk can match. */
export interface RuleLine {
  text: string;
  ruleId?: string;
  /** The table/chain/section the line belongs to (for grouping and "chains followed"). */
  chain?: string;
}

/** A node's rules in one mode. */
export interface ModeRuleset {
  mode: ProxyMode;
  nodeName: string;
  /** Every line as the mode's tool prints it (`iptables-save`, `nft list table ip kube-proxy`, `ipvsadm -Ln` + `ipset list` + `ip addr show kube-ipvs0`). */
  lines: RuleLine[];
}

/**
 * What a matched rule did, for the trace's steps:
 * - `capture`: the rule that recognised a Service address (ClusterIP, LB IP, NodePort) and
 *   sent the packet to that Service's handling;
 * - `firewall`: a loadBalancerSourceRanges check; `ext`: the external-traffic policy chain's
 *   decision (mark for masquerade, or keep local); `choose`: the endpoint choice;
 * - `dnat`, `snat`: address rewrites; `drop`, `reject`: the end of the packet;
 * - `mark`: only the mark changed.
 */
export type HitRole =
  'capture' | 'firewall' | 'ext' | 'choose' | 'dnat' | 'snat' | 'drop' | 'reject' | 'mark';

/** One option of an endpoint choice: `ip:port` and its probability in [0, 1]. */
export interface ChoiceOption {
  endpoint: string;
  probability: number;
}

/** A rule the packet matched. */
export interface ModeHit {
  ruleId: string;
  /** Table (iptables/nftables) or `ipvs` / `ipset`. */
  table: string;
  chain: string;
  /** The rule exactly as the mode's tool prints it (a line of {@link ModeRuleset.lines}). */
  text: string;
  role?: HitRole;
  /** The packet right after the rule acted. */
  packet: ModePacket;
  /** For `choose` hits: the options and the index chosen. */
  choice?: { options: ChoiceOption[]; chosen: number };
}

/** Decides an endpoint choice: returns the index of the option to take. */
export type EndpointChooser = (options: ChoiceOption[]) => number;

/** What the node does with the packet after kube-proxy's rules. */
export type ModeFate =
  | { kind: 'forward'; masquerade: boolean }
  | { kind: 'local' }
  | { kind: 'drop' | 'reject'; hit: ModeHit };

/** One packet through one node in one mode. */
export interface ModeProcessing {
  hits: ModeHit[];
  /** The packet after kube-proxy's rules (DNAT applied; SNAT is applied by the caller when `fate.masquerade`). */
  packet: ModePacket;
  dnat: boolean;
  fate: ModeFate;
}

/** A mode: its generator and its walker. */
export interface ProxyModeImpl<R extends ModeRuleset = ModeRuleset> {
  mode: ProxyMode;
  /** @throws {Error} `unknown node "<name>"` */
  generate(cluster: Cluster, nodeName: string): R;
  process(
    rules: R,
    node: ClusterNode,
    packet: ModePacket,
    origin: Origin,
    choose: EndpointChooser,
  ): ModeProcessing;
}
