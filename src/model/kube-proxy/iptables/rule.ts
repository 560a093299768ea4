/**
 * iptables rules as data: each rule keeps its matches and target in structured form (for
 * the walker), its text exactly as `iptables-save` prints it (for the rules view) and exactly
 * as kube-proxy writes it into its `iptables-restore` input (for golden tests against
 * kube-proxy's own test expectations), all made by one builder so they cannot disagree.
 *
 * This module holds the types; the texts are `ruleText.ts`, the builder `writer.ts`, the
 * finished rule set and its `iptables-save` listing `ruleset.ts`, the restore payload
 * `restore.ts`. Everything is re-exported here.
 */
import type { Protocol } from '../../net/ip';
import type { RuleLine } from '../types';

/** Netfilter tables kube-proxy writes in iptables mode. */
export type Table = 'filter' | 'nat';

/** A match condition. All of a rule's matches must hold for the rule to match. */
export type Match =
  | { kind: 'src'; cidr: string; not: boolean }
  | { kind: 'dst'; cidr: string; not: boolean }
  | { kind: 'proto'; proto: Protocol }
  | { kind: 'comment'; text: string }
  | { kind: 'dport'; port: number }
  | { kind: 'addrtype'; dir: 'src' | 'dst'; type: 'LOCAL' }
  | { kind: 'mark'; value: number; mask: number; not: boolean }
  | { kind: 'ctstate'; states: string[]; not: boolean }
  | { kind: 'statistic'; probability: number }
  | { kind: 'recent'; name: string; mode: 'rcheck' | 'set'; seconds?: number }
  | { kind: 'nfacct'; name: string };

/** What a rule does when it matches. */
export type Target =
  | { kind: 'jump'; chain: string }
  | { kind: 'DNAT'; to: string }
  | { kind: 'MARK'; op: 'or' | 'xor'; value: number }
  | { kind: 'MASQUERADE'; randomFully: boolean }
  | { kind: 'RETURN' }
  | { kind: 'ACCEPT' }
  | { kind: 'DROP' }
  | { kind: 'REJECT' }
  | { kind: 'none' };

/** One rule. `id` is `<table>/<chain>/<index>` and stable for a given rule set. */
export interface Rule {
  id: string;
  table: Table;
  chain: string;
  index: number;
  matches: Match[];
  target: Target;
  /** The rule as `iptables-save` prints it, starting `-A CHAIN`. */
  text: string;
  /** The rule as kube-proxy writes it into `iptables-restore` input (`restoreText`, ruleText.ts). */
  restore: string;
}

/** A chain and its rules, in order. */
export interface Chain {
  table: Table;
  name: string;
  /** Built-in chains (PREROUTING, INPUT, …) have a policy; kube-proxy's are user chains. */
  builtin: boolean;
  /**
   * Declared (`:NAME - [0:0]`) in kube-proxy's `iptables-restore` payload. False for
   * built-in chains and for chains created outside it: the KUBE-PROXY-CANARY chains of
   * `ipt.Monitor`, and KUBE-FIREWALL when kube-proxy does not write its rule.
   */
  restored: boolean;
  rules: Rule[];
}

/** kube-proxy's iptables rules on one node. */
export interface IptablesRuleset {
  mode: 'iptables';
  nodeName: string;
  /** Both tables as `iptables-save` prints them, one entry per line (see `formatRuleset`, ruleset.ts). */
  lines: RuleLine[];
  /** Chains by table, in `iptables-save` order. */
  tables: Record<Table, Chain[]>;
  /** `0x4000` for the default masquerade bit 14. */
  masqueradeMark: number;
}

/** A rule to write: its matches and target (the writer adds the id and both texts). */
export interface RuleSpec {
  matches: Match[];
  target: Target;
}

export {
  effectiveProbability,
  formatKubeProxyMark,
  formatMark,
  formatSavedProbability,
  formatWrittenProbability,
  restoreText,
  ruleText,
} from './ruleText';
export { byChainName, RuleWriter, sharedChain } from './writer';
export { BUILTIN_CHAINS, chainIndex, finishRuleset, formatRuleset, formatTable } from './ruleset';
export { formatRestore } from './restore';
