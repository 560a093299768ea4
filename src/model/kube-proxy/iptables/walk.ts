/**
 * Evaluates iptables rules against one packet, as netfilter does: a built-in chain's rules
 * in order; `-j CHAIN` descends, RETURN or the end of a user chain comes back, ACCEPT /
 * DROP / REJECT / DNAT / MASQUERADE end the table's traversal, MARK changes the packet's
 * mark and goes on, a rule with no target only counts. The walk reads the same rule objects
 * the rules view prints, so the two cannot disagree.
 *
 * `statistic --mode random` rules are decided once per chain by a {@link StatisticChooser}:
 * it gets every option with the probability the cascade of rules gives it, and picks one
 * (seeded or pinned); the walk then matches exactly the chosen rule.
 */
import { cidrContains } from '../../net/ip';
import type { IPv4, Protocol } from '../../net/ip';
import type { Chain, IptablesRuleset, Match, Rule, Table } from './rule';
import { chainIndex, effectiveProbability } from './rule';

/** The header fields the rules look at and change. */
export interface WalkPacket {
  protocol: Protocol;
  src: IPv4;
  sport: number;
  dst: IPv4;
  dport: number;
  mark: number;
}

/** One option of a `statistic` cascade. */
export interface StatisticOption {
  rule: Rule;
  /** The chain the rule jumps to (a KUBE-SEP-… chain). */
  target: string;
  /** Probability that a new connection takes this rule, in [0, 1]. */
  probability: number;
}

/** Picks one option; returns its index. */
export type StatisticChooser = (chain: string, options: StatisticOption[]) => number;

/** A matched rule and the packet right after it acted. */
export interface Hit {
  rule: Rule;
  packet: WalkPacket;
}

/** What one table traversal decided. */
export interface TableResult {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT' | 'DNAT' | 'MASQUERADE';
  packet: WalkPacket;
  hits: Hit[];
  /** The rule that ended the traversal, if a rule did (not the built-in policy). */
  decisive?: Rule;
  /** Statistic choices made, per chain. */
  choices: { chain: string; options: StatisticOption[]; chosen: number }[];
}

/** What the walk needs to know about the node. */
export interface WalkEnv {
  /** True when `ip` is a local address of the node (`addrtype LOCAL`). */
  isLocal: (ip: IPv4) => boolean;
  /** Connection-tracking states of the packet, e.g. `NEW`, plus `DNAT` once it was DNATed. */
  ctstates: ReadonlySet<string>;
  choose: StatisticChooser;
}

export { chainIndex };

/** The chain `name` of `table` in `rs`, found through a by-name index (O(1) after the first call). */
export function findChain(rs: IptablesRuleset, table: Table, name: string): Chain | undefined {
  const chains = rs.tables[table];
  const index = chainIndex(rs, table);
  const hit = index.get(name);
  if (hit) return hit;
  const late = chains.find((c) => c.name === name);
  if (late) index.set(name, late);
  return late;
}

/**
 * What the walk needs of a chain besides its rules, worked out once per chain object: its
 * cascade's options, and the indices of the rules that can match whatever was chosen (every
 * rule but those with a `statistic` match; one of those matches only when it is the chosen
 * option). Chains are not changed after the writer makes them; `length` guards that.
 */
interface ChainFacts {
  length: number;
  options: StatisticOption[];
  /** Rule indices without a `statistic` match, in order; null: every rule (no such match). */
  plain: number[] | null;
  /** Each option's rule index in `chain.rules`. */
  optionIndex: number[];
}

const factsByChain = new WeakMap<Chain, ChainFacts>();

function chainFacts(chain: Chain): ChainFacts {
  const hit = factsByChain.get(chain);
  if (hit && hit.length === chain.rules.length) return hit;
  const options = statisticOptions(chain);
  const position = new Map(chain.rules.map((r, i) => [r, i]));
  const plain: number[] = [];
  chain.rules.forEach((r, i) => {
    if (!r.matches.some((m) => m.kind === 'statistic')) plain.push(i);
  });
  const facts: ChainFacts = {
    length: chain.rules.length,
    options,
    plain: plain.length === chain.rules.length ? null : plain,
    optionIndex: options.map((o) => position.get(o.rule) ?? -1),
  };
  factsByChain.set(chain, facts);
  return facts;
}

/**
 * The rules of `chain` a packet can match once option `chosen` of its cascade was taken, in
 * chain order: a load-balancing chain of 10,000 endpoints walks its few plain rules and the one
 * chosen, not 10,000 rules (what makes exploring every option, as `flowVerdict` does, linear).
 */
function* walkable(chain: Chain, facts: ChainFacts, chosen: number): Generator<Rule> {
  if (facts.plain === null) {
    yield* chain.rules;
    return;
  }
  const pick = facts.optionIndex[chosen] ?? -1;
  // The chosen rule has a statistic match unless it is the cascade's last rule (then it is plain).
  let pending = pick >= 0 && !facts.plain.includes(pick) ? pick : -1;
  for (const i of facts.plain) {
    if (pending >= 0 && pending < i) {
      yield chain.rules[pending] as Rule;
      pending = -1;
    }
    yield chain.rules[i] as Rule;
  }
  if (pending >= 0) yield chain.rules[pending] as Rule;
}

/** The options of a chain's `statistic` cascade, with the probability each rule really gets. */
export function statisticOptions(chain: Chain): StatisticOption[] {
  const out: StatisticOption[] = [];
  let remaining = 1;
  for (const rule of chain.rules) {
    // The load-balancing rules are the jumps to endpoint chains; affinity (`recent`) rules
    // come first and only match a remembered client.
    if (rule.target.kind !== 'jump' || !rule.target.chain.startsWith('KUBE-SEP-')) continue;
    if (rule.matches.some((m) => m.kind === 'recent')) continue;
    const stat = rule.matches.find((m) => m.kind === 'statistic');
    if (stat && stat.kind === 'statistic') {
      const p = effectiveProbability(stat.probability);
      out.push({ rule, target: rule.target.chain, probability: remaining * p });
      remaining *= 1 - p;
    } else {
      // The last rule of the cascade (or the only one) takes whatever is left.
      out.push({ rule, target: rule.target.chain, probability: remaining });
      break;
    }
  }
  return out;
}

function matches(
  m: Match,
  p: WalkPacket,
  env: WalkEnv,
  chosenRuleId: string | undefined,
  rule: Rule,
): boolean {
  switch (m.kind) {
    case 'src':
      return cidrContains(m.cidr, p.src) !== m.not;
    case 'dst':
      return cidrContains(m.cidr, p.dst) !== m.not;
    case 'proto':
      return p.protocol === m.proto;
    case 'comment':
    case 'nfacct':
      return true;
    case 'dport':
      return p.dport === m.port;
    case 'addrtype':
      return env.isLocal(m.dir === 'src' ? p.src : p.dst);
    case 'mark':
      return ((p.mark & m.mask) === m.value) !== m.not;
    case 'ctstate':
      return m.states.some((s) => env.ctstates.has(s)) !== m.not;
    case 'statistic':
      return chosenRuleId === rule.id;
    case 'recent':
      // No earlier connection from this client is remembered: --rcheck misses, --set matches.
      return m.mode === 'set';
  }
}

/** Whether every match of `rule` holds (a plain loop: this runs once per rule walked). */
function allMatch(
  rule: Rule,
  p: WalkPacket,
  env: WalkEnv,
  chosenRuleId: string | undefined,
): boolean {
  for (const m of rule.matches) if (!matches(m, p, env, chosenRuleId, rule)) return false;
  return true;
}

/**
 * Traverses `table` from the built-in chain `hook` for one packet.
 * @throws {Error} when the hook chain does not exist or a jump target is missing (a bug in
 *   the generator), or when jumps nest deeper than 32 (a loop).
 */
export function walkTable(
  rs: IptablesRuleset,
  table: Table,
  hook: string,
  packet: WalkPacket,
  env: WalkEnv,
): TableResult {
  const result: TableResult = { verdict: 'ACCEPT', packet: { ...packet }, hits: [], choices: [] };
  const start = findChain(rs, table, hook);
  if (!start) throw new Error(`no chain ${table}/${hook}`);

  // Returns a terminal verdict, or undefined to continue in the caller.
  const run = (chain: Chain, depth: number): TableResult['verdict'] | undefined => {
    if (depth > 32) throw new Error(`iptables jump depth exceeded at ${chain.name}`);
    let chosenRuleId: string | undefined;
    // A load-balancing chain (even one with a single endpoint, which has no statistic
    // match) is a choice: record it, and let the chooser decide the cascade.
    const facts = chainFacts(chain);
    const { options } = facts;
    let idx = -1;
    if (options.length > 0) {
      idx = env.choose(chain.name, options);
      chosenRuleId = options[idx]?.rule.id;
      result.choices.push({ chain: chain.name, options, chosen: idx });
    }
    // Unchosen statistic rules never match (see `matches`): skipped, not tested.
    for (const rule of walkable(chain, facts, idx)) {
      if (!allMatch(rule, result.packet, env, chosenRuleId)) continue;
      const t = rule.target;
      switch (t.kind) {
        case 'none':
          result.hits.push({ rule, packet: { ...result.packet } });
          continue;
        case 'MARK':
          result.packet.mark =
            t.op === 'or' ? result.packet.mark | t.value : result.packet.mark ^ t.value;
          result.hits.push({ rule, packet: { ...result.packet } });
          continue;
        case 'RETURN':
          result.hits.push({ rule, packet: { ...result.packet } });
          return undefined;
        case 'jump': {
          result.hits.push({ rule, packet: { ...result.packet } });
          const next = findChain(rs, table, t.chain);
          if (!next) throw new Error(`no chain ${table}/${t.chain}`);
          const v = run(next, depth + 1);
          if (v) return v;
          continue;
        }
        case 'DNAT': {
          const i = t.to.lastIndexOf(':');
          result.packet.dst = t.to.slice(0, i);
          result.packet.dport = Number(t.to.slice(i + 1));
          result.hits.push({ rule, packet: { ...result.packet } });
          result.decisive = rule;
          return 'DNAT';
        }
        case 'MASQUERADE':
        case 'ACCEPT':
        case 'DROP':
        case 'REJECT':
          result.hits.push({ rule, packet: { ...result.packet } });
          result.decisive = rule;
          return t.kind;
      }
    }
    return undefined;
  };
  result.verdict = run(start, 0) ?? 'ACCEPT';
  return result;
}
