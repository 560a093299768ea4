/**
 * The languages the tutorial's code blocks are highlighted in (content/AUTHORING.md, Markdown):
 * `yaml`, `bash` (also `console`, `shell`, `sh`, `zsh`) and `json` from highlight.js, and three
 * small highlight.js grammars of our own for what kube-proxy leaves on a node: `iptables`
 * (`iptables-save` output), `nft` (`nft list table` output) and `ipvsadm` (`ipvsadm -Ln`
 * output).
 *
 * Pass {@link highlightLanguages} as rehype-highlight's `languages` option (which hands it to
 * lowlight, i.e. highlight.js). The grammars are data — regular expressions naming token
 * scopes — not parsers; they colour the text and never judge it. Token colours live in
 * highlight.css.
 *
 * Scopes used (highlight.js emits them as `hljs-<scope>` classes):
 * - `keyword`: table commands and verdicts (`-A`, `COMMIT`, `-j ACCEPT`, `chain`, `dnat`,
 *   `jump`), ipvsadm protocols (`TCP`);
 * - `title`: chain, set, map and ipset names (`KUBE-SVC-…`, `service-…-default/web/tcp/http`);
 * - `section`: an iptables table (`*nat`);
 * - `attr`: options (`-m`, `--dport`, `-j`), ipset header fields;
 * - `built_in`: match modules and protocols after `-m`/`-p`, nft expressions (`ip daddr`),
 *   ipvs schedulers (`rr`);
 * - `type`: nft families, hooks, priorities and element types; ipvs forwarding methods;
 * - `string`, `number` (addresses, CIDRs, ports, marks, counters), `comment`, `meta`
 *   (ipvsadm headers), `variable` (nft `@set` references), `operator`, `literal`.
 */
import type { HLJSApi, Language, LanguageFn, Mode } from 'highlight.js';
import bash from 'highlight.js/lib/languages/bash';
import json from 'highlight.js/lib/languages/json';
import yaml from 'highlight.js/lib/languages/yaml';

/** An IPv4 address with an optional `/prefix` and `:port` or `:port-port`. */
const IPV4 = /(?<![\w.:-])\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?(?::\d{1,5}(?:-\d{1,5})?)?(?![\w.])/;
/** An IPv6 address (at least two colons, hex groups) with an optional `/prefix`. */
const IPV6 =
  /(?<![\w:.-])(?=[0-9a-fA-F]*:[0-9a-fA-F]*:)[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}(?:\/\d{1,3})?(?![\w:])/;
/** `0x4000`, or a value/mask pair `0x4000/0x4000`. */
const HEX = /(?<![\w.])0x[0-9a-fA-F]+(?:\/0x[0-9a-fA-F]+)?(?![\w.])/;
/** An integer or decimal (`1`, `-110`, `0.5000000000`), not part of a name. */
const DECIMAL = /(?<![\w.:/-])-?\d+(?:\.\d+)?(?![\w.:/-])/;

/** Addresses and numbers, most specific first. */
const NUMBERS: Mode[] = [
  { scope: 'number', match: IPV4 },
  { scope: 'number', match: IPV6 },
  { scope: 'number', match: HEX },
  { scope: 'number', match: DECIMAL },
];

/** iptables' own targets (iptables-extensions(8), "TARGET EXTENSIONS", and the built-in ones). */
const IPTABLES_TARGETS =
  /(?:ACCEPT|DROP|RETURN|QUEUE|REJECT|DNAT|SNAT|MASQUERADE|REDIRECT|MARK|CONNMARK|LOG|NFLOG|NFQUEUE|NOTRACK|CT|TPROXY|TRACE)(?![\w-])/;

/**
 * `iptables-save` output, as kube-proxy's iptables mode leaves it: `*nat` tables,
 * `:KUBE-SERVICES - [0:0]` chain declarations, `-A CHAIN …` rules, `COMMIT`, `#` comments.
 * Format: iptables-save(8) / iptables-restore(8).
 */
export const iptables: LanguageFn = (hljs: HLJSApi): Language => ({
  name: 'iptables-save',
  aliases: ['iptables-save', 'ip6tables'],
  disableAutodetect: true,
  contains: [
    hljs.COMMENT(/^#/, /$/),
    { scope: 'section', match: /^\*\S+/ },
    // :CHAIN POLICY [packets:bytes] — the policy is "-" for chains that are not built in.
    { match: [/^:/, /\S+/], scope: { 1: 'punctuation', 2: 'title' } },
    { scope: 'keyword', match: /(?<=^:\S+\s)(?:ACCEPT|DROP|QUEUE|RETURN)(?=\s)/ },
    { scope: 'number', match: /\[\d+:\d+\]/ },
    { scope: 'keyword', match: /^COMMIT\b/ },
    // -A CHAIN (append), and the other commands iptables-restore accepts.
    {
      match: [
        /^(?:-[AIDRNXFPZ]|--(?:append|insert|delete|replace|new-chain|policy))/,
        /\s+/,
        /\S+/,
      ],
      scope: { 1: 'keyword', 3: 'title' },
    },
    // -j TARGET: iptables' own targets are keywords, anything else is a chain.
    {
      match: [/(?<=\s)(?:-j|--jump|-g|--goto)/, /\s+/, IPTABLES_TARGETS],
      scope: { 1: 'attr', 3: 'keyword' },
    },
    {
      match: [/(?<=\s)(?:-j|--jump|-g|--goto)/, /\s+/, /\S+/],
      scope: { 1: 'attr', 3: 'title' },
    },
    // -m MODULE and -p PROTOCOL
    {
      match: [/(?<=\s)(?:-m|--match|-p|--protocol)/, /\s+/, /[\w-]+/],
      scope: { 1: 'attr', 3: 'built_in' },
    },
    { scope: 'operator', match: /(?<=\s)!(?=\s)/ },
    { scope: 'attr', match: /(?<=\s)--?[A-Za-z][\w-]*/ },
    hljs.QUOTE_STRING_MODE,
    ...NUMBERS,
  ],
});

/** A name in nft: chains, sets and maps (`endpoint-…-default/web/tcp/http__10.244.1.5/8080`). */
const NFT_NAME = /[\w./-]+/;
/** An nftables address family (nft(8), ADDRESS FAMILIES). */
const NFT_FAMILY = /(?:ip6?|inet|arp|bridge|netdev)(?![\w-])/;

/**
 * `nft list table` / `nft list ruleset` output, as kube-proxy's nftables mode leaves it
 * (and the `add chain ip kube-proxy …` transactions it feeds to `nft -f`):
 * `table ip kube-proxy { … }` with sets, maps (`elements = { … : goto … }`), base chains
 * (`type nat hook prerouting priority dstnat; policy accept;`) and rules with verdicts.
 * Words: nft(8) (https://www.netfilter.org/projects/nftables/manpage.html).
 */
export const nft: LanguageFn = (hljs: HLJSApi): Language => ({
  name: 'nftables',
  aliases: ['nftables'],
  disableAutodetect: true,
  keywords: {
    // A string, not a RegExp: highlight.js' types only allow strings here (it accepts both).
    $pattern: '[A-Za-z_][\\w-]*',
    keyword: [
      'table',
      'chain',
      'set',
      'map',
      'vmap',
      'flowtable',
      'elements',
      'type',
      'hook',
      'priority',
      'policy',
      'comment',
      'counter',
      'flags',
      'timeout',
      'size',
      'devices',
      'define',
      'include',
      // commands in `nft -f` input
      'add',
      'insert',
      'create',
      'delete',
      'destroy',
      'flush',
      'rule',
      'element',
      'to',
      // verdicts and verdict-like statements
      'accept',
      'drop',
      'reject',
      'return',
      'queue',
      'continue',
      'jump',
      'goto',
      'dnat',
      'snat',
      'masquerade',
      'redirect',
      'notrack',
      'log',
    ],
    type: [
      // families (`ip`/`ip6` after `table` are coloured by the table rule; in a rule they
      // start a payload expression, so they are built-ins below)
      'inet',
      'arp',
      'bridge',
      'netdev',
      // chain types, hooks and named priorities
      'filter',
      'nat',
      'route',
      'prerouting',
      'input',
      'forward',
      'output',
      'postrouting',
      'ingress',
      'egress',
      'raw',
      'mangle',
      'dstnat',
      'srcnat',
      'security',
      // set/map element types
      'ipv4_addr',
      'ipv6_addr',
      'inet_proto',
      'inet_service',
      'ether_addr',
      'ifname',
      'verdict',
    ],
    built_in: [
      'ip',
      'ip6',
      'meta',
      'mark',
      'ct',
      'tcp',
      'udp',
      'sctp',
      'th',
      'fib',
      'numgen',
      'jhash',
      'symhash',
      'saddr',
      'daddr',
      'sport',
      'dport',
      'l4proto',
      'nfproto',
      'protocol',
      'state',
      'iif',
      'oif',
      'iifname',
      'oifname',
      'random',
      'mod',
      'and',
      'or',
      'xor',
    ],
    literal: [
      'new',
      'established',
      'related',
      'invalid',
      'untracked',
      'fully-random',
      'persistent',
      'interval',
      'constant',
      'dynamic',
      'timeout',
    ],
  },
  contains: [
    hljs.HASH_COMMENT_MODE,
    // table FAMILY NAME
    {
      match: [/(?<![\w-])table/, /\s+/, NFT_FAMILY, /\s+/, NFT_NAME],
      scope: { 1: 'keyword', 3: 'type', 5: 'title' },
    },
    // In `nft -f` input: add chain|set|map|rule|element FAMILY TABLE NAME
    {
      match: [
        /(?<![\w-])(?:chain|set|map|rule|element|flowtable)/,
        /\s+/,
        NFT_FAMILY,
        /\s+/,
        NFT_NAME,
        /\s+/,
        NFT_NAME,
      ],
      scope: { 1: 'keyword', 3: 'type', 5: 'title', 7: 'title' },
    },
    // chain/set/map NAME { — the brace tells `set NAME {` apart from `meta mark set …`.
    {
      match: [/(?<![\w-])(?:chain|set|map|flowtable)/, /\s+/, /[\w./-]+(?=\s*\{)/],
      scope: { 1: 'keyword', 3: 'title' },
    },
    // jump/goto CHAIN
    {
      match: [/(?<![\w-])(?:jump|goto)/, /\s+/, NFT_NAME],
      scope: { 1: 'keyword', 3: 'title' },
    },
    { scope: 'variable', match: /@[\w./-]+/ },
    hljs.QUOTE_STRING_MODE,
    ...NUMBERS,
    { scope: 'operator', match: /==|!=|<=|>=|(?<=\s)[&|^<>](?=\s)/ },
  ],
});

/** IPVS schedulers (ipvsadm(8), `--scheduler`). */
const IPVS_SCHEDULERS = [
  'rr',
  'wrr',
  'lc',
  'wlc',
  'lblc',
  'lblcr',
  'dh',
  'sh',
  'sed',
  'nq',
  'fo',
  'ovf',
  'mh',
  'twos',
];

/**
 * `ipvsadm -Ln` output, as kube-proxy's ipvs mode leaves it: the header lines, one line per
 * virtual service (`TCP  203.0.113.7:80 rr`) and one per real server
 * (`  -> 10.244.1.5:8080  Masq  1  0  0`). The forwarding methods are the kernel's names
 * (net/netfilter/ipvs/ip_vs_ctl.c, ip_vs_fwd_name: Masq, Local, Tunnel, Route). `ipset list`
 * output that follows it (`Name: KUBE-CLUSTER-IP`, `Members:`) is coloured too.
 */
export const ipvsadm: LanguageFn = (hljs: HLJSApi): Language => ({
  name: 'ipvsadm',
  aliases: ['ipvs'],
  disableAutodetect: true,
  case_insensitive: false,
  keywords: {
    $pattern: '[A-Za-z_][\\w-]*',
    keyword: ['TCP', 'UDP', 'SCTP', 'FWM', 'persistent', 'mask', 'ops', 'pe'],
    built_in: IPVS_SCHEDULERS,
    type: ['Masq', 'Local', 'Tunnel', 'Route'],
  },
  contains: [
    hljs.COMMENT(/^#/, /$/),
    { scope: 'meta', match: /^IP Virtual Server version.*$/ },
    { scope: 'meta', match: /^Prot\s+LocalAddress:Port.*$/ },
    { scope: 'meta', match: /^\s*->\s*RemoteAddress:Port.*$/ },
    { scope: 'operator', match: /(?<=^\s*)->/ },
    // ipset list
    {
      scope: 'attr',
      match: /^(?:Name|Type|Revision|Header|Size in memory|References|Number of entries|Members):/,
    },
    { scope: 'title', match: /(?<![\w-])KUBE-[A-Z0-9-]+(?![\w-])/ },
    // [fd00::1]:80
    { scope: 'number', match: /\[[0-9a-fA-F:.]+\](?::\d{1,5})?/ },
    ...NUMBERS,
  ],
});

/**
 * The languages for rehype-highlight's `languages` option (lowlight registers each under its
 * key, and a grammar's `aliases` as well): `yaml` (alias `yml`), `bash` (aliases `sh`, `zsh`,
 * and — added here — `console` and `shell`), `json`, `iptables`, `nft`, `ipvsadm`.
 *
 * `console`/`shell` blocks are highlighted as plain bash: prompts and command output are not
 * told apart (highlight.js' separate "shell session" grammar would do that, at the cost of
 * leaving most of each line uncoloured).
 *
 * @example
 * <Markdown rehypePlugins={[[rehypeHighlight, { languages: highlightLanguages }]]}>…
 */
export const highlightLanguages: Readonly<Record<string, LanguageFn>> = {
  yaml,
  json,
  bash: (hljs) => {
    const language = bash(hljs);
    return { ...language, aliases: [...(language.aliases ?? []), 'console', 'shell'] };
  },
  iptables,
  nft,
  ipvsadm,
};
