/**
 * One new packet through one node in kube-proxy's IPVS mode, walking the generated state
 * (the iptables rules, the ipsets, the `kube-ipvs0` addresses and the virtual servers), so
 * the rules view and the trace cannot disagree.
 *
 * The order is the kernel's (net/netfilter/ipvs/ip_vs_core.c `ip_vs_ops4`; ip_vs_xmit.c
 * `ip_vs_nat_send_or_cont`):
 * - from the network or a local pod: nat PREROUTING → routing (a `kube-ipvs0` address or a
 *   node address is local) → filter INPUT → IPVS at LOCAL_IN (priority NF_IP_PRI_NAT_SRC - 1,
 *   after filter INPUT): the virtual-server lookup, the scheduler's pick, the Masq DNAT → the
 *   packet is sent on through LOCAL_OUT (filter OUTPUT) → nat POSTROUTING, where KUBE-POSTROUTING
 *   masquerades marked packets. Never through FORWARD. Not local: filter FORWARD → nat POSTROUTING.
 * - sent by the node itself: nat OUTPUT → IPVS at LOCAL_OUT (NF_IP_PRI_NAT_DST + 2, before
 *   filter OUTPUT) → filter OUTPUT → nat POSTROUTING.
 * A virtual server without real servers answers ICMP port unreachable (`ip_vs_leave`): a reject.
 *
 * The scheduler's pick is modelled as equal-probability options given to `choose`: with `rr`
 * and weight-1 real servers, one new connection goes to whichever real server is next in the
 * round, which the model does not track, so each is equally likely. The same model is used
 * for other schedulers (the kernel's `sh`, `lc`, … decide by source hash or connection counts).
 * With ClientIP persistence, no earlier connection of the client is remembered.
 */
import type { ClusterNode } from '../../scenario/cluster';
import type { IPv4 } from '../../net/ip';
import { cidrContains, hostPort } from '../../net/ip';
import type {
  ChoiceOption,
  EndpointChooser,
  HitRole,
  ModeHit,
  ModePacket,
  ModeProcessing,
  Origin,
} from '../types';
import type { IpvsRuleset, VirtualServer } from './generate';
import type { IpvsChain, IpvsMatch, IpvsRule, Table } from './rules';
import { matchingMember } from './ipsets';

/** What one table traversal decided. */
interface TableResult {
  verdict: 'ACCEPT' | 'DROP' | 'REJECT' | 'MASQUERADE';
  packet: ModePacket;
  /** The hit of the rule that ended the traversal with DROP or REJECT. */
  decisive?: ModeHit;
}

/** The walk's view of the node and the connection. */
interface Env {
  rs: IpvsRuleset;
  isLocal: (ip: IPv4) => boolean;
  origin: Origin;
  ctstates: Set<string>;
  /** The virtual server that took the packet, once IPVS has (for `-m ipvs`). */
  ipvs?: VirtualServer;
  hits: ModeHit[];
}

/** The role of a matched rule, from the chain it is in and what it does. */
function roleOf(rule: IpvsRule): HitRole | undefined {
  const t = rule.target;
  if (t.kind === 'MASQUERADE') return 'snat';
  if (t.kind === 'DROP') return 'drop';
  if (t.kind === 'REJECT') return 'reject';
  if (t.kind === 'MARK' && rule.chain === 'KUBE-MARK-MASQ') return 'mark';
  if (rule.table === 'nat') {
    // The external-traffic decision: RETURN (Local: keep the client IP) or mark for masquerade.
    if (rule.chain === 'KUBE-LOAD-BALANCER' || rule.chain === 'KUBE-NODE-PORT') return 'ext';
    if (
      rule.matches.some((m) => m.kind === 'set' && m.name === 'KUBE-EXTERNAL-IP') &&
      t.kind === 'jump'
    )
      return 'ext';
    return undefined;
  }
  if (rule.chain === 'KUBE-PROXY-FIREWALL' || rule.chain === 'KUBE-SOURCE-RANGES-FIREWALL')
    return 'firewall';
  return undefined;
}

function matches(m: IpvsMatch, p: ModePacket, env: Env): boolean {
  switch (m.kind) {
    case 'src':
      return cidrContains(m.cidr, p.src) !== m.not;
    case 'dst':
      return cidrContains(m.cidr, p.dst) !== m.not;
    case 'proto':
      return p.protocol === m.proto;
    case 'comment':
      return true;
    case 'set': {
      const set = env.rs.ipsets.find((s) => s.name === m.name);
      return set !== undefined && matchingMember(set, m.dirs, p) !== undefined;
    }
    case 'addrtype':
      return env.isLocal(m.dir === 'src' ? p.src : p.dst) !== m.not;
    case 'physdev-is-in':
      // Only pod traffic enters through a bridge port (cni0, with br_netfilter).
      return (env.origin === 'local-pod') !== m.not;
    case 'mark':
      return ((p.mark & m.mask) === m.value) !== m.not;
    case 'ctstate':
      return m.states.some((s) => env.ctstates.has(s)) !== m.not;
    case 'ipvs':
      return (
        env.ipvs !== undefined &&
        env.ipvs.address === m.vaddr &&
        env.ipvs.protocol === m.vproto &&
        env.ipvs.port === m.vport
      );
  }
}

function hitOf(rule: IpvsRule, packet: ModePacket): ModeHit {
  const hit: ModeHit = {
    ruleId: rule.id,
    table: rule.table,
    chain: rule.chain,
    text: rule.text,
    packet: { ...packet },
  };
  const role = roleOf(rule);
  if (role) hit.role = role;
  return hit;
}

/** Records the rule's hit, then the set member each of its `-m set` matches found. */
function record(rule: IpvsRule, p: ModePacket, env: Env): ModeHit {
  const hit = hitOf(rule, p);
  env.hits.push(hit);
  for (const m of rule.matches) {
    if (m.kind !== 'set') continue;
    const set = env.rs.ipsets.find((s) => s.name === m.name);
    const member = set && matchingMember(set, m.dirs, p);
    if (member)
      env.hits.push({
        ruleId: member.ruleId,
        table: 'ipset',
        chain: m.name,
        text: member.text,
        packet: { ...p },
      });
  }
  return hit;
}

/**
 * Traverses `table` from the built-in chain `hook`, as netfilter does: rules in order; a
 * jump descends; RETURN or the end of a user chain comes back; ACCEPT, DROP, REJECT and
 * MASQUERADE end the table; MARK changes the mark and goes on.
 * @throws {Error} when a chain is missing (a generator bug) or jumps nest deeper than 32.
 */
function walkTable(table: Table, hook: string, packet: ModePacket, env: Env): TableResult {
  const find = (name: string): IpvsChain | undefined =>
    env.rs.tables[table].find((c) => c.name === name);
  const result: TableResult = { verdict: 'ACCEPT', packet: { ...packet } };
  const run = (chain: IpvsChain, depth: number): TableResult['verdict'] | undefined => {
    if (depth > 32) throw new Error(`iptables jump depth exceeded at ${chain.name}`);
    for (const rule of chain.rules) {
      if (!rule.matches.every((m) => matches(m, result.packet, env))) continue;
      const t = rule.target;
      if (t.kind === 'MARK')
        result.packet.mark =
          t.op === 'or' ? result.packet.mark | t.value : result.packet.mark ^ t.value;
      const hit = record(rule, result.packet, env);
      switch (t.kind) {
        case 'none':
        case 'MARK':
          continue;
        case 'RETURN':
          return undefined;
        case 'jump': {
          const next = find(t.chain);
          if (!next) throw new Error(`no chain ${table}/${t.chain}`);
          const v = run(next, depth + 1);
          if (v) return v;
          continue;
        }
        case 'DROP':
        case 'REJECT':
          result.decisive = hit;
          return t.kind;
        case 'ACCEPT':
        case 'MASQUERADE':
          return t.kind;
        case 'DNAT':
          throw new Error(`IPVS mode writes no DNAT rule (${rule.id})`);
      }
    }
    return undefined;
  };
  const start = find(hook);
  if (!start) throw new Error(`no chain ${table}/${hook}`);
  result.verdict = run(start, 0) ?? 'ACCEPT';
  return result;
}

/** The virtual server for the packet's destination, if any. */
export function findVirtualServer(rs: IpvsRuleset, p: ModePacket): VirtualServer | undefined {
  return rs.virtualServers.find(
    (vs) => vs.protocol === p.protocol && vs.address === p.dst && vs.port === p.dport,
  );
}

/** Each virtual server's real servers as choice options, made once (`flowVerdict` walks once per real server). */
const optionsByServer = new WeakMap<object, { length: number; options: ChoiceOption[] }>();

function realServerOptions(vs: {
  realServers: readonly { ip: IPv4; port: number }[];
}): ChoiceOption[] {
  const hit = optionsByServer.get(vs);
  if (hit && hit.length === vs.realServers.length) return hit.options;
  const options = vs.realServers.map((r) => ({
    endpoint: hostPort(r.ip, r.port),
    probability: 1 / vs.realServers.length,
  }));
  optionsByServer.set(vs, { length: vs.realServers.length, options });
  return options;
}

/**
 * Runs kube-proxy's IPVS-mode state of `rs` (the state of `node`) on one NEW packet.
 *
 * Hits, in the order the kernel meets them: every iptables rule matched (table `nat` or
 * `filter`), each followed by the ipset member its `-m set` match found (table `ipset`, no
 * role); the `kube-ipvs0` address that made the destination local (table `ip addr`); then
 * IPVS (table `ipvs`): the virtual-server line as `capture` and as `choose` (with the
 * options), the chosen real-server line as `dnat` — or the virtual-server line as `reject`
 * when it has no real server. Roles of iptables rules: `ext` for the KUBE-NODE-PORT /
 * KUBE-LOAD-BALANCER decision (RETURN for Local, else mark) and the KUBE-EXTERNAL-IP mark,
 * `mark` for KUBE-MARK-MASQ, `snat` for MASQUERADE, `firewall` for the source-range chains,
 * `drop`/`reject` for DROP/REJECT.
 * @param choose picks the real server among equal-probability options (see the module note);
 *   an index out of range is clamped to the options.
 */
export function processIpvs(
  rs: IpvsRuleset,
  node: ClusterNode,
  packet: ModePacket,
  origin: Origin,
  choose: EndpointChooser,
): ModeProcessing {
  const isLocal = (ip: IPv4) =>
    node.addresses.includes(ip) ||
    ip === node.bridgeIP ||
    rs.dummyAddresses.includes(ip) ||
    cidrContains('127.0.0.0/8', ip);
  const env: Env = { rs, isLocal, origin, ctstates: new Set(['NEW']), hits: [] };
  const fromHost = origin === 'local-host';
  const done = (p: ModePacket, dnat: boolean, fate: ModeProcessing['fate']): ModeProcessing => ({
    hits: env.hits,
    packet: p,
    dnat,
    fate,
  });
  const stopped = (r: TableResult, dnat: boolean): ModeProcessing | undefined =>
    (r.verdict === 'DROP' || r.verdict === 'REJECT') && r.decisive
      ? done(r.packet, dnat, { kind: r.verdict === 'DROP' ? 'drop' : 'reject', hit: r.decisive })
      : undefined;
  const postrouting = (p: ModePacket, dnat: boolean): ModeProcessing => {
    const post = walkTable('nat', 'POSTROUTING', p, env);
    return done(post.packet, dnat, { kind: 'forward', masquerade: post.verdict === 'MASQUERADE' });
  };

  let p = walkTable('nat', fromHost ? 'OUTPUT' : 'PREROUTING', packet, env).packet;
  const local = isLocal(p.dst);
  if (rs.dummyAddresses.includes(p.dst))
    env.hits.push({
      ruleId: `kube-ipvs0/${p.dst}`,
      table: 'ip addr',
      chain: 'kube-ipvs0',
      text: `    inet ${p.dst}/32 scope global kube-ipvs0`,
      packet: { ...p },
    });
  if (!fromHost) {
    if (!local) {
      const fwd = walkTable('filter', 'FORWARD', p, env);
      return stopped(fwd, false) ?? postrouting(fwd.packet, false);
    }
    const input = walkTable('filter', 'INPUT', p, env);
    const stop = stopped(input, false);
    if (stop) return stop;
    p = input.packet;
  }
  const vs = findVirtualServer(rs, p);
  if (!vs) {
    const out = fromHost ? walkTable('filter', 'OUTPUT', p, env) : undefined;
    if (out) {
      const stop = stopped(out, false);
      if (stop) return stop;
      p = out.packet;
    }
    return local ? done(p, false, { kind: 'local' }) : postrouting(p, false);
  }

  const vsChain = `${vs.protocol.toUpperCase()} ${hostPort(vs.address, vs.port)}`;
  const vsHit = (role: HitRole): ModeHit => ({
    ruleId: vs.ruleId,
    table: 'ipvs',
    chain: vsChain,
    text: vs.text,
    role,
    packet: { ...p },
  });
  env.hits.push(vsHit('capture'));
  if (vs.realServers.length === 0) {
    const hit = vsHit('reject');
    env.hits.push(hit);
    return done(p, false, { kind: 'reject', hit });
  }
  const options = realServerOptions(vs);
  const picked = Math.floor(choose(options));
  const chosen = Math.min(Math.max(Number.isFinite(picked) ? picked : 0, 0), options.length - 1);
  env.hits.push({ ...vsHit('choose'), choice: { options, chosen } });
  const real = vs.realServers[chosen] as (typeof vs.realServers)[number];
  p = { ...p, dst: real.ip, dport: real.port };
  env.hits.push({
    ruleId: real.ruleId,
    table: 'ipvs',
    chain: vsChain,
    text: real.text,
    role: 'dnat',
    packet: { ...p },
  });
  env.ctstates.add('DNAT');
  env.ipvs = vs;

  const out = walkTable('filter', 'OUTPUT', p, env);
  return stopped(out, true) ?? postrouting(out.packet, true);
}
