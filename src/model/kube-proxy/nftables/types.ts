/**
 * kube-proxy's nftables rules as data: the one table `ip kube-proxy` with its chains (each
 * rule kept both as structured matches + statement, for the walker, and as the text
 * `nft list table ip kube-proxy` prints, for the rules view), its sets and its verdict maps.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/nftables/proxier.go` (`setupNFTables`,
 * `syncProxyRules`, `writeServiceToEndpointRules`), read at
 * aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212.
 */
import type { Protocol } from '../../net/ip';
import type { ModeRuleset } from '../types';

/** Netfilter hooks kube-proxy's base chains attach to. */
export type NftHook = 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';

/** The hook, type and priority of a base chain (`type filter hook input priority -110`). */
export interface NftBaseChain {
  type: 'filter' | 'nat';
  hook: NftHook;
  /** Numeric priority: lower runs first at the same hook (`dstnat` = -100, `srcnat` = 100). */
  priority: number;
}

/** The key a verdict-map lookup builds from the packet. */
export type NftLookupKey =
  /** `ip daddr . meta l4proto . th dport` */
  | 'daddr.l4proto.dport'
  /** `meta l4proto . th dport` */
  | 'l4proto.dport';

/** A match condition; all of a rule's matches must hold for its statement to run. */
export type NftMatch =
  /** `ct state new` (the walker models new connections only). */
  | { kind: 'ctStateNew' }
  /** `ip saddr|daddr [!=] CIDR` or `… [!=] { CIDR, … }`. */
  | { kind: 'addr'; dir: 'saddr' | 'daddr'; not: boolean; cidrs: string[] }
  /** `ip saddr|daddr @set`. */
  | { kind: 'addrInSet'; dir: 'saddr' | 'daddr'; set: string }
  /** `tcp dport 80` */
  | { kind: 'dport'; proto: Protocol; port: number }
  /** `meta l4proto tcp` */
  | { kind: 'l4proto'; proto: Protocol }
  /** `fib saddr|daddr type local`: the address is one of the node's own. */
  | { kind: 'fibLocal'; dir: 'saddr' | 'daddr' }
  /** `meta mark & MASK == 0x00000000` */
  | { kind: 'markClear'; mask: number };

/** One element of a `numgen random mod N vmap { i : goto chain, … }`. */
export interface NumgenTarget {
  index: number;
  chain: string;
  /** `ip:port` the endpoint chain DNATs to (for the endpoint choice). */
  endpoint: string;
}

/** What a rule does once its matches hold. */
export type NftStatement =
  | { kind: 'jump' | 'goto'; chain: string }
  /** A verdict-map lookup: `<key> vmap @map`; no element means no match. */
  | { kind: 'vmap'; key: NftLookupKey; map: string }
  | { kind: 'numgen'; mod: number; targets: NumgenTarget[] }
  | { kind: 'dnat'; to: string }
  | { kind: 'mark'; op: 'or' | 'xor'; value: number }
  | { kind: 'masquerade' }
  /** `update @set { ip saddr }` (session affinity); changes nothing the walker tracks. */
  | { kind: 'updateSet'; set: string }
  | { kind: 'return' | 'drop' | 'reject' };

/** One rule. `id` is `<chain>/<index>` and unique in the table. */
export interface NftRule {
  id: string;
  chain: string;
  index: number;
  matches: NftMatch[];
  statement: NftStatement;
  comment?: string;
  /** The rule as `nft list table` prints it, without indentation. */
  text: string;
}

/** A chain: a base chain when `base` is set, otherwise a regular chain. */
export interface NftChain {
  name: string;
  base?: NftBaseChain;
  comment?: string;
  rules: NftRule[];
}

/** A verdict in a map element. */
export type NftVerdict = { kind: 'goto'; chain: string } | { kind: 'drop' };

/** An element of a verdict map: `[ip . ]proto . port [comment "…"] : verdict`. */
export interface NftMapElement {
  /** Absent for `inet_proto . inet_service` maps. */
  ip?: string;
  proto: Protocol;
  port: number;
  comment?: string;
  verdict: NftVerdict;
}

/** A named set of IPv4 addresses (`cluster-ips`, `nodeport-ips`, `affinity-…`). */
export interface NftSet {
  kind: 'set';
  name: string;
  comment?: string;
  /** `flags dynamic,timeout` with `timeout` (affinity sets). */
  timeoutSeconds?: number;
  elements: string[];
}

/** A named verdict map (`service-ips`, `service-nodeports`, `firewall-ips`, …). */
export interface NftMap {
  kind: 'map';
  name: string;
  key: NftLookupKey;
  comment?: string;
  elements: NftMapElement[];
}

/** kube-proxy's `ip kube-proxy` table on one node. */
export interface NftRuleset extends ModeRuleset {
  mode: 'nftables';
  /** `rules for kube-proxy` */
  tableComment: string;
  /** Sets and maps in the order kube-proxy creates them (which is the order `nft list` prints). */
  sets: (NftSet | NftMap)[];
  /** Chains in creation order (the order `nft list` prints). */
  chains: NftChain[];
  /** `0x4000` for the default masquerade bit 14. */
  masqueradeMark: number;
  /** What the generator assumed that the cluster does not say. */
  assumed: string[];
}

/** The table name the walker reports in {@link ModeHit.table}. */
export const NFT_TABLE = 'ip kube-proxy';
