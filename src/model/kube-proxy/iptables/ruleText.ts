/**
 * The two texts of an iptables rule: as `iptables-save` prints it ({@link ruleText}) and as
 * kube-proxy writes it into its `iptables-restore` input ({@link restoreText}).
 *
 * `iptables-save` print order (iptables 1.8, `nft` and legacy backends alike): `-s`, `-d`,
 * `-p` first, then each `-m` match in the order it was given, then `-j` and the target's
 * options. Addresses print with their prefix (`/32`), comments are quoted unless they are
 * plain `[A-Za-z0-9_-]` words (`xtables_save_string`), `statistic` probabilities print with
 * 11 decimals after the kernel's 31-bit rounding (`libxt_statistic.c`), REJECT prints its
 * default `--reject-with icmp-port-unreachable` (`libipt_REJECT.c`).
 */
import type { Match, Target } from './rule';
import { goFixed, goHex08 } from './goFormat';
import { memoize } from '../memo';

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
