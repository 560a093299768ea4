/**
 * kube-proxy's `iptables-restore` payload for a full sync, as `syncProxyRules`
 * (kubernetes `pkg/proxy/iptables/proxier.go`) writes it into `proxier.iptablesData`.
 */
import type { Chain, IptablesRuleset, Table } from './rule';

/** The top-level chains in the order `syncProxyRules` writes their chain lines. */
const RESTORE_CHAIN_ORDER: Record<Table, string[]> = {
  filter: [
    'KUBE-SERVICES',
    'KUBE-EXTERNAL-SERVICES',
    'KUBE-FORWARD',
    'KUBE-NODEPORTS',
    'KUBE-PROXY-FIREWALL',
    'KUBE-FIREWALL',
  ],
  nat: ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'],
};

function restoreTableLines(chains: Chain[], table: Table): string[] {
  const mine = chains.filter((c) => c.restored);
  const fixed = RESTORE_CHAIN_ORDER[table].flatMap((n) => mine.filter((c) => c.name === n));
  const ordered = [...fixed, ...mine.filter((c) => !fixed.includes(c))];
  return [
    `*${table}`,
    ...ordered.map((c) => `:${c.name} - [0:0]`),
    ...ordered.flatMap((c) => c.rules.map((r) => r.restore)),
    'COMMIT',
  ];
}

/**
 * kube-proxy's `iptables-restore` input for a full sync: `*filter … COMMIT` then
 * `*nat … COMMIT`, with a `:NAME - [0:0]` line for each of kube-proxy's chains (no built-in
 * chains, and no jump rules into them: kube-proxy installs those with EnsureRule, outside the
 * payload). The top-level chains come first in kube-proxy's order, then the per-service
 * chains by name; each chain's rules are in order. (kube-proxy interleaves the rules of
 * different chains, per Service in Go map order; iptables-restore only keeps each chain's
 * own order, and kube-proxy's tests sort that interleaving away too.)
 */
export function formatRestore(ruleset: IptablesRuleset): string {
  const lines = [
    ...restoreTableLines(ruleset.tables.filter, 'filter'),
    ...restoreTableLines(ruleset.tables.nat, 'nat'),
  ];
  return `${lines.join('\n')}\n`;
}
