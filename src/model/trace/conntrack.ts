/**
 * Connection-tracking entries as `conntrack -L` (conntrack-tools) prints them:
 * `tcp      6 120 SYN_SENT src=… dst=… sport=… dport=… [UNREPLIED] src=… dst=… sport=… dport=… mark=0 use=1`
 * — protocol name padded to 8 columns, protocol number, seconds left, TCP state, the
 * original tuple, the reply tuple (what the kernel expects back, i.e. after NAT), the mark.
 *
 * Timeouts are the kernel's defaults for the state (`nf_conntrack_tcp_timeout_syn_sent` 120 s,
 * `…_syn_recv` 60 s). The `mark` is the connection mark, which kube-proxy does not set: its
 * 0x4000 is a packet mark, so conntrack shows `mark=0`.
 */
import type { ConntrackEntry, Packet } from './types';

const PROTO_NUM = { tcp: 6, udp: 17, sctp: 132 } as const;

type Tuple = ConntrackEntry['original'];

function tupleText(t: Tuple): string {
  return `src=${t.src} dst=${t.dst} sport=${t.sport} dport=${t.dport}`;
}

/** Prints an entry as `conntrack -L` does. */
export function conntrackText(e: Omit<ConntrackEntry, 'text'>): string {
  const head = `${e.protocol.padEnd(8)} ${PROTO_NUM[e.protocol]} ${e.timeoutSeconds} ${e.state}`;
  const orig = tupleText(e.original);
  const reply = tupleText(e.reply);
  return `${head} ${orig}${e.unreplied ? ' [UNREPLIED]' : ''} ${reply} mark=0 use=1`;
}

/**
 * The entry a node creates for a new connection: `arrived` is the first packet as it reached
 * the node, `left` the same packet after the node's NAT.
 */
export function newEntry(node: string, arrived: Packet, left: Packet): ConntrackEntry {
  const e: Omit<ConntrackEntry, 'text'> = {
    node,
    protocol: arrived.protocol,
    state: 'SYN_SENT',
    timeoutSeconds: 120,
    original: { src: arrived.src, dst: arrived.dst, sport: arrived.sport, dport: arrived.dport },
    reply: { src: left.dst, dst: left.src, sport: left.dport, dport: left.sport },
    unreplied: true,
  };
  return { ...e, text: conntrackText(e) };
}

/** The same entry once the SYN-ACK has passed: SYN_RECV, replied. */
export function repliedEntry(e: ConntrackEntry): ConntrackEntry {
  const next: Omit<ConntrackEntry, 'text'> = {
    ...e,
    state: 'SYN_RECV',
    timeoutSeconds: 60,
    unreplied: false,
  };
  return { ...next, text: conntrackText(next) };
}

/** True when the entry rewrites addresses (DNAT or SNAT), i.e. the reply will be translated. */
export function isNatEntry(e: ConntrackEntry): boolean {
  return (
    e.reply.src !== e.original.dst ||
    e.reply.sport !== e.original.dport ||
    e.reply.dst !== e.original.src ||
    e.reply.dport !== e.original.sport
  );
}
