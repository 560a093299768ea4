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
import {
  SIDE_MIN_W,
  nodeLayout,
  nodeMinHeight,
  nodeMinWidth,
  sideContentHeight,
  stackedContentHeight,
  stackedHeight,
  statusWidth,
} from './nodeLayout';
import type { Box } from './nodeLayout';
import type { FoldLayout, LayoutInput, TopologyLayout } from './layoutTypes';
import {
  CARD_H,
  FOLD_W,
  GAP,
  LB_HEADER_H,
  M,
  ROW,
  T,
  VERTICAL_BELOW,
  ZOOM_W,
  clientParts,
  finish,
  foldParts,
  lbParts,
  nodePortOf,
  pickNodes,
  tilesLayout,
} from './layoutParts';
import { lineHeight, slot, textWidth } from './text';

/** From the cluster network's line to the top of the packet card's band under it, px. */
const BAND_GAP = 10;

export type { Box, NodeLayout, PodLayout, MorePods, Badge } from './nodeLayout';
export type * from './layoutTypes';
export { CARD_H, VERTICAL_BELOW, anchorOf } from './layoutParts';

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
  const lanesN = drawn.length + (folded.length ? 1 : 0);
  const laneStep = 5;
  const nodesTop = laneTop + lanesN * laneStep + 14;
  // Nodes are as tall as their content (the most Pods any drawn node has, all the same
  // height), the cluster network just under them, and the packet card's band under that when
  // the stage has the room (else the nodes take the height and the card rests under the
  // balancer).
  const need = Math.max(
    ...drawn.map((name) =>
      stackedContentHeight(
        cluster.pods.filter((p) => p.nodeName === name).length,
        name === c.hostNode,
      ),
    ),
  );
  const full = height - M - BUS_ROOM - 12 - nodesTop;
  const withBand = height - M - CARD_H - BAND_GAP - 12 - nodesTop;
  const nodeH = Math.min(need, withBand >= minNodeH ? withBand : full);
  const nodeBottom = nodesTop + nodeH;
  const busY = nodeBottom + 12;
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
  const lb = lbParts(lbX, lbY, lbW, drawn, folded.length > 0);
  // The packet card rests under the balancer, left of the cluster, where no text is, while the
  // packet is at the client or the balancer (or when the stage has no band under the nodes).
  const cardW = Math.min(320, clusterX - 8 - M);
  const card: Box = { x: M, y: lb.box.y + lb.box.h + 10, w: cardW, h: CARD_H };
  const bandY = busY + BAND_GAP;
  const cardBand: Box | undefined =
    height - M - bandY >= CARD_H
      ? { x: clusterX + 10, y: bandY, w: width - M - 10 - clusterX - 10, h: CARD_H }
      : undefined;
  // The cluster's frame ends under the card's band (a tall stage leaves its foot empty rather
  // than a well of empty cluster).
  const clusterBottom = cardBand ? cardBand.y + cardBand.h + 10 : height - M;
  const clusterBox: Box = {
    x: clusterX,
    y: clusterY,
    w: width - M - clusterX,
    h: clusterBottom - clusterY,
  };
  let contentH = height;
  if (fold && input.expanded) {
    fold.tiles = tilesLayout(folded, M, height + 4, width - 2 * M);
    contentH = fold.tiles.box.y + fold.tiles.box.h + M;
  }
  // The label ends the bus on its right, on its line, so the card's band starts just under it.
  const busLabelW = textWidth('cluster network', T) + 2;
  const bus = {
    x1: clusterX + 10,
    y1: busY,
    x2: width - M - 10 - busLabelW - 8,
    y2: busY,
    label: slot(width - M - 10 - busLabelW, busY - lineHeight(T) / 2, busLabelW, T),
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
      ...(cardBand ? { cardBand } : {}),
      lanes,
      turns,
      anchors: {},
    },
    input,
  );
}

interface VCtx {
  width: number;
  path: string[];
  internet: boolean;
  hostNode: string | undefined;
  statusW: number;
}

/** Nodes drawn in full on a narrow stage (the path's first). */
const VERTICAL_NODES = 2;
/** From this width (vertical) the packet card sits beside the balancer, px. */
const CARD_BESIDE_FROM = 480;
/** Room between stacked nodes (a node's link to the network, then the next one's lane), px. */
const V_GAP = 24;

function verticalLayout(input: LayoutInput, c: VCtx): TopologyLayout {
  const { cluster } = input;
  const width = c.width;
  const nodePort = nodePortOf(cluster);
  const clientBox = c.internet ? clientParts({ x: M, y: M, w: 84, h: 50 }, true) : undefined;
  const lbY = clientBox ? M + 50 + 26 : M;
  const drawn = pickNodes(cluster, c.path, Math.max(VERTICAL_NODES, c.path.length));
  const folded = cluster.nodes.map((n) => n.name).filter((n) => !drawn.includes(n));
  // From 480 px the card sits beside the balancer (right half) instead of under it.
  const cardBeside = width >= CARD_BESIDE_FROM;
  const lbW = cardBeside ? Math.floor((width - 2 * M - 12) / 2) : width - 2 * M;
  const lb = lbParts(M, lbY, lbW, drawn, folded.length > 0);
  const card: Box = cardBeside
    ? { x: M + lbW + 12, y: lbY, w: width - 2 * M - lbW - 12, h: CARD_H }
    : { x: M, y: lb.box.y + lb.box.h + 12, w: width - 2 * M, h: CARD_H };
  const clusterY = Math.max(lb.box.y + lb.box.h, card.y + CARD_H) + 12;
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
  let y = clusterY + 8 + lineHeight(T) + 24;
  const nodes = drawn.map((name, index) => {
    const host = name === c.hostNode;
    const pods = cluster.pods.filter((p) => p.nodeName === name).length;
    const h = nodeW >= SIDE_MIN_W ? sideContentHeight(pods, host) : stackedHeight(pods, host);
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
    lanes[name] = y - 14;
    turns[name] = clusterX + 8 + index * 5;
    y += h + V_GAP;
    return n;
  });
  let fold: FoldLayout | undefined;
  if (folded.length) {
    lanes['fold'] = y - 14;
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
