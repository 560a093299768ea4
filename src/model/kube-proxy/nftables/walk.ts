/**
 * Runs one new packet through a node's `ip kube-proxy` table as netfilter does, reading the
 * same rule objects the listing prints (so the rules view and the walk cannot disagree).
 *
 * Hook order (the classic netfilter packet flow; nftables base chains at one hook run in
 * priority order, an `accept` — including the implicit one at a chain's end and the NAT
 * statements — only ends that base chain, `drop`/`reject` end the packet):
 * - from the network or a local pod: prerouting (filter-prerouting -110, nat-prerouting
 *   -100) → routing → input (filter-input) when the destination is the node's own, else
 *   forward (filter-forward) → postrouting (nat-postrouting 100);
 * - from the node itself: output (filter-output -110, nat-output -100,
 *   filter-output-post-dnat -90) → postrouting → input when the destination is local
 *   (the loopback path).
 * Inside a chain: `jump` pushes a return point, `goto` does not, and the end of a chain (or
 * `return`) resumes after the last `jump` — or ends the base chain when there is none.
 * A verdict-map lookup with no element is no match. `numgen random mod N vmap` asks the
 * chooser, giving each endpoint 1/N. Only new connections are modelled: `ct state new`
 * always holds and the dynamic `affinity-` sets are empty (no client remembered yet).
 */
import type { ClusterNode } from '../../scenario/cluster';
import { cidrContains } from '../../net/ip';
import type {
  ChoiceOption,
  EndpointChooser,
  HitRole,
  ModeHit,
  ModePacket,
  ModeProcessing,
  Origin,
} from '../types';
import type { NftChain, NftHook, NftMapElement, NftMatch, NftRule, NftRuleset } from './types';
import { NFT_TABLE } from './types';

/** How a base chain (or a hook) ended. */
type Verdict = { kind: 'accept' } | { kind: 'drop' | 'reject'; hit: ModeHit };

interface WalkState {
  rs: NftRuleset;
  node: ClusterNode;
  packet: ModePacket;
  hits: ModeHit[];
  choose: EndpointChooser;
  dnat: boolean;
  masquerade: boolean;
  /** external- chains a rule already acted in (the first such rule is the `ext` hit). */
  externalSeen: Set<string>;
}

/** True when `ip` is one of the node's own addresses (`fib … type local`). */
export function isNodeLocal(node: ClusterNode, ip: string): boolean {
  return node.addresses.includes(ip) || ip === node.bridgeIP || cidrContains('127.0.0.0/8', ip);
}

function inSet(rs: NftRuleset, name: string, ip: string): boolean {
  const s = indexOf(rs).sets.get(name);
  return s?.kind === 'set' && s.elements.includes(ip);
}

function matches(m: NftMatch, st: WalkState): boolean {
  const p = st.packet;
  switch (m.kind) {
    case 'ctStateNew':
      return true;
    case 'addr': {
      const ip = m.dir === 'saddr' ? p.src : p.dst;
      return m.cidrs.some((c) => cidrContains(c, ip)) !== m.not;
    }
    case 'addrInSet':
      return inSet(st.rs, m.set, m.dir === 'saddr' ? p.src : p.dst);
    case 'dport':
      return p.protocol === m.proto && p.dport === m.port;
    case 'l4proto':
      return p.protocol === m.proto;
    case 'fibLocal':
      return isNodeLocal(st.node, m.dir === 'saddr' ? p.src : p.dst);
    case 'markClear':
      return (p.mark & m.mask) === 0;
  }
}

function lookup(st: WalkState, map: string, withAddr: boolean): NftMapElement | undefined {
  const m = indexOf(st.rs).sets.get(map);
  if (m?.kind !== 'map') return undefined;
  const p = st.packet;
  return m.elements.find(
    (e) => e.proto === p.protocol && e.port === p.dport && (!withAddr || e.ip === p.dst),
  );
}

function record(st: WalkState, rule: NftRule, role?: HitRole): ModeHit {
  const hit: ModeHit = {
    ruleId: rule.id,
    table: NFT_TABLE,
    chain: rule.chain,
    text: rule.text,
    packet: { ...st.packet },
  };
  let r = role;
  if (rule.chain.startsWith('external-')) {
    // The first rule that acts in a Service's external- chain is its policy decision.
    if (!r && !st.externalSeen.has(rule.chain)) r = 'ext';
    st.externalSeen.add(rule.chain);
  }
  if (r) hit.role = r;
  st.hits.push(hit);
  return hit;
}

/**
 * A ruleset's chains by name, base chains by hook (lowest priority first) and sets by name,
 * made once per ruleset: a node of a 10,000-endpoint cluster has over 10,000 chains, and a walk
 * enters a few of them (`flowVerdict` walks once per endpoint). Rulesets are not changed after
 * the writer makes them; the chain count guards that.
 */
interface RulesetIndex {
  chainCount: number;
  chains: Map<string, NftChain>;
  hooks: Map<NftHook, NftChain[]>;
  sets: Map<string, NftRuleset['sets'][number]>;
}

const indexes = new WeakMap<NftRuleset, RulesetIndex>();

function indexOf(rs: NftRuleset): RulesetIndex {
  const hit = indexes.get(rs);
  if (hit && hit.chainCount === rs.chains.length) return hit;
  const chains = new Map<string, NftChain>();
  const hooks = new Map<NftHook, NftChain[]>();
  for (const c of rs.chains) {
    if (!chains.has(c.name)) chains.set(c.name, c);
    if (c.base) hooks.set(c.base.hook, [...(hooks.get(c.base.hook) ?? []), c]);
  }
  for (const list of hooks.values())
    list.sort((a, b) => (a.base?.priority ?? 0) - (b.base?.priority ?? 0));
  const sets = new Map<string, NftRuleset['sets'][number]>();
  for (const x of rs.sets) if (!sets.has(x.name)) sets.set(x.name, x);
  const ix = { chainCount: rs.chains.length, chains, hooks, sets };
  indexes.set(rs, ix);
  return ix;
}

/** Each `numgen` statement's targets as choice options, made once. */
const numgenOptions = new WeakMap<object, ChoiceOption[]>();

function findChain(rs: NftRuleset, name: string): NftChain {
  const c = indexOf(rs).chains.get(name);
  if (!c) throw new Error(`no chain "${name}" in ip kube-proxy`);
  return c;
}

/**
 * Evaluates one base chain.
 * @throws {Error} when a jump target is missing (a generator bug) or after 10,000 rules (a loop).
 */
function runBaseChain(base: NftChain, st: WalkState): Verdict {
  const stack: { chain: NftChain; index: number }[] = [];
  let chain = base;
  let i = 0;
  const enter = (name: string) => {
    chain = findChain(st.rs, name);
    i = 0;
  };
  for (let steps = 0; steps < 10_000; steps++) {
    const rule = chain.rules[i];
    if (!rule) {
      const back = stack.pop();
      if (!back) return { kind: 'accept' };
      chain = back.chain;
      i = back.index + 1;
      continue;
    }
    if (!rule.matches.every((m) => matches(m, st))) {
      i++;
      continue;
    }
    const s = rule.statement;
    switch (s.kind) {
      case 'jump':
        record(st, rule);
        stack.push({ chain, index: i });
        enter(s.chain);
        continue;
      case 'goto':
        record(st, rule);
        enter(s.chain);
        continue;
      case 'vmap': {
        const el = lookup(st, s.map, s.key === 'daddr.l4proto.dport');
        if (!el) {
          i++;
          continue;
        }
        if (el.verdict.kind === 'drop') return { kind: 'drop', hit: record(st, rule, 'drop') };
        const role =
          rule.chain === 'services'
            ? 'capture'
            : rule.chain === 'firewall-check'
              ? 'firewall'
              : undefined;
        record(st, rule, role);
        enter(el.verdict.chain);
        continue;
      }
      case 'numgen': {
        let options = numgenOptions.get(s);
        if (!options) {
          options = s.targets.map((t) => ({ endpoint: t.endpoint, probability: 1 / s.mod }));
          numgenOptions.set(s, options);
        }
        const chosen = st.choose(options);
        const target = s.targets[chosen];
        if (!target) throw new Error(`endpoint choice ${chosen} out of range in ${rule.chain}`);
        record(st, rule, 'choose').choice = { options, chosen };
        enter(target.chain);
        continue;
      }
      case 'dnat': {
        const at = s.to.lastIndexOf(':');
        st.packet.dst = s.to.slice(0, at);
        st.packet.dport = Number(s.to.slice(at + 1));
        st.dnat = true;
        record(st, rule, 'dnat');
        return { kind: 'accept' };
      }
      case 'mark':
        st.packet.mark = s.op === 'or' ? st.packet.mark | s.value : st.packet.mark ^ s.value;
        record(st, rule, s.op === 'or' ? 'mark' : undefined);
        i++;
        continue;
      case 'masquerade':
        st.masquerade = true;
        record(st, rule, 'snat');
        return { kind: 'accept' };
      case 'updateSet':
        record(st, rule);
        i++;
        continue;
      case 'return': {
        record(st, rule);
        const back = stack.pop();
        if (!back) return { kind: 'accept' };
        chain = back.chain;
        i = back.index + 1;
        continue;
      }
      case 'drop':
      case 'reject':
        return { kind: s.kind, hit: record(st, rule, s.kind) };
    }
  }
  throw new Error(`nftables walk did not end (loop?) at ${chain.name}`);
}

/** Runs every base chain at `hook`, lowest priority first. */
function runHook(hook: NftHook, st: WalkState): Verdict {
  const bases = indexOf(st.rs).hooks.get(hook) ?? [];
  for (const c of bases) {
    const v = runBaseChain(c, st);
    if (v.kind !== 'accept') return v;
  }
  return { kind: 'accept' };
}

/**
 * Runs kube-proxy's nftables rules of `rs` (the rules of `node`) on a new packet.
 * @param choose picks the endpoint at each `numgen` (options given as `ip:port`, each 1/N)
 * @throws {Error} when the rule set refers to a missing chain or `choose` returns an index
 *   out of range
 */
export function processNftables(
  rs: NftRuleset,
  node: ClusterNode,
  packet: ModePacket,
  origin: Origin,
  choose: EndpointChooser,
): ModeProcessing {
  const st: WalkState = {
    rs,
    node,
    packet: { ...packet },
    hits: [],
    choose,
    dnat: false,
    masquerade: false,
    externalSeen: new Set(),
  };
  const done = (fate: ModeProcessing['fate']): ModeProcessing => ({
    hits: st.hits,
    packet: st.packet,
    dnat: st.dnat,
    fate,
  });
  const stop = (v: Verdict) => (v.kind === 'accept' ? undefined : done(v));

  if (origin === 'local-host') {
    const out = stop(runHook('output', st)) ?? stop(runHook('postrouting', st));
    if (out) return out;
    if (isNodeLocal(node, st.packet.dst))
      return stop(runHook('input', st)) ?? done({ kind: 'local' });
    return done({ kind: 'forward', masquerade: st.masquerade });
  }
  const pre = stop(runHook('prerouting', st));
  if (pre) return pre;
  if (isNodeLocal(node, st.packet.dst))
    return stop(runHook('input', st)) ?? done({ kind: 'local' });
  const fwd = stop(runHook('forward', st)) ?? stop(runHook('postrouting', st));
  return fwd ?? done({ kind: 'forward', masquerade: st.masquerade });
}
