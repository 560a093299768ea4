/**
 * A finished iptables rule set: the writer's chains in `iptables-save` order
 * ({@link finishRuleset}), their listing as `iptables-save` prints it ({@link formatTable},
 * {@link formatRuleset}), and the walker's index of chains by name ({@link chainIndex}).
 */
import type { RuleLine } from '../types';
import type { Chain, IptablesRuleset, Table } from './rule';
import type { RuleWriter } from './writer';
import { isSharedChain } from './writer';

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

/** The printed lines of shared chains (their `:NAME` line and their rules), made once. */
const sharedLines = new WeakMap<Chain, { header: RuleLine; rules: RuleLine[] }>();

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
    if (isSharedChain(c)) sharedLines.set(c, out);
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
