/**
 * Wires and the packet's paths, as pure functions of a {@link TopologyLayout}: every path runs
 * in gutters that hold no text — the trunk lanes above the nodes (or the left gutter when
 * vertical), the gutter down each node's left side, and the cluster network — never through a
 * name or an address. Also which nodes and Pods the trace passes (`pathOf`), read from its steps.
 */
import type { Cluster } from '../../model/scenario/cluster';
import type { Place, Trace } from '../../model/trace/types';
import type { Box, NodeLayout, Point, TopologyLayout } from './layout';

type Where =
  | { kind: 'client' }
  | { kind: 'lb' }
  | { kind: 'network' }
  | { kind: 'node'; name: string; node?: NodeLayout }
  | { kind: 'none' };

function podNode(l: TopologyLayout, key: string): string | undefined {
  for (const n of l.nodes) {
    if (n.pods.some((p) => p.key === key) || n.morePods?.keys.includes(key)) return n.name;
  }
  return undefined;
}

function whereIs(l: TopologyLayout, place: Place, cluster?: Cluster): Where {
  if (place === 'lb') return { kind: 'lb' };
  if (place === 'network') return { kind: 'network' };
  if (place === 'client') {
    if (l.client) return { kind: 'client' };
    const host = l.nodes.find((n) => n.host);
    if (host) return { kind: 'node', name: host.name, node: host };
    const a = l.anchors['client'];
    const n = a && l.nodes.find((x) => inBox(a, x.box));
    if (n) return { kind: 'node', name: n.name, node: n };
    return l.fold ? { kind: 'node', name: 'fold' } : { kind: 'none' };
  }
  if (place.startsWith('node:')) {
    const name = place.slice(5);
    const node = l.nodes.find((n) => n.name === name);
    return node ? { kind: 'node', name, node } : { kind: 'node', name: 'fold' };
  }
  const key = place.slice(4);
  const name =
    podNode(l, key) ?? cluster?.pods.find((p) => `${p.namespace}/${p.name}` === key)?.nodeName;
  const node = l.nodes.find((n) => n.name === name);
  return node ? { kind: 'node', name: node.name, node } : { kind: 'node', name: 'fold' };
}

const inBox = (p: Point, b: Box) =>
  p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;

/** The gutter x, lane y and turn x of a drawn node or of the folded group. */
function lineOf(l: TopologyLayout, w: Extract<Where, { kind: 'node' }>) {
  const gutter = w.node ? w.node.gutterX : (l.fold?.box.x ?? 0) - 5;
  const key = w.node ? w.name : 'fold';
  const box = w.node ? w.node.box : (l.fold?.box ?? { x: 0, y: 0, w: 0, h: 0 });
  return { gutter, lane: l.lanes[key] ?? box.y - 12, turn: l.turns[key] ?? box.x - 8, box };
}

/** From the balancer into a node (to `end`, a place inside it), along its lane and gutter. */
function inbound(l: TopologyLayout, w: Extract<Where, { kind: 'node' }>, end: Point): Point[] {
  const { gutter, lane, turn } = lineOf(l, w);
  if (l.orientation === 'vertical') {
    const top = l.lb.box.y + l.lb.box.h;
    return [
      { x: turn, y: top },
      { x: turn, y: lane },
      { x: gutter, y: lane },
      { x: gutter, y: end.y },
      end,
    ];
  }
  const row = w.node ? l.lb.rows.find((r) => r.name === w.name) : l.lb.foldRow;
  const exit = row?.exit ?? { x: l.lb.box.x + l.lb.box.w, y: l.lb.box.y + l.lb.box.h / 2 };
  return [
    exit,
    { x: turn, y: exit.y },
    { x: turn, y: lane },
    { x: gutter, y: lane },
    { x: gutter, y: end.y },
    end,
  ];
}

/**
 * From the internet client straight to a node (to `end`, a place inside it), never through the
 * balancer's box: a reply under direct server return or MetalLB, and a dial of a node's own
 * address. It joins the node's lane at its turn (horizontal) and reaches the client in the
 * room no text uses — above both boxes when they sit side by side, in the gap between the
 * client and the balancer when the client sits above it; on a vertical stage down the margin
 * left of the balancer.
 */
function bypass(l: TopologyLayout, w: Extract<Where, { kind: 'node' }>, end: Point): Point[] {
  const { gutter, lane, turn } = lineOf(l, w);
  const c = l.client?.box;
  const a = l.anchors['client'];
  const lb = l.lb.box;
  if (!c || !a) return inbound(l, w, end);
  const tail = [{ x: gutter, y: lane }, { x: gutter, y: end.y }, end];
  const gapY = (c.y + c.h + lb.y) / 2;
  if (l.orientation === 'vertical') {
    // Down the margin left of the balancer, into the cluster at the node's lane.
    const side = lb.x / 2;
    return [a, { x: a.x, y: gapY }, { x: side, y: gapY }, { x: side, y: lane }, ...tail];
  }
  if (c.y + c.h < lb.y)
    // The client above the balancer: along the gap between them.
    return [a, { x: a.x, y: gapY }, { x: turn, y: gapY }, { x: turn, y: lane }, ...tail];
  // Side by side: out of the client's side, over the top of the balancer.
  const y = Math.min(c.y, lb.y) - 8;
  const out = a.x + (lb.x - a.x) / 2;
  return [a, { x: out, y: a.y }, { x: out, y }, { x: turn, y }, { x: turn, y: lane }, ...tail];
}

/** From a place inside a node down its gutter to the cluster network. */
function toBus(l: TopologyLayout, w: Extract<Where, { kind: 'node' }>, a: Point): Point[] {
  const { gutter, box } = lineOf(l, w);
  if (l.orientation === 'horizontal') return [a, { x: gutter, y: a.y }, { x: gutter, y: l.bus.y1 }];
  const y = box.y + box.h + 7;
  return [a, { x: gutter, y: a.y }, { x: gutter, y }, { x: l.bus.x1, y }];
}

/** The health-check wire from the balancer to a drawn node (or the folded group): to its top. */
export function healthWire(l: TopologyLayout, name: string): Point[] {
  const node = l.nodes.find((n) => n.name === name);
  const w = { kind: 'node' as const, name: node ? name : 'fold', ...(node ? { node } : {}) };
  const { gutter, box } = lineOf(l, w);
  const pts = inbound(l, w, { x: gutter, y: box.y + 4 });
  return pts.slice(0, -1);
}

/** A node's link to the cluster network (drawn faintly for every drawn node). */
export function busLink(l: TopologyLayout, node: NodeLayout): Point[] {
  const w = { kind: 'node' as const, name: node.name, node };
  return toBus(l, w, { x: node.gutterX, y: node.box.y + node.box.h - 4 }).slice(1);
}

/**
 * The points of the path from `from` to `to`: it starts near `from`'s anchor and ends at `to`'s
 * (a single point when they are the same place).
 */
export function route(l: TopologyLayout, from: Place, to: Place, cluster?: Cluster): Point[] {
  const a = l.anchors[from];
  const b = l.anchors[to];
  if (!a || !b) return [];
  if (from === to) return [b];
  const wa = whereIs(l, from, cluster);
  const wb = whereIs(l, to, cluster);
  if (wa.kind === 'client' && wb.kind === 'lb') return clientToLb(l, a, b);
  if (wa.kind === 'lb' && wb.kind === 'client') return clientToLb(l, b, a).reverse();
  // The client and a node with no balancer between them (direct server return, MetalLB, a
  // node's own address dialled): the wire goes round the balancer's box.
  if (wa.kind === 'client' && wb.kind === 'node') return bypass(l, wb, b);
  if (wa.kind === 'node' && wb.kind === 'client') return bypass(l, wa, a).reverse();
  if (wa.kind === 'lb' && wb.kind === 'node') return inbound(l, wb, b);
  if (wa.kind === 'node' && wb.kind === 'lb') return inbound(l, wa, a).reverse();
  if (wa.kind === 'node' && wb.kind === 'node') {
    if (wa.name === wb.name) {
      const g = lineOf(l, wa).gutter;
      return [a, { x: g, y: a.y }, { x: g, y: b.y }, b];
    }
    const down = toBus(l, wa, a);
    const up = toBus(l, wb, b).reverse();
    return [...down, ...up];
  }
  if (wa.kind === 'node' && wb.kind === 'network') return [...toBus(l, wa, a), b];
  if (wa.kind === 'network' && wb.kind === 'node') return [a, ...toBus(l, wb, b).reverse()];
  return [a, b];
}

function clientToLb(l: TopologyLayout, c: Point, lb: Point): Point[] {
  if (Math.abs(c.x - lb.x) < 1) return [c, lb];
  if (l.orientation === 'horizontal' && l.client && l.client.box.y + l.client.box.h < l.lb.box.y)
    return [c, { x: c.x, y: l.lb.box.y }];
  const mid = (c.x + lb.x) / 2;
  return [c, { x: mid, y: c.y }, { x: mid, y: lb.y }, lb];
}

/**
 * The room the packet card rests in when the packet is at `place`, and the x its middle aims
 * for: inside the cluster (horizontal stage with a band), the band under the cluster network,
 * below the packet's node (or the folded group, or the network's point); else the room under
 * the balancer.
 */
export function cardRoom(
  l: TopologyLayout,
  place: Place,
  cluster?: Cluster,
): { box: Box; aim?: number } {
  const band = l.cardBand;
  if (!band) return { box: l.card };
  const w = whereIs(l, place, cluster);
  if (w.kind === 'network') return { box: band, aim: l.anchors['network']?.x ?? band.x };
  if (w.kind !== 'node' || (w.name === 'fold' && !l.fold)) return { box: l.card };
  const { box } = lineOf(l, w);
  return { box: band, aim: box.x + box.w / 2 };
}

/** Where a card `w` px wide rests in its room: centred on the aim, kept inside the room. */
export function cardSlot(room: { box: Box; aim?: number }, w: number): Point {
  const { box, aim } = room;
  if (aim === undefined) return { x: box.x, y: box.y };
  const x = Math.min(Math.max(aim - w / 2, box.x), box.x + box.w - w);
  return { x: Math.max(box.x, x), y: box.y };
}

/**
 * The leader from the dot (at `dot`) to the resting card (`card`): a straight line to the
 * card's nearest edge point, or undefined when the dot is on or next to the card.
 */
export function cardLeader(dot: Point, card: Box): { a: Point; b: Point } | undefined {
  const b = {
    x: Math.min(Math.max(dot.x, card.x + 6), card.x + card.w - 6),
    y: Math.min(Math.max(dot.y, card.y), card.y + card.h),
  };
  if (Math.hypot(b.x - dot.x, b.y - dot.y) < 24) return undefined;
  return { a: dot, b };
}

/**
 * The nodes and Pods the trace passes, in the order it meets them: every step's `at`, `from`
 * and `to` (a Pod's node with it), the client's own node, and the delivering node.
 */
export function pathOf(
  trace: Trace,
  cluster: Cluster,
  clientName?: string,
): { nodes: string[]; pods: string[] } {
  const nodes: string[] = [];
  const pods: string[] = [];
  const addNode = (n: string | undefined) => {
    if (n && !nodes.includes(n)) nodes.push(n);
  };
  const client = cluster.clients.find((c) => c.name === clientName);
  addNode(client?.nodeName);
  if (client?.pod) pods.push(client.pod);
  for (const s of trace.steps)
    for (const p of [s.at, s.from, s.to]) {
      if (p.startsWith('node:')) addNode(p.slice(5));
      else if (p.startsWith('pod:')) {
        const key = p.slice(4);
        if (!pods.includes(key)) pods.push(key);
        addNode(cluster.pods.find((x) => `${x.namespace}/${x.name}` === key)?.nodeName);
      }
    }
  if (trace.outcome.kind === 'delivered') {
    addNode(trace.outcome.node);
    if (!pods.includes(trace.outcome.pod)) pods.push(trace.outcome.pod);
  }
  return { nodes, pods };
}
