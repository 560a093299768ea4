/**
 * iptables rules as data: each rule keeps its matches and target in structured form (for
 * the walker), its text exactly as `iptables-save` prints it (for the rules view) and exactly
 * as kube-proxy writes it into its `iptables-restore` input (for golden tests against
 * kube-proxy's own test expectations), all made by one builder so they cannot disagree.
 *
 * `iptables-save` print order (iptables 1.8, `nft` and legacy backends alike): `-s`, `-d`,
 * `-p` first, then each `-m` match in the order it was given, then `-j` and the target's
 * options. Addresses print with their prefix (`/32`), comments are quoted unless they are
 * plain `[A-Za-z0-9_-]` words (`xtables_save_string`), `statistic` probabilities print with
 * 11 decimals after the kernel's 31-bit rounding (`libxt_statistic.c`), REJECT prints its
 * default `--reject-with icmp-port-unreachable` (`libipt_REJECT.c`).
 */
import type { Protocol } from '../../net/ip';
import type { RuleLine } from '../types';
import { goFixed, goHex08 } from './goFormat';
import { memoize } from '../memo';

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
  /** The rule as kube-proxy writes it into `iptables-restore` input ({@link restoreText}). */
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
  /** Both tables as `iptables-save` prints them, one entry per line (see {@link formatRuleset}). */
  lines: RuleLine[];
  /** Chains by table, in `iptables-save` order. */
  tables: Record<Table, Chain[]>;
  /** `0x4000` for the default masquerade bit 14. */
  masqueradeMark: number;
}

/** A mark as iptables-save prints it (`0x%x`, libxt_mark.c): `0x4000` for 1<<14. */
export function formatMark(v: number): string {
  return `0x${v.toString(16)}`;
}

/**
 * The probability string kube-proxy writes: `%0.10f` of the value (`computeProbability`,
 * proxier.go), which is what iptables parses.
 */
export function formatWrittenProbability(p: number): string {
  return written10(p);
}

// A cascade of n endpoints uses the n values 1/n … 1/2 on every node: format each once.
const written10 = memoize((p: number) => goFixed(p, 10));

/**
 * The masquerade mark as kube-proxy writes it: `fmt.Sprintf("%#08x", 1<<masqueradeBit)`
 * (`newProxier`, proxier.go), 8 zero-padded hex digits after `0x`: `0x00004000`.
 */
export function formatKubeProxyMark(v: number): string {
  return goHex08(v);
}

function written(p: number): number {
  return Number(formatWrittenProbability(p));
}

/**
 * The probability as the kernel stores it (`lround(0x80000000 * p)`, libxt_statistic.c) and
 * iptables-save prints it (`%.11f`): 1/3 → `0.33333333349`.
 */
export function formatSavedProbability(p: number): string {
  return saved11(p);
}

const saved11 = memoize((p: number) => {
  const stored = Math.round(written(p) * 0x80000000);
  return (stored / 0x80000000).toFixed(11);
});

/** The probability the kernel applies for a `--probability p` rule (after 31-bit rounding). */
export function effectiveProbability(p: number): number {
  return effective(p);
}

const effective = memoize((p: number) => Math.round(written(p) * 0x80000000) / 0x80000000);

// Comments repeat across rules and nodes (a Service's name, one text per endpoint): quote once.
const quote = memoize((s: string): string =>
  /^[A-Za-z0-9_-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`,
);

function withPrefix(cidr: string): string {
  return cidr.includes('/') ? cidr : `${cidr}/32`;
}

/** Prints one match in iptables-save form. */
function matchText(m: Match): string {
  switch (m.kind) {
    case 'src':
      return `${m.not ? '! ' : ''}-s ${withPrefix(m.cidr)}`;
    case 'dst':
      return `${m.not ? '! ' : ''}-d ${withPrefix(m.cidr)}`;
    case 'proto':
      return `-p ${m.proto}`;
    case 'comment':
      return `-m comment --comment ${quote(m.text)}`;
    case 'dport':
      return `--dport ${m.port}`;
    case 'addrtype':
      return `-m addrtype --${m.dir}-type ${m.type}`;
    case 'mark':
      return `-m mark ${m.not ? '! ' : ''}--mark ${formatMark(m.value)}/${formatMark(m.mask)}`;
    case 'ctstate':
      return `-m conntrack ${m.not ? '! ' : ''}--ctstate ${m.states.join(',')}`;
    case 'statistic':
      return `-m statistic --mode random --probability ${formatSavedProbability(m.probability)}`;
    case 'recent':
      return m.mode === 'rcheck'
        ? `-m recent --rcheck --seconds ${m.seconds ?? 0} --reap --name ${m.name} --mask 255.255.255.255 --rsource`
        : `-m recent --set --name ${m.name} --mask 255.255.255.255 --rsource`;
    case 'nfacct':
      return `-m nfacct --nfacct-name ${m.name}`;
  }
}

function targetText(t: Target): string {
  switch (t.kind) {
    case 'jump':
      return `-j ${t.chain}`;
    case 'DNAT':
      return `-j DNAT --to-destination ${t.to}`;
    case 'MARK':
      // libxt_MARK.c mark_tg_save prints every MARK as --set-xmark value/mask: --or-mark V is
      // stored as V/V, --xor-mark V as V/0.
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

/**
 * Prints a rule as iptables-save does. `-s`, `-d` and `-p` lead; the protocol's own match
 * (`-m tcp --dport N`) is printed where kube-proxy loaded it, after the comment.
 */
export function ruleText(chain: string, matches: Match[], target: Target): string {
  // `-s`/`-d` texts, the protocol, and the rest in order (a `dport` joins the protocol's match
  // module, wherever that was loaded). One `join` gives a flat string, not a rope of pieces.
  const parts = [`-A ${chain}`];
  let dsts: string[] | undefined;
  let proto = '';
  const rest: string[] = [];
  let protoMatch = -1;
  for (const m of matches) {
    if (m.kind === 'src') parts.push(matchText(m));
    else if (m.kind === 'dst') (dsts ??= []).push(matchText(m));
    else if (m.kind === 'proto') {
      // kube-proxy writes `-m tcp -p tcp`: the protocol's match module is loaded (and
      // printed, even with no options) where it was given.
      proto = m.proto;
      protoMatch = rest.push(`-m ${m.proto}`) - 1;
    } else if (m.kind === 'dport') {
      if (protoMatch >= 0) rest[protoMatch] += ` ${matchText(m)}`;
      else rest.push(`-m tcp ${matchText(m)}`);
    } else rest.push(matchText(m));
  }
  if (dsts) for (const d of dsts) parts.push(d);
  if (proto) parts.push(`-p ${proto}`);
  for (const r of rest) parts.push(r);
  const tt = targetText(target);
  if (tt) parts.push(tt);
  return parts.join(' ');
}

/**
 * A comment as kube-proxy writes it. Every comment with a space in it is written with literal
 * quotes (`fmt.Sprintf(`"%s cluster IP"`, …)`, `"kubernetes forwarding rules"`, …); the bare
 * service port name in KUBE-NODEPORTS and KUBE-SEP- chains (`appendServiceCommentLocked`),
 * which never contains a space, is written unquoted.
 */
const restoreComment = memoize((text: string): string => (/\s/.test(text) ? `"${text}"` : text));

/** Prints one match as kube-proxy writes it. */
function restoreMatch(m: Match, mark: (v: number) => string): string {
  switch (m.kind) {
    case 'src':
      return `${m.not ? '! ' : ''}-s ${m.cidr}`;
    case 'dst':
      return `${m.not ? '! ' : ''}-d ${m.cidr}`;
    case 'proto':
      return `-m ${m.proto} -p ${m.proto}`;
    case 'comment':
      return `-m comment --comment ${restoreComment(m.text)}`;
    case 'dport':
      return `--dport ${m.port}`;
    case 'addrtype':
      return `-m addrtype --${m.dir}-type ${m.type}`;
    case 'mark':
      return `-m mark ${m.not ? '! ' : ''}--mark ${mark(m.value)}/${mark(m.mask)}`;
    case 'ctstate':
      return `-m conntrack ${m.not ? '! ' : ''}--ctstate ${m.states.join(',')}`;
    case 'statistic':
      return `-m statistic --mode random --probability ${formatWrittenProbability(m.probability)}`;
    case 'recent':
      return m.mode === 'rcheck'
        ? `-m recent --name ${m.name} --rcheck --seconds ${m.seconds ?? 0} --reap`
        : `-m recent --name ${m.name} --set`;
    case 'nfacct':
      return `-m nfacct --nfacct-name ${m.name}`;
  }
}

function restoreTarget(t: Target, mark: (v: number) => string): string {
  switch (t.kind) {
    case 'jump':
      return `-j ${t.chain}`;
    case 'DNAT':
      return `-j DNAT --to-destination ${t.to}`;
    case 'MARK':
      return `-j MARK --${t.op}-mark ${mark(t.value)}`;
    case 'MASQUERADE':
      return `-j MASQUERADE${t.randomFully ? ' --random-fully' : ''}`;
    case 'REJECT':
    case 'RETURN':
    case 'ACCEPT':
    case 'DROP':
      return `-j ${t.kind}`;
    case 'none':
      return '';
  }
}

/**
 * Prints a rule exactly as kube-proxy writes it into its `iptables-restore` input
 * (`syncProxyRules`, proxier.go): the matches in the order given, `-m tcp -p tcp` for the
 * protocol, addresses as given (no `/32`), comments quoted as kube-proxy quotes them,
 * probabilities as `%0.10f`, `--or-mark`/`--xor-mark`, a bare `-j REJECT`.
 * @param mark how the masquerade mark is written; kube-proxy's `%#08x` by default
 */
export function restoreText(
  chain: string,
  matches: Match[],
  target: Target,
  mark: (v: number) => string = formatKubeProxyMark,
): string {
  const parts = [`-A ${chain}`];
  for (const m of matches) parts.push(restoreMatch(m, mark));
  const tt = restoreTarget(target, mark);
  if (tt) parts.push(tt);
  return parts.join(' ');
}

/** A rule to write: its matches and target (the writer adds the id and both texts). */
export interface RuleSpec {
  matches: Match[];
  target: Target;
}

function makeRule(
  table: Table,
  chain: string,
  index: number,
  matches: Match[],
  target: Target,
  mark: (v: number) => string,
): Rule {
  return {
    id: `${table}/${chain}/${index}`,
    table,
    chain,
    index,
    matches,
    target,
    text: ruleText(chain, matches, target),
    restore: restoreText(chain, matches, target, mark),
  };
}

/** Whether a rule's text depends on how the writer prints the masquerade mark. */
function usesMark(r: Rule): boolean {
  return r.target.kind === 'MARK' || r.matches.some((m) => m.kind === 'mark');
}

/**
 * Runs of rules written by {@link RuleWriter.addRun}: by key, then by table, chain and first
 * index. A run's rules are the same objects on every node and in every later run with that key
 * (a 10,000-endpoint Service's KUBE-SVC- cascade is written once, not once per node and per
 * toggle). Bounded: at most {@link RUN_LIMIT} keys before it starts afresh.
 */
const runStore = new Map<string, Map<string, Rule[]>>();
const RUN_LIMIT = 1_000;

/**
 * Chains made by {@link sharedChain}, by table, name and key; bounded like {@link runStore}
 * (about one entry per endpoint of the clusters seen lately).
 */
const chainStore = new Map<string, Chain>();
const CHAIN_LIMIT = 40_000;

/** The printed lines of shared chains (their `:NAME` line and their rules), made once. */
const sharedLines = new WeakMap<Chain, { header: RuleLine; rules: RuleLine[] }>();
const shared = new WeakSet<Chain>();

/**
 * A user chain whose rules depend only on `key` (not on the node, nor on how the writer prints
 * the masquerade mark), built from `specs()` once and then the very same object on every node
 * and in every later run: a KUBE-SEP- chain. Add it to a rule set with {@link RuleWriter.adopt};
 * nothing may add rules to it afterwards.
 * @param key must determine `specs()` completely (the caller's promise)
 * @throws {Error} when a rule of the chain prints the masquerade mark (a bug in the caller)
 */
export function sharedChain(
  table: Table,
  name: string,
  key: string,
  specs: () => RuleSpec[],
): Chain {
  const full = `${table}\u0000${name}\u0000${key}`;
  const hit = chainStore.get(full);
  if (hit) return hit;
  const c: Chain = { table, name, builtin: false, restored: true, rules: [] };
  specs().forEach((spec, i) =>
    c.rules.push(makeRule(table, name, i, spec.matches, spec.target, formatKubeProxyMark)),
  );
  if (c.rules.some(usesMark)) throw new Error(`shared chain ${name} prints the masquerade mark`);
  if (chainStore.size >= CHAIN_LIMIT) chainStore.clear();
  chainStore.set(full, c);
  shared.add(c);
  return c;
}

/** Orders chains by name as iptables-save does (plain string order). */
export function byChainName(a: Chain, b: Chain): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Merges two lists sorted by name into one sorted list (`a` first on equal names). */
function mergeByName(a: readonly Chain[], b: readonly Chain[]): Chain[] {
  if (b.length === 0) return a as Chain[];
  const out: Chain[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length)
    out.push(byChainName(b[j] as Chain, a[i] as Chain) < 0 ? (b[j++] as Chain) : (a[i++] as Chain));
  while (i < a.length) out.push(a[i++] as Chain);
  while (j < b.length) out.push(b[j++] as Chain);
  return out;
}

// Each table's chains by name, for the walker: the writer's own map when the rule set came from
// finishRuleset, else built on first use. A table's chain list is not changed after the
// generator finished it.
const chainIndexes = new WeakMap<readonly Chain[], Map<string, Chain>>();

/** `table`'s chains of `rs` by name (the first of a name), built on first use and kept. */
export function chainIndex(rs: IptablesRuleset, table: Table): Map<string, Chain> {
  const chains = rs.tables[table];
  let index = chainIndexes.get(chains);
  if (!index) {
    index = new Map();
    for (const c of chains) if (!index.has(c.name)) index.set(c.name, c);
    chainIndexes.set(chains, index);
  }
  return index;
}

/** Collects the rules of one rule set; `add` assigns ids and both texts. */
export class RuleWriter {
  readonly tables: Record<Table, Map<string, Chain>> = { filter: new Map(), nat: new Map() };

  /** @param mark how the masquerade mark is written in {@link Rule.restore} */
  constructor(private readonly mark: (v: number) => string = formatKubeProxyMark) {}

  /** Declares a chain (idempotent); user chains are part of the restore payload by default. */
  chain(table: Table, name: string, builtin = false): Chain {
    const existing = this.tables[table].get(name);
    if (existing) return existing;
    const c: Chain = { table, name, builtin, restored: !builtin, rules: [] };
    this.tables[table].set(name, c);
    return c;
  }

  private last: Chain | undefined;

  private chainFor(table: Table, chain: string): Chain {
    // Rules mostly come in runs on one chain: skip the lookup for the same chain again.
    const last = this.last;
    if (last !== undefined && last.name === chain && last.table === table) return last;
    return (this.last = this.chain(table, chain));
  }

  /** Appends a rule to `table`/`chain`, declaring the chain if needed. */
  add(table: Table, chain: string, matches: Match[], target: Target): Rule {
    const c = this.chainFor(table, chain);
    const rule = makeRule(table, chain, c.rules.length, matches, target, this.mark);
    c.rules.push(rule);
    return rule;
  }

  /**
   * Appends the rules `specs()` gives to `table`/`chain`, exactly as {@link add} would one by
   * one, reusing the very same rule objects whenever a run with the same `key` was written at
   * the same place before (on another node, or in an earlier run of the model).
   * @param key must determine `specs()` completely (the caller's promise): the same key, table,
   *   chain and starting index always give the same rules. Runs whose rules print the
   *   masquerade mark are never reused (the mark's spelling is the writer's).
   */
  addRun(table: Table, chain: string, key: string, specs: () => RuleSpec[]): void {
    const c = this.chainFor(table, chain);
    const start = c.rules.length;
    const place = `${table}\u0000${chain}\u0000${start}`;
    let rules = runStore.get(key)?.get(place);
    if (!rules) {
      rules = specs().map((s, i) =>
        makeRule(table, chain, start + i, s.matches, s.target, this.mark),
      );
      if (!rules.some(usesMark)) {
        let byPlace = runStore.get(key);
        if (!byPlace) {
          if (runStore.size >= RUN_LIMIT) runStore.clear();
          runStore.set(key, (byPlace = new Map()));
        }
        byPlace.set(place, rules);
      }
    }
    for (const r of rules) c.rules.push(r);
  }

  /**
   * Adds a {@link sharedChain} to this rule set as it is; when a chain of that name exists
   * already, its rules are appended to that one instead (as {@link add} would).
   */
  adopt(chain: Chain): void {
    const tables = this.tables[chain.table];
    if (!tables.has(chain.name)) {
      tables.set(chain.name, chain);
      return;
    }
    for (const r of chain.rules) this.add(chain.table, chain.name, r.matches, r.target);
  }

  private readonly runsByName: Record<Table, Chain[][]> = { filter: [], nat: [] };
  private readonly inRun = new Set<Chain>();

  /**
   * {@link adopt} for many shared chains of `table` at once, given sorted by name: the rule
   * set's chain order ({@link userChains}) merges them in instead of sorting them again.
   */
  adoptSorted(table: Table, chains: readonly Chain[]): void {
    const run: Chain[] = [];
    const byName = this.tables[table];
    for (const c of chains) {
      if (c.table !== table || byName.has(c.name)) {
        this.adopt(c);
        continue;
      }
      byName.set(c.name, c);
      run.push(c);
      this.inRun.add(c);
    }
    this.runsByName[table].push(run);
  }

  /** The user chains of `table` sorted by name, as iptables-save lists them. */
  userChains(table: Table): Chain[] {
    let out = [...this.tables[table].values()]
      .filter((c) => !c.builtin && !this.inRun.has(c))
      .sort(byChainName);
    for (const run of this.runsByName[table]) out = mergeByName(out, run);
    return out;
  }
}

/** Built-in chains per table, in the order iptables-save lists them. */
export const BUILTIN_CHAINS: Record<Table, string[]> = {
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

/** The lines of one table as `iptables-save -t <table>` prints them, rules tagged with their id. */
function tableLines(chains: Chain[], table: Table): RuleLine[] {
  const lines: RuleLine[] = [{ text: `*${table}` }];
  // A shared chain's lines are made once (every node prints the same ones).
  const printed = chains.map((c) => {
    const cached = sharedLines.get(c);
    if (cached) return cached;
    const chain = `${table}/${c.name}`;
    const out = {
      header: { text: c.builtin ? `:${c.name} ACCEPT [0:0]` : `:${c.name} - [0:0]`, chain },
      rules: c.rules.map((r): RuleLine => ({ text: r.text, ruleId: r.id, chain })),
    };
    if (shared.has(c)) sharedLines.set(c, out);
    return out;
  });
  for (const p of printed) lines.push(p.header);
  for (const p of printed) for (const l of p.rules) lines.push(l);
  lines.push({ text: 'COMMIT' });
  return lines;
}

/**
 * Prints a table as `iptables-save -t <table>` does: built-in chains with their policy,
 * user chains sorted by name, then each chain's rules in that order, then COMMIT.
 */
export function formatTable(ruleset: IptablesRuleset, table: Table): string {
  return tableLines(ruleset.tables[table], table)
    .map((l) => l.text)
    .join('\n');
}

/** Both tables, filter first as kube-proxy restores them. */
export function formatRuleset(ruleset: IptablesRuleset): string {
  return `${formatTable(ruleset, 'filter')}\n${formatTable(ruleset, 'nat')}\n`;
}

export { formatRestore } from './restore';

/** Sorts a writer's chains into iptables-save order and freezes them into a rule set. */
export function finishRuleset(
  w: RuleWriter,
  nodeName: string,
  masqueradeMark: number,
): IptablesRuleset {
  const order = (table: Table): Chain[] => {
    const byName = w.tables[table];
    const builtins = BUILTIN_CHAINS[table]
      .map((n) => byName.get(n))
      .filter((c): c is Chain => c !== undefined);
    const ordered = [...builtins, ...w.userChains(table)];
    // The writer's own by-name map is the walker's index of this table (see chainIndex).
    if (byName.size === ordered.length) chainIndexes.set(ordered, byName);
    return ordered;
  };
  const filter = order('filter');
  const nat = order('nat');
  return {
    mode: 'iptables',
    nodeName,
    lines: tableLines(filter, 'filter').concat(tableLines(nat, 'nat')),
    tables: { filter, nat },
    masqueradeMark,
  };
}
