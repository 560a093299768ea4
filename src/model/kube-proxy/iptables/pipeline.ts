/**
 * One new packet through one node's netfilter hooks, in the kernel's order, with
 * kube-proxy's rules (a Linux router with bridge-less routing to local pods):
 *
 * - arriving from the network or from a local pod: nat PREROUTING → routing → filter INPUT
 *   (destination is local) or filter FORWARD (it is not) → nat POSTROUTING;
 * - sent by the node itself: nat OUTPUT → routing → filter OUTPUT → nat POSTROUTING, and
 *   when it is addressed to the node itself, back in through filter INPUT (loopback).
 *
 * Source: netfilter's hook order (`Documentation/networking/nf_conntrack…`, the classic
 * "Netfilter packet flow" diagram); only the `nat` and `filter` tables hold kube-proxy rules.
 */
import type { ClusterNode } from '../../scenario/cluster';
import { cidrContains } from '../../net/ip';
import type { IPv4 } from '../../net/ip';
import type { IptablesRuleset, Rule, Table } from './rule';
import type { Hit, StatisticChooser, TableResult, WalkPacket } from './walk';
import { walkTable } from './walk';

/** Where the packet comes from, as seen by the node. */
export type Origin = 'network' | 'local-pod' | 'local-host';

/** One hook's traversal. */
export interface Phase {
  table: Table;
  hook: string;
  result: TableResult;
}

/** What the node does with the packet. */
export type Fate =
  /** Routed on towards `packet.dst` (a pod, another node or the outside). */
  | { kind: 'forward'; masquerade: boolean; rule?: Rule }
  /** Addressed to the node itself and accepted (nothing of kube-proxy's redirected it). */
  | { kind: 'local' }
  | { kind: 'drop' | 'reject'; rule: Rule };

/** The result of {@link processPacket}. */
export interface NodeProcessing {
  phases: Phase[];
  /** Every rule matched, across hooks, in order. */
  hits: Hit[];
  /** The packet after the nat/filter hooks (DNAT applied; SNAT is left to the caller, see `fate.masquerade`). */
  packet: WalkPacket;
  dnat: boolean;
  fate: Fate;
}

/** The addresses `addrtype --*-type LOCAL` counts as the node's own. */
export function nodeIsLocal(node: ClusterNode): (ip: IPv4) => boolean {
  return (ip) =>
    node.addresses.includes(ip) || ip === node.bridgeIP || cidrContains('127.0.0.0/8', ip);
}

/**
 * Runs kube-proxy's rules of `rs` (the rules of `node`) on a NEW packet.
 * @param choose decides `statistic` cascades (see {@link walkTable})
 */
export function processPacket(
  rs: IptablesRuleset,
  node: ClusterNode,
  packet: WalkPacket,
  origin: Origin,
  choose: StatisticChooser,
): NodeProcessing {
  const isLocal = nodeIsLocal(node);
  const phases: Phase[] = [];
  const ct = new Set(['NEW']);
  const natHook = origin === 'local-host' ? 'OUTPUT' : 'PREROUTING';
  const nat = walkTable(rs, 'nat', natHook, packet, { isLocal, ctstates: ct, choose });
  phases.push({ table: 'nat', hook: natHook, result: nat });
  let p = nat.packet;
  const dnat = nat.verdict === 'DNAT';
  if (dnat) ct.add('DNAT');

  const filterHook = origin === 'local-host' ? 'OUTPUT' : isLocal(p.dst) ? 'INPUT' : 'FORWARD';
  const filter = walkTable(rs, 'filter', filterHook, p, { isLocal, ctstates: ct, choose });
  phases.push({ table: 'filter', hook: filterHook, result: filter });
  p = filter.packet;
  const hits = [...nat.hits, ...filter.hits];
  if ((filter.verdict === 'DROP' || filter.verdict === 'REJECT') && filter.decisive)
    return {
      phases,
      hits,
      packet: p,
      dnat,
      fate: { kind: filter.verdict === 'DROP' ? 'drop' : 'reject', rule: filter.decisive },
    };

  if (filterHook === 'INPUT') return { phases, hits, packet: p, dnat, fate: { kind: 'local' } };

  const post = walkTable(rs, 'nat', 'POSTROUTING', p, { isLocal, ctstates: ct, choose });
  phases.push({ table: 'nat', hook: 'POSTROUTING', result: post });
  hits.push(...post.hits);
  if (origin === 'local-host' && isLocal(post.packet.dst)) {
    // The node talking to one of its own addresses: the packet loops back (lo) and comes in
    // through INPUT, where kube-proxy's filter rules (KUBE-EXTERNAL-SERVICES …) apply too.
    const input = walkTable(rs, 'filter', 'INPUT', post.packet, { isLocal, ctstates: ct, choose });
    phases.push({ table: 'filter', hook: 'INPUT', result: input });
    hits.push(...input.hits);
    if ((input.verdict === 'DROP' || input.verdict === 'REJECT') && input.decisive)
      return {
        phases,
        hits,
        packet: input.packet,
        dnat,
        fate: { kind: input.verdict === 'DROP' ? 'drop' : 'reject', rule: input.decisive },
      };
    return { phases, hits, packet: input.packet, dnat, fate: { kind: 'local' } };
  }
  const masquerade = post.verdict === 'MASQUERADE';
  const fate: Fate =
    masquerade && post.decisive
      ? { kind: 'forward', masquerade, rule: post.decisive }
      : { kind: 'forward', masquerade: false };
  return { phases, hits, packet: post.packet, dnat, fate };
}
