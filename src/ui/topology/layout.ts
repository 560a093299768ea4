/**
 * The stage's geometry, as a pure function of the cluster, the traced path and the stage's
 * size in CSS px (1 SVG unit = 1 px; nothing is scaled down to fit, things fold instead).
 *
 * Horizontal (stage ≥ 700 px wide and room for the path's nodes): client and balancer on the
 * left, the cluster's nodes side by side, a trunk of wire lanes above them, the packet card's
 * band and the cluster network below. Vertical: client, balancer, card band, then the nodes
 * stacked. Nodes on the traced path are drawn in full, then others in cluster order while they
 * fit; the rest fold into one summary group, which expands into compact tiles below the cluster.
 */
import type { Cluster } from '../../model/scenario/cluster';
import type { Box, NodeLayout } from './nodeLayout';
import {
  SIDE_MIN_W,
  nodeMinWidth,
  statusWidth,
  nodeLayout,
  nodeMinHeight,
  sideNodeHeight,
  stackedHeight,
} from './nodeLayout';
import type { TextSlot } from './text';
import { lineHeight, slot, textWidth } from './text';

export type { Box, NodeLayout, PodLayout, MorePods, Badge } from './nodeLayout';

/** A point, px. */
export interface Point {
  x: number;
  y: number;
}

/** What the layout needs besides the cluster. */
export interface LayoutInput {
  cluster: Cluster;
  /** The stage's size, px. */
  width: number;
  height: number;
  /** The client whose place is drawn (an internet cloud, a host process, or a Pod). */
  clientName?: string | undefined;
  /** Nodes on the traced path, drawn in full whatever the size (see `pathOf`). */
  pathNodes?: readonly string[];
  /** `namespace/name` of Pods on the traced path (never folded into "+N Pods"). */
  pathPods?: readonly string[];
  /** The summary group shows every folded node as a tile. */
  expanded?: boolean;
  /** Nodes the scene failed (they show a "✗ down" badge rather than a status word). */
  failed?: readonly string[];
}

/** The folded nodes: one group that counts them, and (expanded) a tile per node. */
export interface FoldLayout {
  /** Names of the nodes not drawn in full, in cluster order. */
  names: string[];
  box: Box;
  /** Count line ("+97 nodes"), rotation line, failing line, button line. */
  lines: TextSlot[];
  button: Box;
  /** Present when expanded. */
  tiles?: TilesLayout;
}

/** The grid of compact node tiles (expanded summary group). */
export interface TilesLayout {
  box: Box;
  heading: TextSlot;
  hide: { box: Box; text: TextSlot };
  tiles: { name: string; box: Box; title: TextSlot; status: TextSlot; pods: TextSlot }[];
}

/** The whole stage. All coordinates px from the drawing's top-left. */
export interface TopologyLayout {
  orientation: 'horizontal' | 'vertical';
  /** The stage size the layout was made for. */
  width: number;
  height: number;
  /** The least stage height this drawing needs (the stage grows to it), px. */
  minHeight: number;
  /** The drawing's own extent (larger than the stage when tiles are expanded), px. */
  contentW: number;
  contentH: number;
  /** The internet client's cloud; undefined when the client sits inside a node. */
  client?: { box: Box; title: TextSlot; address: TextSlot; sub: TextSlot };
  lb: {
    box: Box;
    /** Title, address, ipMode, delivery, "health checks" heading. */
    header: TextSlot[];
    /** One health row per drawn node. */
    rows: { name: string; text: TextSlot; exit: Point }[];
    /** The folded nodes' one row. */
    foldRow?: { text: TextSlot; exit: Point };
  };
  cluster: Box;
  clusterLabel: TextSlot;
  /** The cluster network: a line below the nodes (horizontal) or down their right (vertical). */
  bus: { x1: number; y1: number; x2: number; y2: number; label: TextSlot };
  nodes: NodeLayout[];
  fold?: FoldLayout;
  /** Where the packet's header card rests (a band no text uses). */
  card: Box;
  /** The y of each drawn node's wire lane (horizontal: in the trunk; vertical: above it). */
  lanes: Record<string, number>;
  /** x of each drawn node's wire turn (horizontal: between balancer and cluster; vertical: left gutter). */
  turns: Record<string, number>;
  /** The anchor point of every place the trace can name. */
  anchors: Record<string, Point>;
}

const M = 12;
const T = 12;
const ROW = lineHeight(T) + 2;
/** Packet card: up to six 12 px lines. */
export const CARD_H = 6 * 17 + 14;
export const CARD_W = 300;
const GAP = 10;
const FOLD_W = 150;
const LB_PAD = 10;
/** Room the zoom buttons take at the stage's top-right corner (horizontal), px. */
const ZOOM_W = 130;
/** Below this stage width the drawing is vertical. */
export const VERTICAL_BELOW = 700;

const left = (b: Box): Point => ({ x: b.x, y: b.y + b.h / 2 });

/** Lays out the stage; see the module comment. */
export function layout(input: LayoutInput): TopologyLayout {
  const { cluster } = input;
  const width = Math.max(320, input.width);
  const height = Math.max(200, input.height);
  const client = cluster.clients.find((c) => c.name === input.clientName);
  const path = [...new Set(input.pathNodes ?? [])].filter((n) =>
    cluster.nodes.some((c) => c.name === n),
  );
  const hostNode = client?.location === 'Node' ? client.nodeName : undefined;
  const internet = !client || (client.location !== 'Node' && client.location !== 'Pod');
  const wide = width >= 1100;
  // Horizontal geometry: left columns, then the cluster.
  const lbW = wide ? 220 : 200;
  const lbX = wide ? M + 132 : M;
  const clusterX = lbX + lbW + 36;
  const innerW = width - M - clusterX - 2 * GAP;
  const total = cluster.nodes.length;
  const statusW = statusWidth(cluster.nodes, input.failed ?? []);
  const longestIP = cluster.nodes.reduce(
    (a, n) => (n.internalIP.length > a.length ? n.internalIP : a),
    '',
  );
  const minW = nodeMinWidth(longestIP, statusW);
  const fitH = (withFold: boolean) =>
    Math.floor((innerW - (withFold ? FOLD_W + GAP : 0) + GAP) / (minW + GAP));
  const horizontal =
    width >= VERTICAL_BELOW && (total <= fitH(false) || fitH(true) >= Math.max(1, path.length));
  return horizontal
    ? horizontalLayout(input, {
        width,
        height,
        lbW,
        lbX,
        clusterX,
        innerW,
        wide,
        path,
        internet,
        hostNode,
        fitH,
        statusW,
      })
    : verticalLayout(input, { width, path, internet, hostNode, statusW });
}

/** Which nodes are drawn: the path's, then others in cluster order, up to `max` (at least the path). */
function pickNodes(cluster: Cluster, path: readonly string[], max: number): string[] {
  const chosen = new Set(path);
  for (const n of cluster.nodes) {
    if (chosen.size >= max) break;
    chosen.add(n.name);
  }
  return cluster.nodes.map((n) => n.name).filter((n) => chosen.has(n));
}

function clientParts(box: Box, textBeside: boolean) {
  const tx = textBeside ? box.x + box.w + 8 : box.x;
  const ty = textBeside ? box.y + 6 : box.y + box.h + 4;
  const tw = textBeside ? 150 : box.w + 10;
  return {
    box,
    title: slot(box.x + 8, box.y + box.h / 2 - 6, box.w - 16, 13, {
      bold: true,
      anchor: 'middle' as const,
    }),
    address: slot(tx, ty, tw, T, {
      mono: true,
      anchor: textBeside ? ('start' as const) : ('middle' as const),
    }),
    sub: slot(tx, ty + ROW, tw, T, {
      anchor: textBeside ? ('start' as const) : ('middle' as const),
    }),
  };
}

function lbHeader(x: number, y: number, w: number): TextSlot[] {
  return [
    slot(x + LB_PAD, y + 8, w - 2 * LB_PAD, 13, { bold: true }),
    slot(x + LB_PAD, y + 8 + ROW + 2, w - 2 * LB_PAD, T, { mono: true }),
    slot(x + LB_PAD, y + 8 + 2 * ROW + 2, w - 2 * LB_PAD, T),
    slot(x + LB_PAD, y + 8 + 3 * ROW + 2, w - 2 * LB_PAD, T),
    slot(x + LB_PAD, y + 8 + 4 * ROW + 6, w - 2 * LB_PAD, T),
  ];
}
const LB_HEADER_H = 8 + 5 * ROW + 6;

function foldParts(names: string[], box: Box, vertical: boolean): Omit<FoldLayout, 'tiles'> {
  const { x, y, w } = box;
  const bw = Math.min(w - 16, textWidth('▴ Hide tiles', T, true) + 16);
  if (vertical)
    return {
      names,
      box,
      lines: [
        slot(x + 10, y + 6, w - 20 - bw - 8, 13, { bold: true }),
        slot(x + 10, y + 6 + ROW + 2, w - 20, T),
        slot(x + 10, y + 6 + 2 * ROW + 2, w - 20, T),
        slot(x + w - 8 - bw + 8, y + 8, bw - 16, T, { bold: true, anchor: 'middle' }),
      ],
      button: { x: x + w - 8 - bw, y: y + 4, w: bw, h: 22 },
    };
  return {
    names,
    box,
    lines: [
      slot(x + 10, y + 14, w - 20, 13, { bold: true }),
      slot(x + 10, y + 14 + ROW + 4, w - 20, T),
      slot(x + 10, y + 14 + 2 * ROW + 4, w - 20, T),
      slot(x + 16, y + 14 + 3 * ROW + 13, w - 32, T, { bold: true, anchor: 'middle' }),
    ],
    button: { x: x + 8, y: y + 14 + 3 * ROW + 8, w: w - 16, h: 26 },
  };
}

function tilesLayout(names: string[], x: number, y: number, w: number): TilesLayout {
  const TW = 176;
  const TH = 48;
  const cols = Math.max(1, Math.floor((w - 16 + 8) / (TW + 8)));
  const hideW = textWidth('▴ Hide', T, true) + 20;
  const tiles = names.map((name, i) => {
    const tx = x + 8 + (i % cols) * (TW + 8);
    const ty = y + 40 + Math.floor(i / cols) * (TH + 8);
    return {
      name,
      box: { x: tx, y: ty, w: TW, h: TH },
      title: slot(tx + 8, ty + 6, TW - 16, T, { bold: true }),
      status: slot(tx + 8, ty + 6 + ROW + 2, 96, T),
      pods: slot(tx + 8 + 100, ty + 6 + ROW + 2, TW - 16 - 100, T, { anchor: 'end' }),
    };
  });
  const rows = Math.ceil(names.length / cols);
  return {
    box: { x, y, w, h: 40 + rows * (TH + 8) + 4 },
    heading: slot(x + 8, y + 12, w - 16 - hideW - 12, 13, { bold: true }),
    hide: {
      box: { x: x + w - 8 - hideW, y: y + 8, w: hideW, h: 24 },
      text: slot(x + w - 8 - hideW + 10, y + 12, hideW - 20, T, { bold: true, anchor: 'middle' }),
    },
    tiles,
  };
}

interface HCtx {
  width: number;
  height: number;
  lbW: number;
  lbX: number;
  clusterX: number;
  innerW: number;
  wide: boolean;
  path: string[];
  internet: boolean;
  hostNode: string | undefined;
  fitH: (withFold: boolean) => number;
  statusW: number;
}

function horizontalLayout(input: LayoutInput, c: HCtx): TopologyLayout {
  const { cluster } = input;
  const { width, lbW, lbX, clusterX, innerW } = c;
  const total = cluster.nodes.length;
  const nodePort = nodePortOf(cluster);
  const clientBox = c.internet
    ? clientParts(
        c.wide ? { x: M, y: M + 34, w: 112, h: 52 } : { x: M, y: M, w: 80, h: 44 },
        !c.wide,
      )
    : undefined;
  const lbY = c.wide || !clientBox ? M + 34 : M + 44 + 18;
  // The height: at least what one node needs and what the balancer, two of its rows and the
  // packet card under it need, whatever the stage says.
  const minNodeH = nodeMinHeight(c.hostNode !== undefined);
  const clusterY = M;
  // The zoom buttons sit over the cluster's top-right corner: the label stops short of them.
  const clusterLabel = slot(clusterX + 12, clusterY + 8, width - M - clusterX - 24 - ZOOM_W, T);
  const laneTop = clusterY + 8 + lineHeight(T) + 10;
  // As many nodes as the width holds (the path's always); the balancer lists each.
  let count = total <= c.fitH(false) ? total : c.fitH(true);
  count = Math.max(count, c.path.length, 1);
  const drawn = pickNodes(cluster, c.path, count);
  const folded = cluster.nodes.map((n) => n.name).filter((n) => !drawn.includes(n));
  const rows = drawn.length + (folded.length ? 1 : 0);
  const BUS_ROOM = 30;
  const minHeight = Math.max(
    laneTop + rows * 5 + 14 + minNodeH + 12 + BUS_ROOM + M,
    lbY + LB_HEADER_H + rows * ROW + 8 + 10 + CARD_H + M,
  );
  const height = Math.max(c.height, minHeight);
  const busY = height - M - BUS_ROOM;
  const lanesN = drawn.length + (folded.length ? 1 : 0);
  const laneStep = 5;
  const nodesTop = laneTop + lanesN * laneStep + 14;
  const nodeBottom = busY - 12;
  const foldW = folded.length ? FOLD_W : 0;
  const nodeW = Math.min(
    280,
    (innerW - (folded.length ? foldW + GAP : 0) - (drawn.length - 1) * GAP) / drawn.length,
  );
  const onPath = new Set(input.pathPods ?? []);
  const lanes: Record<string, number> = {};
  const turns: Record<string, number> = {};
  const turnStep = Math.min(5, 30 / Math.max(1, lanesN));
  const nodes = drawn.map((name, index) => {
    const x = clusterX + GAP + index * (nodeW + GAP);
    lanes[name] = laneTop + index * laneStep;
    turns[name] = lbX + lbW + 8 + index * turnStep;
    return nodeLayout({
      name,
      index,
      box: { x, y: nodesTop, w: nodeW, h: nodeBottom - nodesTop },
      pods: cluster.pods.filter((p) => p.nodeName === name),
      onPath,
      nodePort,
      host: name === c.hostNode,
      statusW: c.statusW,
    });
  });
  let fold: FoldLayout | undefined;
  if (folded.length) {
    const fx = clusterX + GAP + drawn.length * (nodeW + GAP);
    lanes['fold'] = laneTop + drawn.length * laneStep;
    turns['fold'] = lbX + lbW + 8 + drawn.length * turnStep;
    fold = foldParts(folded, { x: fx, y: nodesTop, w: foldW, h: nodeBottom - nodesTop }, false);
  }
  const clusterBox: Box = {
    x: clusterX,
    y: clusterY,
    w: width - M - clusterX,
    h: height - M - clusterY,
  };
  const lb = lbParts(lbX, lbY, lbW, drawn, folded.length > 0);
  // The packet card rests under the balancer, left of the cluster, where no text is.
  const cardW = Math.min(320, clusterX - 8 - M);
  const card: Box = { x: M, y: lb.box.y + lb.box.h + 10, w: cardW, h: CARD_H };
  let contentH = height;
  if (fold && input.expanded) {
    fold.tiles = tilesLayout(folded, M, height + 4, width - 2 * M);
    contentH = fold.tiles.box.y + fold.tiles.box.h + M;
  }
  const bus = {
    x1: clusterX + 10,
    y1: busY,
    x2: width - M - 10,
    y2: busY,
    label: slot(clusterX + 14, busY + 6, 200, T),
  };
  return finish(
    {
      orientation: 'horizontal',
      width,
      height,
      minHeight,
      contentW: width,
      contentH,
      ...(clientBox ? { client: clientBox } : {}),
      lb,
      cluster: clusterBox,
      clusterLabel,
      bus,
      nodes,
      ...(fold ? { fold } : {}),
      card,
      lanes,
      turns,
      anchors: {},
    },
    input,
  );
}

function lbParts(
  x: number,
  y: number,
  w: number,
  drawn: string[],
  folded: boolean,
): TopologyLayout['lb'] {
  const rowsTop = y + LB_HEADER_H;
  const rows = drawn.map((name, i) => ({
    name,
    text: slot(x + LB_PAD, rowsTop + i * ROW, w - 2 * LB_PAD, T),
    exit: { x: x + w, y: rowsTop + i * ROW + ROW / 2 - 1 },
  }));
  const n = drawn.length + (folded ? 1 : 0);
  const box = { x, y, w, h: LB_HEADER_H + n * ROW + 8 };
  if (!folded) return { box, header: lbHeader(x, y, w), rows };
  const fy = rowsTop + drawn.length * ROW;
  return {
    box,
    header: lbHeader(x, y, w),
    rows,
    foldRow: {
      text: slot(x + LB_PAD, fy, w - 2 * LB_PAD, T),
      exit: { x: x + w, y: fy + ROW / 2 - 1 },
    },
  };
}

function nodePortOf(cluster: Cluster): number {
  return cluster.services[0]?.ports[0]?.nodePort ?? 0;
}

interface VCtx {
  width: number;
  path: string[];
  internet: boolean;
  hostNode: string | undefined;
  statusW: number;
}

/** Nodes drawn in full on a narrow stage (the path's first). */
const VERTICAL_NODES = 3;

function verticalLayout(input: LayoutInput, c: VCtx): TopologyLayout {
  const { cluster } = input;
  const width = c.width;
  const nodePort = nodePortOf(cluster);
  const clientBox = c.internet ? clientParts({ x: M, y: M, w: 84, h: 50 }, true) : undefined;
  const lbY = clientBox ? M + 50 + 26 : M;
  const drawn = pickNodes(cluster, c.path, Math.max(VERTICAL_NODES, c.path.length));
  const folded = cluster.nodes.map((n) => n.name).filter((n) => !drawn.includes(n));
  const lb = lbParts(M, lbY, width - 2 * M, drawn, folded.length > 0);
  const cardY = lb.box.y + lb.box.h + 12;
  const card: Box = { x: M, y: cardY, w: width - 2 * M, h: CARD_H };
  const clusterY = cardY + CARD_H + 12;
  const clusterX = M;
  const clusterW = width - 2 * M;
  const lanesN = drawn.length + (folded.length ? 1 : 0);
  const gutterW = 8 + lanesN * 5;
  const nodeX = clusterX + 6 + gutterW;
  const busX = clusterX + clusterW - 10;
  const nodeW = busX - 12 - nodeX;
  const onPath = new Set(input.pathPods ?? []);
  const lanes: Record<string, number> = {};
  const turns: Record<string, number> = {};
  let y = clusterY + 8 + lineHeight(T) + 30;
  const nodes = drawn.map((name, index) => {
    const host = name === c.hostNode;
    const pods = cluster.pods.filter((p) => p.nodeName === name).length;
    const h = nodeW >= SIDE_MIN_W ? sideNodeHeight(host) : stackedHeight(pods, host);
    const n = nodeLayout({
      name,
      index,
      box: { x: nodeX, y, w: nodeW, h },
      pods: cluster.pods.filter((p) => p.nodeName === name),
      onPath,
      nodePort,
      host,
      statusW: c.statusW,
    });
    lanes[name] = y - 18;
    turns[name] = clusterX + 8 + index * 5;
    y += h + 30;
    return n;
  });
  let fold: FoldLayout | undefined;
  if (folded.length) {
    lanes['fold'] = y - 18;
    turns['fold'] = clusterX + 8 + drawn.length * 5;
    fold = foldParts(folded, { x: nodeX, y, w: nodeW, h: 3 * ROW + 14 }, true);
    y += fold.box.h + 16;
  }
  const busLabel = slot(nodeX, y, nodeW, T);
  const clusterH = y + lineHeight(T) + 10 - clusterY;
  const height = clusterY + clusterH + M;
  let contentH = height;
  if (fold && input.expanded) {
    fold.tiles = tilesLayout(folded, M, height + 4, width - 2 * M);
    contentH = fold.tiles.box.y + fold.tiles.box.h + M;
  }
  return finish(
    {
      orientation: 'vertical',
      width,
      height,
      minHeight: height,
      contentW: width,
      contentH,
      ...(clientBox ? { client: clientBox } : {}),
      lb,
      cluster: { x: clusterX, y: clusterY, w: clusterW, h: clusterH },
      clusterLabel: slot(nodeX, clusterY + 8, busX - 12 - nodeX, T),
      bus: { x1: busX, y1: clusterY + 30, x2: busX, y2: y - 8, label: busLabel },
      nodes,
      ...(fold ? { fold } : {}),
      card,
      lanes,
      turns,
      anchors: {},
    },
    input,
  );
}

/** Fills in the anchors of every place. */
function finish(l: TopologyLayout, input: LayoutInput): TopologyLayout {
  const a: Record<string, Point> = {};
  // The packet meets the balancer where the client's wire does: its top when the client sits
  // above it (vertical, and narrow horizontal), else its left side.
  const above = l.client && l.client.box.y + l.client.box.h < l.lb.box.y;
  a['lb'] =
    above && l.client ? { x: l.client.box.x + l.client.box.w / 2, y: l.lb.box.y } : left(l.lb.box);
  a['network'] =
    l.orientation === 'horizontal'
      ? { x: (l.bus.x1 + l.bus.x2) / 2, y: l.bus.y1 }
      : { x: l.bus.x1, y: (l.bus.y1 + l.bus.y2) / 2 };
  for (const n of l.nodes) {
    a[`node:${n.name}`] = left(n.kubeProxy);
    for (const p of n.pods) a[`pod:${p.key}`] = left(p.box);
    if (n.morePods) for (const k of n.morePods.keys) a[`pod:${k}`] = left(n.morePods.box);
  }
  if (l.fold) {
    const foldedSet = new Set(l.fold.names);
    const fa = { x: l.fold.box.x, y: l.fold.box.y + Math.min(40, l.fold.box.h / 2) };
    for (const name of l.fold.names) a[`node:${name}`] = fa;
    for (const p of input.cluster.pods)
      if (p.nodeName && foldedSet.has(p.nodeName)) a[`pod:${p.namespace}/${p.name}`] = fa;
  }
  const client = input.cluster.clients.find((c) => c.name === input.clientName);
  if (client?.location === 'Node') {
    const host = l.nodes.find((n) => n.name === client.nodeName)?.host;
    if (host) a['client'] = left(host.box);
  } else if (client?.location === 'Pod' && client.pod && a[`pod:${client.pod}`]) {
    a['client'] = a[`pod:${client.pod}`]!;
  }
  if (!a['client'] && l.client) {
    const b = l.client.box;
    a['client'] =
      l.orientation === 'horizontal' && b.y + b.h < l.lb.box.y
        ? { x: b.x + b.w / 2, y: b.y + b.h }
        : l.orientation === 'horizontal'
          ? { x: b.x + b.w, y: b.y + b.h / 2 }
          : { x: b.x + b.w / 2, y: b.y + b.h };
  }
  if (!a['client']) a['client'] = a['lb']!;
  return { ...l, anchors: a };
}

/** The anchor of a place, or undefined for a place this layout does not know. */
export function anchorOf(l: TopologyLayout, place: string): Point | undefined {
  return l.anchors[place];
}
