/**
 * Topology geometry, as a pure function of the cluster and the drawing size: left to right,
 * the client (the internet), the cloud load balancer, and the cluster box with its nodes side
 * by side, each holding a kube-proxy box and its pods, above the cluster network. Places the
 * trace names (`client`, `lb`, `network`, `node:…`, `pod:…`) get an anchor point; `route`
 * gives the path a packet takes between two of them.
 */
import { scaleBand } from 'd3-scale';
import type { Cluster, ClusterPod } from '../../model/scenario/cluster';
import type { Place } from '../../model/trace/types';

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PodLayout {
  /** `namespace/name` */
  key: string;
  pod: ClusterPod;
  box: Box;
  /**
   * One line (name, IP, a ✓/✗) instead of two: the node has more Pods than two-line boxes fit.
   * `nameChars`/`showIP` say how much of the line there is room for.
   */
  compact?: { nameChars: number; showIP: boolean };
}

/** Pods a node has no room to draw: one box that counts them (their places anchor there). */
export interface MorePods {
  box: Box;
  keys: string[];
}

export interface NodeLayout {
  name: string;
  index: number;
  box: Box;
  nodePortBadge: Box;
  kubeProxy: Box;
  /** A host-network client drawn inside this node (client location Node). */
  host?: Box;
  pods: PodLayout[];
  /** Pods left out for lack of room (drawn as "+N more"). */
  morePods?: MorePods;
  /** How many characters of the node's name fit its title (longer names are shortened). */
  titleChars: number;
}

export interface TopologyLayout {
  width: number;
  height: number;
  /** The internet client's cloud; undefined when the client sits inside a node. */
  client?: Box;
  lb: Box;
  /** Where each node's edge leaves the balancer (one row per target). */
  lbExits: Record<string, Point>;
  cluster: Box;
  bus: { x1: number; x2: number; y: number };
  nodes: NodeLayout[];
  /** The anchor point of every place. */
  anchors: Record<string, Point>;
  /** The y of the lane each node's inbound edge runs along above the nodes. */
  lanes: Record<string, number>;
}

export const centre = (b: Box): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

const PAD = 8;
const NODE_HEADER = 46;
/** The header grows by a row when a node's name and its NodePort badge do not fit side by side. */
const BADGE_ROW = 16;
const KP_HEIGHT = 44;
const HOST_HEIGHT = 30;
const POD_MAX = 46;
/** A two-line Pod box (name; IP and readiness) needs this much height. */
const POD_FULL_MIN = 38;
/** A one-line Pod box. */
const POD_COMPACT_H = 18;
const POD_GAP = 4;
const BADGE_W = 98;
/**
 * Average advance of a character, a little wide, in DejaVu Sans (the widest of the default
 * fonts): the node title (13 px bold), 11 px text and 11 px monospace.
 */
const TITLE_CHAR_W = 9.4;
const SMALL_CHAR_W = 6.4;
const MONO_CHAR_W = 6.7;

/**
 * Lays out a node's Pods between `top` and `bottom`: two-line boxes when they fit, else
 * one-line boxes, else as many one-line boxes as fit and a last "+N more" box.
 */
function podBoxes(
  pods: readonly ClusterPod[],
  x: number,
  w: number,
  top: number,
  bottom: number,
): { pods: PodLayout[]; more?: MorePods } {
  const keyOf = (p: ClusterPod) => `${p.namespace}/${p.name}`;
  const avail = bottom - top;
  const n = pods.length;
  const inner = { x: x + 8, w: w - 16 };
  if (n * POD_FULL_MIN + (n - 1) * POD_GAP <= avail) {
    const band = scaleBand<string>()
      .domain(pods.map(keyOf))
      .range([top, bottom])
      .paddingInner(0.12);
    const h = Math.min(band.bandwidth(), POD_MAX);
    return {
      pods: pods.map((pod) => ({
        key: keyOf(pod),
        pod,
        box: { ...inner, y: band(keyOf(pod)) ?? top, h },
      })),
    };
  }
  const rows = Math.max(1, Math.floor((avail + POD_GAP) / (POD_COMPACT_H + POD_GAP)));
  const shown = n <= rows ? n : rows - 1;
  const step = POD_COMPACT_H + POD_GAP;
  const line = (pod: ClusterPod): NonNullable<PodLayout['compact']> => {
    // name … IP ✓ on one line: the glyph takes ~12 px, the IP its characters, gaps 16 px.
    const withIP = inner.w - 16 - 12 - pod.ip.length * MONO_CHAR_W - 8;
    const showIP = withIP >= 6 * SMALL_CHAR_W;
    const room = showIP ? withIP : inner.w - 16 - 12;
    return { nameChars: Math.max(3, Math.floor(room / SMALL_CHAR_W)), showIP };
  };
  const out: PodLayout[] = pods.slice(0, shown).map((pod, i) => ({
    key: keyOf(pod),
    pod,
    box: { ...inner, y: top + i * step, h: POD_COMPACT_H },
    compact: line(pod),
  }));
  if (shown === n) return { pods: out };
  return {
    pods: out,
    more: {
      box: { ...inner, y: top + shown * step, h: POD_COMPACT_H },
      keys: pods.slice(shown).map(keyOf),
    },
  };
}
/** The balancer's text lines above its per-target rows (name, address, ipMode, delivery, heading). */
export const LB_HEADER = 90;
/** Room kept free at the bottom of each node for the packet's label. */
export const LABEL_ROOM = 62;

/**
 * Computes the topology for `cluster` in a `width`×`height` drawing. `clientName` picks the
 * client whose place is drawn (an internet cloud, a host process in a node, or a pod).
 */
export function layout(
  cluster: Cluster,
  width: number,
  height: number,
  clientName?: string,
): TopologyLayout {
  /** A fraction of the width (columns: client 0–0.095, balancer 0.108–0.305, cluster 0.33–1). */
  const fx = (f: number) => f * width;
  const client = cluster.clients.find((c) => c.name === clientName);
  const clusterBox: Box = { x: fx(0.33), y: PAD, w: width - PAD - fx(0.33), h: height - 2 * PAD };
  const bus = { x1: clusterBox.x + 12, x2: clusterBox.x + clusterBox.w - 12, y: height - 40 };
  const nodeTop = clusterBox.y + 48;
  const nodeBottom = bus.y - 18;

  const names = cluster.nodes.map((n) => n.name);
  const band = scaleBand<string>()
    .domain(names)
    .range([clusterBox.x + 12, clusterBox.x + clusterBox.w - 12])
    .paddingInner(0.06);

  const lanes: Record<string, number> = {};
  const laneStep = names.length > 1 ? Math.min(9, 26 / (names.length - 1)) : 0;
  names.forEach((name, i) => (lanes[name] = clusterBox.y + 16 + i * laneStep));

  // Every node's title sits left of its NodePort badge, unless the longest name does not fit
  // there: then the badge gets a row of its own under the address (all nodes alike).
  const nodeW = band.bandwidth();
  const besideBadge = nodeW - 8 - 8 - BADGE_W - 6;
  const longest = Math.max(0, ...names.map((nm) => nm.length));
  const badgeRow = longest * TITLE_CHAR_W > besideBadge;
  const titleChars = Math.max(4, Math.floor((badgeRow ? nodeW - 16 : besideBadge) / TITLE_CHAR_W));
  const header = NODE_HEADER + (badgeRow ? BADGE_ROW : 0);

  const nodes: NodeLayout[] = cluster.nodes.map((n, index) => {
    const x = band(n.name) ?? 0;
    const w = nodeW;
    const box: Box = { x, y: nodeTop, w, h: nodeBottom - nodeTop };
    const kubeProxy: Box = { x: x + 8, y: nodeTop + header, w: w - 16, h: KP_HEIGHT };
    const nodePortBadge: Box = badgeRow
      ? { x: x + 8, y: nodeTop + 40, w: BADGE_W, h: 18 }
      : { x: x + w - BADGE_W - 6, y: nodeTop + 6, w: BADGE_W, h: 18 };
    let top = kubeProxy.y + KP_HEIGHT + 10;
    let host: Box | undefined;
    if (client?.location === 'Node' && client.nodeName === n.name) {
      host = { x: x + 8, y: top, w: w - 16, h: HOST_HEIGHT };
      top += HOST_HEIGHT + 8;
    }
    const placed = podBoxes(
      cluster.pods.filter((p) => p.nodeName === n.name),
      x,
      w,
      top,
      nodeBottom - LABEL_ROOM,
    );
    return {
      name: n.name,
      index,
      box,
      nodePortBadge,
      kubeProxy,
      ...(host ? { host } : {}),
      pods: placed.pods,
      ...(placed.more ? { morePods: placed.more } : {}),
      titleChars,
    };
  });

  // Wide enough for its longest line ("delivers to NodePort :31000", "EXTERNAL-IP <pending>")
  // in a wide sans-serif (DejaVu Sans), with room for five text lines above the target rows.
  const lbRowsTop = nodeTop + LB_HEADER + 6;
  const lb: Box = {
    x: fx(0.108),
    y: nodeTop,
    w: fx(0.305) - fx(0.108),
    h: LB_HEADER + Math.max(1, names.length) * 20,
  };
  const lbExits: Record<string, Point> = {};
  names.forEach((name, i) => (lbExits[name] = { x: lb.x + lb.w, y: lbRowsTop + i * 20 }));

  const anchors: Record<string, Point> = {
    lb: centre(lb),
    network: { x: (bus.x1 + bus.x2) / 2, y: bus.y },
  };
  for (const n of nodes) {
    anchors[`node:${n.name}`] = centre(n.kubeProxy);
    for (const p of n.pods) anchors[`pod:${p.key}`] = centre(p.box);
    if (n.morePods) for (const k of n.morePods.keys) anchors[`pod:${k}`] = centre(n.morePods.box);
  }
  let clientBox: Box | undefined;
  if (client?.location === 'Node') {
    const host = nodes.find((n) => n.name === client.nodeName)?.host;
    if (host) anchors['client'] = { x: host.x + host.w - 14, y: host.y + host.h / 2 };
  } else if (client?.location === 'Pod' && anchors[`pod:${client.pod ?? ''}`]) {
    anchors['client'] = anchors[`pod:${client.pod ?? ''}`]!;
  }
  if (!anchors['client']) {
    clientBox = { x: PAD, y: lb.y + lb.h + 10, w: fx(0.095) - PAD, h: 64 };
    anchors['client'] = {
      x: clientBox.x + clientBox.w * 0.88,
      y: clientBox.y + clientBox.h * 0.62,
    };
  }

  return {
    width,
    height,
    ...(clientBox ? { client: clientBox } : {}),
    lb,
    lbExits,
    cluster: clusterBox,
    bus,
    nodes,
    anchors,
    lanes,
  };
}

/** The anchor of a place, or undefined for a place this layout does not know. */
export function anchorOf(l: TopologyLayout, place: Place): Point | undefined {
  return l.anchors[place];
}

type Where = { kind: 'outside' } | { kind: 'network' } | { kind: 'inside'; node: NodeLayout };

function whereIs(l: TopologyLayout, place: Place): Where {
  if (place === 'network') return { kind: 'network' };
  if (place === 'lb' || (place === 'client' && l.client)) return { kind: 'outside' };
  const p = l.anchors[place];
  const node = p && l.nodes.find((n) => p.x >= n.box.x && p.x <= n.box.x + n.box.w);
  return node ? { kind: 'inside', node } : { kind: 'outside' };
}

/** From an outside place (client or balancer) down the node's lane into the node, to `end`. */
function inbound(l: TopologyLayout, from: Place, node: NodeLayout, end: Point): Point[] {
  const a = l.anchors[from] ?? centre(l.lb);
  const lane = l.lanes[node.name] ?? l.cluster.y + 16;
  const turnX = l.cluster.x - 14 + node.index * 4;
  const cx = node.box.x + node.box.w / 2;
  const head =
    from === 'lb'
      ? [a, l.lbExits[node.name] ?? a, { x: turnX, y: (l.lbExits[node.name] ?? a).y }]
      : [a, { x: turnX, y: a.y }];
  return [...head, { x: turnX, y: lane }, { x: cx, y: lane }, { x: cx, y: node.box.y }, end];
}

function viaBus(l: TopologyLayout, a: Point, from: NodeLayout, to: NodeLayout, b: Point): Point[] {
  const fx = from.box.x + from.box.w / 2;
  const tx = to.box.x + to.box.w / 2;
  return [a, { x: fx, y: l.bus.y }, { x: tx, y: l.bus.y }, b];
}

/**
 * The points of the path from `from` to `to`: it starts at `from`'s anchor and ends at
 * `to`'s (a single point when they are the same place).
 */
export function route(l: TopologyLayout, from: Place, to: Place): Point[] {
  const a = l.anchors[from];
  const b = l.anchors[to];
  if (!a || !b) return [];
  if (from === to) return [a];
  const wa = whereIs(l, from);
  const wb = whereIs(l, to);
  if (wa.kind === 'outside' && wb.kind === 'outside') {
    const client = l.client;
    if (!client) return [a, b];
    const c = from === 'client' ? a : b;
    const lbPoint = from === 'client' ? b : a;
    const x = l.lb.x - 9;
    const path = [c, { x, y: c.y }, { x, y: lbPoint.y }, lbPoint];
    return from === 'client' ? path : path.reverse();
  }
  if (wa.kind === 'outside' && wb.kind === 'inside') return inbound(l, from, wb.node, b);
  if (wa.kind === 'inside' && wb.kind === 'outside') return inbound(l, to, wa.node, a).reverse();
  if (wa.kind === 'inside' && wb.kind === 'inside')
    return wa.node === wb.node ? [a, b] : viaBus(l, a, wa.node, wb.node, b);
  if (wa.kind === 'inside' && wb.kind === 'network')
    return [a, { x: wa.node.box.x + wa.node.box.w / 2, y: l.bus.y }, b];
  if (wa.kind === 'network' && wb.kind === 'inside')
    return [a, { x: wb.node.box.x + wb.node.box.w / 2, y: l.bus.y }, b];
  return [a, b];
}

/**
 * Where the packet's label sits (its top-left corner) when the packet is at `place`: in the
 * free room at the bottom of a node, under the balancer, under the client, above the network.
 */
export function labelSlot(l: TopologyLayout, place: Place, w: number, h: number): Point {
  const clampX = (x: number) => Math.max(2, Math.min(x, l.width - w - 2));
  const where = whereIs(l, place);
  if (where.kind === 'inside') {
    const n = where.node.box;
    return { x: clampX(n.x + (n.w - w) / 2), y: n.y + n.h - h - 6 };
  }
  if (where.kind === 'network')
    return { x: clampX((l.bus.x1 + l.bus.x2 - w) / 2), y: l.bus.y - h - 24 };
  if (place === 'client' && l.client)
    return { x: clampX(l.client.x), y: l.client.y + l.client.h + 28 };
  return { x: clampX(l.lb.x), y: l.lb.y + l.lb.h + 8 };
}
