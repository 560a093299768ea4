/**
 * The `ip kube-proxy` table as `nft list table ip kube-proxy` prints it.
 *
 * kube-proxy writes its rules as `nft -f` input (`add rule ip kube-proxy services ip daddr .
 * meta l4proto . th dport vmap @service-ips`, see proxier_test.go); `nft list` prints the
 * kernel's copy back in its own normal form. Everything below was checked against nft 1.0.6
 * (Debian 12) by loading kube-proxy's expected dump of TestOverallNFTablesRules
 * (kubernetes `pkg/proxy/nftables/proxier_test.go`) into a network namespace and listing it:
 * - blocks in kernel list order, which is creation order: sets and maps first, then chains
 *   (nft `table_print`), one blank line between blocks, one tab per nesting level;
 * - `mark set mark or 0x4000` prints as `meta mark set meta mark | 0x00004000`,
 *   `mark and 0x4000 == 0` as `meta mark & 0x00004000 == 0x00000000`;
 * - an anonymous set of one element loses its braces (`ip daddr { 172.30.0.0/16 }` →
 *   `ip daddr 172.30.0.0/16`); several are sorted by address, contained ranges merged;
 * - base-chain priorities print symbolically only within ±10 of a standard priority valid
 *   for the hook (`dstnat - 10` at prerouting, `srcnat`, but `-110` at forward, `-100` at
 *   output); `policy accept;` is always printed;
 * - set timeouts print as `3h`, `1d`, `1h1m1s`; a set that a rule `update`s is listed with
 *   `size 65535` (the affinity sets);
 * - elements are sorted (nft `list_expr_sort`): single addresses by value; concatenated
 *   keys by their bytes read as one little-endian number (so the port's low byte weighs
 *   most) — observed on x86-64, a little-endian host; IPv4 sets print two elements per line,
 *   maps one per line (continuation indent: three tabs and five spaces).
 */
import { ipToInt } from '../../net/ip';
import type { Protocol } from '../../net/ip';
import type { RuleLine } from '../types';
import type {
  NftBaseChain,
  NftChain,
  NftMap,
  NftMapElement,
  NftMatch,
  NftRuleset,
  NftSet,
  NftStatement,
} from './types';

const PROTO_NUMBER: Record<Protocol, number> = { tcp: 6, udp: 17, sctp: 132 };

function intToIP(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** A CIDR as nft prints it: the network address, no `/32`. */
function parseCIDR(cidr: string): { start: number; end: number; text: string } {
  const [base, bitsText] = cidr.trim().split('/');
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  const start = (ipToInt(base ?? '') & mask) >>> 0;
  const end = (start | (~mask >>> 0)) >>> 0;
  return { start, end, text: bits === 32 ? intToIP(start) : `${intToIP(start)}/${bits}` };
}

/** `x`, or `{ a, b }` for several (sorted, ranges inside an earlier one dropped). */
function addrList(cidrs: string[]): string {
  const parsed = cidrs.map(parseCIDR).sort((a, b) => a.start - b.start || b.end - a.end);
  if (parsed.length === 1) return parsed[0]?.text ?? '';
  const kept: typeof parsed = [];
  for (const p of parsed) {
    const last = kept[kept.length - 1];
    if (last && p.start >= last.start && p.end <= last.end) continue;
    kept.push(p);
  }
  return `{ ${kept.map((p) => p.text).join(', ')} }`;
}

/** `0x%08x`, as nft prints marks. */
function hex8(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

function matchText(m: NftMatch): string {
  switch (m.kind) {
    case 'ctStateNew':
      return 'ct state new';
    case 'addr':
      return `ip ${m.dir} ${m.not ? '!= ' : ''}${addrList(m.cidrs)}`;
    case 'addrInSet':
      return `ip ${m.dir} @${m.set}`;
    case 'dport':
      return `${m.proto} dport ${m.port}`;
    case 'l4proto':
      return `meta l4proto ${m.proto}`;
    case 'fibLocal':
      return `fib ${m.dir} type local`;
    case 'markClear':
      return `meta mark & ${hex8(m.mask)} == ${hex8(0)}`;
  }
}

function statementText(s: NftStatement): string {
  switch (s.kind) {
    case 'jump':
    case 'goto':
      return `${s.kind} ${s.chain}`;
    case 'vmap':
      return `${s.key === 'daddr.l4proto.dport' ? 'ip daddr . ' : ''}meta l4proto . th dport vmap @${s.map}`;
    case 'numgen':
      return `numgen random mod ${s.mod} vmap { ${s.targets.map((t) => `${t.index} : goto ${t.chain}`).join(', ')} }`;
    case 'dnat':
      return `dnat to ${s.to}`;
    case 'mark':
      return `meta mark set meta mark ${s.op === 'or' ? '|' : '^'} ${hex8(s.value)}`;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'updateSet':
      return `update @${s.set} { ip saddr }`;
    case 'return':
    case 'drop':
    case 'reject':
      return s.kind;
  }
}

/** One rule as `nft list` prints it (without its indentation). */
export function ruleText(
  matches: readonly NftMatch[],
  statement: NftStatement,
  comment?: string,
): string {
  const parts = [...matches.map(matchText), statementText(statement)];
  if (comment !== undefined) parts.push(`comment "${comment}"`);
  return parts.join(' ');
}

/** nft's standard priorities (`std_prios`) and the hooks each may be named at. */
const STD_PRIOS: { name: string; value: number; hooks?: string[] }[] = [
  { name: 'raw', value: -300 },
  { name: 'mangle', value: -150 },
  { name: 'dstnat', value: -100, hooks: ['prerouting'] },
  { name: 'filter', value: 0 },
  { name: 'security', value: 50 },
  { name: 'srcnat', value: 100, hooks: ['postrouting'] },
];

/** A base chain's priority as nft prints it (`prio2str`). */
export function priorityText(base: NftBaseChain): string {
  for (const p of STD_PRIOS) {
    const offset = base.priority - p.value;
    if (Math.abs(offset) > 10 || (p.hooks && !p.hooks.includes(base.hook))) continue;
    return offset === 0 ? p.name : `${p.name} ${offset > 0 ? '+' : '-'} ${Math.abs(offset)}`;
  }
  return String(base.priority);
}

/** A duration as nft prints it (`time_print`): `3h`, `1d`, `1h1m1s`. */
export function durationText(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'd'],
    [3600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  let rest = seconds;
  let out = '';
  for (const [size, unit] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) out += `${n}${unit}`;
  }
  return out;
}

/** The key bytes nft's mergesort compares, most significant first. */
function elementSortKey(e: NftMapElement): number[] {
  const bytes: number[] = [];
  if (e.ip !== undefined) {
    const n = ipToInt(e.ip);
    bytes.push(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  }
  bytes.push(PROTO_NUMBER[e.proto], e.port >> 8, e.port & 255);
  // Imported as one host-endian (little-endian) number: the last byte weighs most.
  return bytes.reverse();
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function elementText(e: NftMapElement): string {
  const key = `${e.ip !== undefined ? `${e.ip} . ` : ''}${e.proto} . ${e.port}`;
  const comment = e.comment !== undefined ? ` comment "${e.comment}"` : '';
  const verdict = e.verdict.kind === 'goto' ? `goto ${e.verdict.chain}` : 'drop';
  return `${key}${comment} : ${verdict}`;
}

/** The `elements = { … }` lines (`set_expr_print` line breaking). */
function elementLines(items: string[], perLine: number): string[] {
  const lines: string[] = [];
  let current = '\t\telements = { ';
  items.forEach((item, i) => {
    current += item;
    if (i === items.length - 1) lines.push(`${current} }`);
    else if ((i + 1) % perLine === 0) {
      lines.push(`${current},`);
      current = '\t\t\t     ';
    } else current += ', ';
  });
  return lines;
}

function setLines(s: NftSet | NftMap): string[] {
  const out = [`\t${s.kind} ${s.name} {`];
  if (s.kind === 'set') {
    out.push('\t\ttype ipv4_addr');
    if (s.timeoutSeconds !== undefined)
      out.push(
        '\t\tsize 65535',
        '\t\tflags dynamic,timeout',
        `\t\ttimeout ${durationText(s.timeoutSeconds)}`,
      );
  } else {
    const key =
      s.key === 'daddr.l4proto.dport'
        ? 'ipv4_addr . inet_proto . inet_service'
        : 'inet_proto . inet_service';
    out.push(`\t\ttype ${key} : verdict`);
  }
  if (s.comment !== undefined) out.push(`\t\tcomment "${s.comment}"`);
  if (s.elements.length > 0) {
    const items =
      s.kind === 'set'
        ? [...s.elements].sort((a, b) => ipToInt(a) - ipToInt(b))
        : [...s.elements]
            .sort((a, b) => compareKeys(elementSortKey(a), elementSortKey(b)))
            .map(elementText);
    out.push(...elementLines(items, s.kind === 'set' ? 2 : 1));
  }
  out.push('\t}');
  return out;
}

function chainLines(c: NftChain): RuleLine[] {
  const out: RuleLine[] = [{ text: `\tchain ${c.name} {`, chain: c.name }];
  if (c.base)
    out.push({
      text: `\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityText(c.base)}; policy accept;`,
      chain: c.name,
    });
  if (c.comment !== undefined) out.push({ text: `\t\tcomment "${c.comment}"`, chain: c.name });
  for (const r of c.rules) out.push({ text: `\t\t${r.text}`, ruleId: r.id, chain: c.name });
  out.push({ text: '\t}', chain: c.name });
  return out;
}

/**
 * Every line of `nft list table ip kube-proxy`; rule lines carry their rule's id and chain,
 * set and map lines carry `set NAME` / `map NAME` as their section.
 */
export function tableLines(rs: Pick<NftRuleset, 'tableComment' | 'sets' | 'chains'>): RuleLine[] {
  const blocks: RuleLine[][] = [
    ...rs.sets.map((s) => setLines(s).map((text) => ({ text, chain: `${s.kind} ${s.name}` }))),
    ...rs.chains.map(chainLines),
  ];
  const lines: RuleLine[] = [
    { text: 'table ip kube-proxy {' },
    { text: `\tcomment "${rs.tableComment}"` },
  ];
  blocks.forEach((b, i) => {
    if (i > 0) lines.push({ text: '' });
    lines.push(...b);
  });
  lines.push({ text: '}' });
  return lines;
}

/** The whole listing, newline-terminated, exactly as `nft list table ip kube-proxy` prints it. */
export function formatNftables(rs: Pick<NftRuleset, 'lines'>): string {
  return `${rs.lines.map((l) => l.text).join('\n')}\n`;
}
