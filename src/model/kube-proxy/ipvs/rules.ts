/**
 * The iptables rules kube-proxy still writes in IPVS mode, as data: each rule keeps its
 * matches and target in structured form (for the walker) and its text as `iptables-save`
 * prints it (for the rules view), both made by one builder so they cannot disagree.
 *
 * IPVS mode needs matches the iptables mode never writes (`-m set --match-set`, `-m physdev`,
 * negated `-m addrtype`, `-m ipvs`), so the match type is this module's own; targets and
 * the mark format are the iptables mode's (`../iptables/rule.ts`, imported read-only).
 *
 * `iptables-save` print order (iptables 1.8): `-s`, `-d`, `-p` first, then each `-m` match in
 * the order it was given, then `-j`. A bare `-p tcp` loads no `tcp` match module, so none is
 * printed. Sets print as `-m set --match-set NAME dst,dst` (libxt_set.c, `set_print_v1` save);
 * `addrtype` as `-m addrtype ! --src-type LOCAL` (libxt_addrtype.c); REJECT with its default
 * `--reject-with icmp-port-unreachable` (libipt_REJECT.c); MARK as `--set-xmark` (libxt_MARK.c).
 */
import type { Protocol } from '../../net/ip';
import type { RuleLine } from '../types';
import type { Table, Target } from '../iptables/rule';
import { BUILTIN_CHAINS, formatMark } from '../iptables/rule';

export type { Table, Target } from '../iptables/rule';

/** Which packet field each dimension of a set is matched against (`dst,dst`, `dst,dst,src`). */
export type SetDir = 'src' | 'dst';

/** A match condition of an IPVS-mode rule. All of a rule's matches must hold. */
export type IpvsMatch =
  | { kind: 'src'; cidr: string; not: boolean }
  | { kind: 'dst'; cidr: string; not: boolean }
  | { kind: 'proto'; proto: Protocol }
  | { kind: 'comment'; text: string }
  | { kind: 'set'; name: string; dirs: SetDir[] }
  | { kind: 'addrtype'; dir: 'src' | 'dst'; not: boolean }
  | { kind: 'physdev-is-in'; not: boolean }
  | { kind: 'mark'; value: number; mask: number; not: boolean }
  | { kind: 'ctstate'; states: string[]; not: boolean }
  /** `-m ipvs --vaddr --vproto --vport`: the packet belongs to that IPVS virtual server. */
  | { kind: 'ipvs'; vaddr: string; vproto: Protocol; vport: number };

/** One rule. `id` is `<table>/<chain>/<index>`, as in iptables mode. */
export interface IpvsRule {
  id: string;
  table: Table;
  chain: string;
  index: number;
  matches: IpvsMatch[];
  target: Target;
  /** The rule as `iptables-save` prints it, starting `-A CHAIN`. */
  text: string;
}

/** A chain and its rules, in order. */
export interface IpvsChain {
  table: Table;
  name: string;
  builtin: boolean;
  rules: IpvsRule[];
}

const PROTO_NUMBER: Record<Protocol, number> = { tcp: 6, udp: 17, sctp: 132 };

function quote(s: string): string {
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`;
}

function withPrefix(cidr: string): string {
  return cidr.includes('/') ? cidr : `${cidr}/32`;
}

function matchText(m: IpvsMatch): string {
  const bang = (not: boolean) => (not ? '! ' : '');
  switch (m.kind) {
    case 'src':
      return `${bang(m.not)}-s ${withPrefix(m.cidr)}`;
    case 'dst':
      return `${bang(m.not)}-d ${withPrefix(m.cidr)}`;
    case 'proto':
      return `-p ${m.proto}`;
    case 'comment':
      return `-m comment --comment ${quote(m.text)}`;
    case 'set':
      return `-m set --match-set ${m.name} ${m.dirs.join(',')}`;
    case 'addrtype':
      return `-m addrtype ${bang(m.not)}--${m.dir}-type LOCAL`;
    case 'physdev-is-in':
      return `-m physdev ${bang(m.not)}--physdev-is-in`;
    case 'mark':
      return `-m mark ${bang(m.not)}--mark ${formatMark(m.value)}/${formatMark(m.mask)}`;
    case 'ctstate':
      return `-m conntrack ${bang(m.not)}--ctstate ${m.states.join(',')}`;
    case 'ipvs':
      // libxt_ipvs.c save form [unverified against a live iptables-save]: address with its
      // mask, protocol as its number.
      return `-m ipvs --vaddr ${withPrefix(m.vaddr)} --vproto ${PROTO_NUMBER[m.vproto]} --vport ${m.vport}`;
  }
}

function targetText(t: Target): string {
  switch (t.kind) {
    case 'jump':
      return `-j ${t.chain}`;
    case 'DNAT':
      return `-j DNAT --to-destination ${t.to}`;
    case 'MARK':
      return `-j MARK --set-xmark ${formatMark(t.value)}/${formatMark(t.op === 'or' ? t.value : 0)}`;
    case 'MASQUERADE':
      return `-j MASQUERADE${t.randomFully ? ' --random-fully' : ''}`;
    case 'REJECT':
      return '-j REJECT --reject-with icmp-port-unreachable';
    case 'RETURN':
    case 'ACCEPT':
    case 'DROP':
      return `-j ${t.kind}`;
    case 'none':
      return '';
  }
}

/** Prints a rule as `iptables-save` does: `-s`/`-d`/`-p` first, then the `-m` matches in order. */
export function ipvsRuleText(chain: string, matches: IpvsMatch[], target: Target): string {
  const text = (kinds: IpvsMatch['kind'][], keep: boolean) =>
    matches.filter((m) => kinds.includes(m.kind) === keep).map(matchText);
  const tt = targetText(target);
  return [
    `-A ${chain}`,
    ...text(['src'], true),
    ...text(['dst'], true),
    ...text(['proto'], true),
    ...text(['src', 'dst', 'proto'], false),
    ...(tt ? [tt] : []),
  ].join(' ');
}

/** Collects the rules of one rule set; `add` assigns ids and text. */
export class IpvsRuleWriter {
  readonly tables: Record<Table, Map<string, IpvsChain>> = { filter: new Map(), nat: new Map() };

  /** Starts with the built-in chains of both tables declared. */
  constructor() {
    for (const table of ['filter', 'nat'] as const)
      for (const name of BUILTIN_CHAINS[table]) this.chain(table, name, true);
  }

  /** Declares a chain (idempotent). */
  chain(table: Table, name: string, builtin = false): IpvsChain {
    const existing = this.tables[table].get(name);
    if (existing) return existing;
    const c: IpvsChain = { table, name, builtin, rules: [] };
    this.tables[table].set(name, c);
    return c;
  }

  /** Appends a rule to `table`/`chain`, declaring the chain if needed. */
  add(table: Table, chain: string, matches: IpvsMatch[], target: Target): IpvsRule {
    const c = this.chain(table, chain);
    const rule: IpvsRule = {
      id: `${table}/${chain}/${c.rules.length}`,
      table,
      chain,
      index: c.rules.length,
      matches,
      target,
      text: ipvsRuleText(chain, matches, target),
    };
    c.rules.push(rule);
    return rule;
  }

  /** The chains of `table` in `iptables-save` order: built-ins, then user chains by name. */
  ordered(table: Table): IpvsChain[] {
    const all = [...this.tables[table].values()];
    const builtins = BUILTIN_CHAINS[table]
      .map((n) => all.find((c) => c.name === n))
      .filter((c): c is IpvsChain => c !== undefined);
    const users = all
      .filter((c) => !c.builtin)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...builtins, ...users];
  }
}

/** One table as `iptables-save -t <table>` prints it, rules tagged with their id. */
export function iptablesSaveLines(chains: IpvsChain[], table: Table): RuleLine[] {
  const lines: RuleLine[] = [{ text: `*${table}` }];
  for (const c of chains)
    lines.push({
      text: c.builtin ? `:${c.name} ACCEPT [0:0]` : `:${c.name} - [0:0]`,
      chain: `${table}/${c.name}`,
    });
  for (const c of chains)
    for (const r of c.rules)
      lines.push({ text: r.text, ruleId: r.id, chain: `${table}/${c.name}` });
  lines.push({ text: 'COMMIT' });
  return lines;
}
