/**
 * The builder of iptables rule sets ({@link RuleWriter}): every rule gets its id and both
 * texts from one place, and rules and chains that are the same on every node (a Service's
 * KUBE-SVC- cascade, its KUBE-SEP- chains) are made once and shared.
 */
import type { Chain, Match, Rule, RuleSpec, Table, Target } from './rule';
import { formatKubeProxyMark, restoreText, ruleText } from './ruleText';

/** A rule with its id (`<table>/<chain>/<index>`) and both texts. */
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

/** The chains {@link sharedChain} made. */
const shared = new WeakSet<Chain>();

/** Whether `c` was made by {@link sharedChain} (the same object on every node). */
export function isSharedChain(c: Chain): boolean {
  return shared.has(c);
}

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
