/**
 * The trace: the central data structure (DESIGN.md, "The trace"). One {@link TraceStep} is
 * one thing that happens to one packet at one place, and carries everything a panel needs,
 * so the view draws it without deciding anything.
 */
import type { IPv4, Protocol } from '../net/ip';
import type { ProxyMode } from '../kube-proxy/types';

/**
 * A place on the topology. Node and pod places carry their name:
 * `client`, `lb`, `node:node-1`, `pod:default/web-…`, `network` (the cluster network between nodes).
 */
export type Place = 'client' | 'lb' | 'network' | `node:${string}` | `pod:${string}`;

/** TCP flags of the packet the step shows (the SYN out, the SYN-ACK back). */
export type TcpFlags = 'SYN' | 'SYN-ACK';

/** A packet header as the model tracks it. Ports are TCP/UDP port numbers. */
export interface Packet {
  protocol: Protocol;
  flags: TcpFlags;
  src: IPv4;
  sport: number;
  dst: IPv4;
  dport: number;
  /** The packet's netfilter mark (skb->mark), e.g. 0x4000 after KUBE-MARK-MASQ; 0 when unmarked. */
  mark: number;
}

/** Header fields a step can rewrite; the view marks them. */
export type PacketField = 'src' | 'sport' | 'dst' | 'dport' | 'mark';

/** What a step did to the packet's addresses. */
export type Transform =
  | 'none'
  /** Destination rewritten (kube-proxy's KUBE-SEP DNAT, or the balancer's own rewrite to the NodePort). */
  | 'DNAT'
  /** Source rewritten (kube-proxy's MASQUERADE in KUBE-POSTROUTING, or a proxying balancer's new connection). */
  | 'SNAT'
  /** conntrack undoing the NAT on a reply. */
  | 'reverse-NAT'
  /** Only the mark changed (KUBE-MARK-MASQ). */
  | 'mark'
  /** A proxying balancer ends the client's connection and opens its own to the node (`ipMode: Proxy`). */
  | 'proxy';

/** One option of a decision. `probability` is in [0, 1]; a decision's probabilities sum to 1. */
export interface Candidate {
  /** Node name (balancer) or endpoint `ip:port` (kube-proxy). */
  id: string;
  label: string;
  probability: number;
  /** Whether the option can be chosen at all (health check passing, endpoint ready). */
  eligible: boolean;
  /** Why, in a few words: "health check 200", "healthCheckNodePort 503: no local endpoints", "ready". */
  status: string;
  /** For endpoints: the node the endpoint runs on. */
  nodeName?: string;
}

/** A choice among candidates: the balancer's target or kube-proxy's endpoint. */
export interface Decision {
  kind: 'lb-target' | 'endpoint';
  candidates: Candidate[];
  chosen: string;
  /** True when the choice was pinned rather than drawn from the seed. */
  pinned: boolean;
  /** Who decides, when it is not the balancer or kube-proxy (MetalLB, a BGP router). */
  by?: string;
}

/** One rule the packet matched, in the order it was matched. */
export interface RuleHit {
  /** `nat`/`filter` (iptables), the nft table, or `ipvs`. */
  table: string;
  chain: string;
  /** `table/chain/index` of the rule in the node's rule set. */
  ruleId: string;
  /** The rule exactly as `iptables-save` prints it. */
  text: string;
}

/** The rule or cloud decision behind a step. */
export type StepRule =
  | {
      kind: 'kube-proxy';
      mode: ProxyMode;
      node: string;
      /** The rule this step is about. */
      table: string;
      chain: string;
      ruleId: string;
      text: string;
      /** Every rule matched on this node so far for this packet, in order (the chain trail). */
      trail: RuleHit[];
    }
  | { kind: 'cloud-lb'; text: string }
  | { kind: 'routing'; text: string }
  | { kind: 'conntrack'; text: string };

/** A connection-tracking entry, with both tuples, as `conntrack -L` prints it. */
export interface ConntrackEntry {
  node: string;
  protocol: Protocol;
  state: 'SYN_SENT' | 'SYN_RECV';
  /** Seconds left before the entry expires (the kernel's default for that state). */
  timeoutSeconds: number;
  original: { src: IPv4; dst: IPv4; sport: number; dport: number };
  reply: { src: IPv4; dst: IPv4; sport: number; dport: number };
  /** `[UNREPLIED]` before the first reply. */
  unreplied: boolean;
  /** The line as `conntrack -L` prints it. */
  text: string;
}

/** Which way the packet is travelling. */
export type Direction = 'request' | 'reply';

/** One step of the trace. */
export interface TraceStep {
  /** Stable id within one trace: `s0`, `s1`, … */
  id: string;
  index: number;
  direction: Direction;
  /** Where the step happens. */
  at: Place;
  /** The packet moves from → to during this step (equal when it stays put). */
  from: Place;
  to: Place;
  before: Packet;
  after: Packet;
  /** Fields that differ between before and after. */
  changed: PacketField[];
  transform: Transform;
  decision?: Decision;
  rule?: StepRule;
  conntrack?: ConntrackEntry;
  narration: { title: string; body: string };
}

/** How the trace ended. */
export type Outcome =
  | {
      kind: 'delivered';
      /** `namespace/name` of the Pod that got the connection. */
      pod: string;
      podIP: IPv4;
      node: string;
      /** The source address the application in the Pod sees. */
      sourceIPSeenByPod: IPv4;
      /** Whether the client's own address survived to the Pod. */
      clientIPPreserved: boolean;
      /** Whether the connection crossed from one node to another. */
      crossedNodes: boolean;
      snat: boolean;
      summary: string;
      /**
       * Where the reply went, and what kind of balancer the scene models, in one sentence
       * ("node-1 answers the client directly (direct server return): …"); set when the
       * connection came through the balancer's address (`cloud/implementation.ts`).
       */
      reply?: string;
    }
  | { kind: 'dropped' | 'rejected'; at: Place; reason: string; rule?: string; summary: string }
  | { kind: 'timed-out'; at: Place; reason: string; summary: string }
  | { kind: 'no-address'; reason: string; summary: string };

/** The whole trace. */
export interface Trace {
  steps: TraceStep[];
  outcome: Outcome;
  /** Every conntrack entry the trace created, per node. */
  conntrack: ConntrackEntry[];
}
