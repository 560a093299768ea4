/**
 * The stage's parts that both orientations place the same way (the client, the balancer, the
 * summary group and its tiles) and the anchors of every place. Pure; used by layout.ts.
 */
import type { Cluster } from '../../model/scenario/cluster';
import type { Box } from './nodeLayout';
import type { FoldLayout, LayoutInput, Point, TilesLayout, TopologyLayout } from './layoutTypes';
import type { TextSlot } from './text';
import { lineHeight, slot, textWidth } from './text';

export const M = 12;
export const T = 12;
export const ROW = lineHeight(T) + 2;
/** Packet card: up to six 12 px lines. */
export const CARD_H = 6 * 17 + 14;
export const GAP = 10;
export const FOLD_W = 150;
const LB_PAD = 10;
/** Room the zoom buttons take at the stage's top-right corner (horizontal), px. */
export const ZOOM_W = 130;
/** Below this stage width the drawing is vertical. */
export const VERTICAL_BELOW = 700;

export const left = (b: Box): Point => ({ x: b.x, y: b.y + b.h / 2 });

/** Which nodes are drawn: the path's, then others in cluster order, up to `max` (at least the path). */
export function pickNodes(cluster: Cluster, path: readonly string[], max: number): string[] {
  const chosen = new Set(path);
  for (const n of cluster.nodes) {
    if (chosen.size >= max) break;
    chosen.add(n.name);
  }
  return cluster.nodes.map((n) => n.name).filter((n) => chosen.has(n));
}

export function clientParts(box: Box, textBeside: boolean) {
  // Beside the cloud: clear of its right lobe, which bulges past the box.
  const tx = textBeside ? box.x + box.w + 14 : box.x;
  const ty = textBeside ? box.y + 6 : box.y + box.h + 4;
  const tw = textBeside ? 136 : box.w + 10;
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
export const LB_HEADER_H = 8 + 5 * ROW + 6;

export function foldParts(names: string[], box: Box, vertical: boolean): Omit<FoldLayout, 'tiles'> {
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

export function tilesLayout(names: string[], x: number, y: number, w: number): TilesLayout {
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
    // The Hide button first (the zoom buttons cover the stage's top-right corner).
    heading: slot(x + 8 + hideW + 12, y + 12, w - 16 - hideW - 12 - ZOOM_W, 13, { bold: true }),
    hide: {
      box: { x: x + 8, y: y + 8, w: hideW, h: 24 },
      text: slot(x + 8 + 10, y + 12, hideW - 20, T, { bold: true, anchor: 'middle' }),
    },
    tiles,
  };
}

export function lbParts(
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

export function nodePortOf(cluster: Cluster): number {
  return cluster.services[0]?.ports[0]?.nodePort ?? 0;
}

/** Fills in the anchors of every place. */
export function finish(l: TopologyLayout, input: LayoutInput): TopologyLayout {
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
