/**
 * The inside of one node box, as a pure function of its box and its Pods: name, status,
 * InternalIP, the NodePort badge on its top edge, its balancer-rotation badge, kube-proxy with
 * its DNAT/SNAT badges, a host client, and the Pods (folded into "+N Pods" when they do not
 * fit; a Pod on the traced path is always shown). All sizes in px.
 */
import type { ClusterPod } from '../../model/scenario/cluster';
import type { TextSlot } from './text';
import { lineHeight, slot, textWidth } from './text';

/** A rectangle, px. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A drawn Pod. `ip` and the long readiness word only in the two-line form. */
export interface PodLayout {
  /** `namespace/name` */
  key: string;
  pod: ClusterPod;
  box: Box;
  name: TextSlot;
  ip?: TextSlot;
  ready: TextSlot;
}

/** Pods left out for lack of room: one row that counts them (their places anchor there). */
export interface MorePods {
  box: Box;
  text: TextSlot;
  keys: string[];
}

/** A badge: its pill and the text in it. */
export interface Badge {
  box: Box;
  text: TextSlot;
}

/** One node drawn in full. */
export interface NodeLayout {
  name: string;
  /** Index among the drawn nodes (wire lanes are per drawn node). */
  index: number;
  box: Box;
  title: TextSlot;
  /** "✓ Ready" / "✗ NotReady"; the "✗ down" badge takes the same place. */
  status: Badge;
  ip: TextSlot;
  nodePort: Badge;
  /** "● in rotation" / "○ out of rotation": the balancer's view of this node. */
  rotation: Badge;
  kubeProxy: Box;
  kpTitle: TextSlot;
  /** The proxy mode, right of the title; undefined when narrow (the rules line names it). */
  kpMode?: TextSlot;
  /** "N rules"; the DNAT/SNAT badges take its place once kube-proxy rewrote the packet here. */
  kpRules: TextSlot;
  dnat: Badge;
  snat: Badge;
  /** A host-network client drawn inside this node (client location Node). */
  host?: { box: Box; text: TextSlot };
  pods: PodLayout[];
  morePods?: MorePods;
  /** x of the wire gutter down the node's left side. */
  gutterX: number;
}

const T = 12;
const ROW = lineHeight(T);
const TITLE = 13;
/** The NodePort badge straddles the node's top edge by this much. */
export const BADGE_H = 20;
const POD2_H = 2 * ROW + 10;
const POD1_H = ROW + 8;
const POD_GAP = 4;
const NAT_W = textWidth('DNAT', T, true) + 12;
/** The status slot: "✓ Ready" or the "✗ down" badge; wider when a node reads "✗ NotReady". */
const STATUS_SHORT = Math.max(textWidth('✓ Ready', T, true), textWidth('✗ down', T, true)) + 10;
const STATUS_LONG = textWidth('✗ NotReady', T, true) + 10;
const ROT_W = textWidth('○ out of rotation', T) + 14;
const NP_W = (port: number) => textWidth(`NodePort :${port}`, T, true, true) + 14;
/** The kube-proxy box's height. */
const KP_H = 6 + ROW + 4 + BADGE_H + 6;

/**
 * Width of the status slot for a cluster: the long one only when some node that is not failed
 * reads NotReady (a failed node shows the short "✗ down" badge), px.
 */
export function statusWidth(
  nodes: readonly { name: string; ready: boolean }[],
  failed: readonly string[],
) {
  return nodes.some((n) => !n.ready && !failed.includes(n.name)) ? STATUS_LONG : STATUS_SHORT;
}

/** Narrowest node box the stacked form fits: a short name beside the status, and the IP, px. */
export function nodeMinWidth(longestIP: string, statusW: number): number {
  return 12 + Math.max(textWidth(longestIP, T, false, true), statusW + 8 + 56) + 8;
}
/** Height of the node parts above kube-proxy: title, IP and status, rotation badge. */
const HEADER = 14 + 18 + ROW + 6 + BADGE_H + 8;
/** Height of the node parts above the Pods in the stacked form. */
const STACK_TOP = HEADER + KP_H + 8;
/** Height of the node parts above the body in the side-by-side form. */
const SIDE_TOP = HEADER;
/** The least room for Pods: one one-line Pod and a "+N Pods" row. */
const PODS_MIN = POD1_H * 2 + POD_GAP;

/** Smallest node height for the stacked form (horizontal stage), px. */
export const NODE_MIN_H = STACK_TOP + PODS_MIN + 8;
/** Node height in the side-by-side form (vertical stage), px. */
export const SIDE_NODE_H = SIDE_TOP + Math.max(KP_H, 2 * POD2_H + POD_GAP) + 8;
/** Width from which a node puts kube-proxy and its Pods side by side. */
export const SIDE_MIN_W = 330;

const keyOf = (p: ClusterPod) => `${p.namespace}/${p.name}`;

/**
 * Lays out Pods in `area`: two-line boxes when all fit, else one-line boxes, else as many
 * one-line boxes as fit (Pods on the path first) and a "+N Pods" row.
 */
export function podBoxes(
  pods: readonly ClusterPod[],
  area: Box,
  onPath: ReadonlySet<string>,
): { pods: PodLayout[]; more?: MorePods } {
  const n = pods.length;
  const { x, w } = area;
  // The readiness word when there is room beside the IP, else the glyph alone.
  const LONG_READY = textWidth('✗ not Ready', T) + 2;
  const longReady = w - 16 - LONG_READY - 6 >= textWidth('10.244.255.255', T, false, true);
  const readyW = longReady ? LONG_READY : 14;
  const two = (pod: ClusterPod, y: number): PodLayout => ({
    key: keyOf(pod),
    pod,
    box: { x, y, w, h: POD2_H },
    name: slot(x + 8, y + 5, w - 16, T),
    ip: slot(x + 8, y + 5 + ROW + 1, w - 16 - readyW - 6, T, { mono: true }),
    ready: slot(x + w - 8 - readyW, y + 5 + ROW + 1, readyW, T, { anchor: 'end' }),
  });
  const one = (pod: ClusterPod, y: number): PodLayout => ({
    key: keyOf(pod),
    pod,
    box: { x, y, w, h: POD1_H },
    name: slot(x + 8, y + 4, w - 16 - 20, T),
    ready: slot(x + w - 8 - 14, y + 4, 14, T, { anchor: 'end' }),
  });
  if (n * POD2_H + (n - 1) * POD_GAP <= area.h)
    return { pods: pods.map((p, i) => two(p, area.y + i * (POD2_H + POD_GAP))) };
  const step = POD1_H + POD_GAP;
  const rows = Math.max(1, Math.floor((area.h + POD_GAP) / step));
  if (n <= rows) return { pods: pods.map((p, i) => one(p, area.y + i * step)) };
  // Path Pods first (always shown), then the others in order, one row kept for "+N Pods".
  const first = [
    ...pods.filter((p) => onPath.has(keyOf(p))),
    ...pods.filter((p) => !onPath.has(keyOf(p))),
  ];
  const shown = first.slice(
    0,
    Math.max(rows - 1, first.filter((p) => onPath.has(keyOf(p))).length),
  );
  const shownKeys = new Set(shown.map(keyOf));
  // Keep the cluster's order among the shown Pods.
  const ordered = pods.filter((p) => shownKeys.has(keyOf(p)));
  const out = ordered.map((p, i) => one(p, area.y + i * step));
  const y = area.y + ordered.length * step;
  return {
    pods: out,
    more: {
      box: { x, y, w, h: POD1_H },
      text: slot(x + 8, y + 4, w - 16, T),
      keys: pods.filter((p) => !shownKeys.has(keyOf(p))).map(keyOf),
    },
  };
}

/** Options of {@link nodeLayout}. */
export interface NodeLayoutOptions {
  name: string;
  index: number;
  box: Box;
  pods: readonly ClusterPod[];
  onPath: ReadonlySet<string>;
  nodePort: number;
  /** Draw a host client box (the client runs in this node's network namespace). */
  host: boolean;
  /** Width of the status slot ({@link statusWidth}). */
  statusW: number;
}

/** The parts of one node inside `box` (stacked form, or side by side when wide enough). */
export function nodeLayout(o: NodeLayoutOptions): NodeLayout {
  const { x, y, w, h } = o.box;
  const side = w >= SIDE_MIN_W;
  const ix = x + 12;
  const iw = w - 20;
  const npW = Math.min(NP_W(o.nodePort), iw);
  const nodePort: Badge = {
    box: { x: ix, y: y - BADGE_H / 2, w: npW, h: BADGE_H },
    text: slot(ix + 7, y - BADGE_H / 2 + 3, npW - 14, T, { bold: true, mono: true }),
  };
  const titleY = y + 14;
  // The status (or the "✗ down" badge) sits right of the name; the IP has its own row.
  const sw = o.statusW;
  const statusBox = { x: x + w - 8 - sw, y: titleY - 2, w: sw, h: ROW + 4 };
  const status: Badge = {
    box: statusBox,
    text: slot(statusBox.x + 5, statusBox.y + 2, sw - 10, T, { bold: true, anchor: 'end' }),
  };
  const title = slot(ix, titleY, statusBox.x - 6 - ix, TITLE, { bold: true });
  const ip = slot(ix, titleY + 18, iw, T, { mono: true });
  const rotY = titleY + 18 + ROW + 6;
  const rotBox = { x: ix, y: rotY, w: Math.min(ROT_W, iw), h: BADGE_H };
  const rotation: Badge = { box: rotBox, text: slot(ix + 7, rotY + 3, rotBox.w - 14, T) };
  const bodyY = rotY + BADGE_H + 8;
  const kpW = side ? Math.floor((iw - 10) * 0.5) : iw;
  const kubeProxy: Box = { x: ix, y: bodyY, w: kpW, h: KP_H };
  const MODE_W = textWidth('nftables', T) + 2;
  const modeBeside = kpW - 16 - MODE_W - 6 >= textWidth('kube-proxy', T, true);
  const kpTitle = slot(ix + 8, bodyY + 6, kpW - 16 - (modeBeside ? MODE_W + 6 : 0), T, {
    bold: true,
  });
  const kpMode = modeBeside
    ? slot(ix + kpW - 8 - MODE_W, bodyY + 6, MODE_W, T, { anchor: 'end' })
    : undefined;
  const badgeY = bodyY + 6 + ROW + 4;
  const natX = ix + 8;
  const dnat: Badge = {
    box: { x: natX, y: badgeY, w: NAT_W, h: BADGE_H },
    text: slot(natX + 6, badgeY + 3, NAT_W - 12, T, { bold: true }),
  };
  const snatX = natX + NAT_W + 4;
  const snat: Badge = {
    box: { x: snatX, y: badgeY, w: NAT_W, h: BADGE_H },
    text: slot(snatX + 6, badgeY + 3, NAT_W - 12, T, { bold: true }),
  };
  const kpRules = slot(ix + 8, badgeY + 3, kpW - 16, T);
  let podsTop = side ? bodyY : bodyY + KP_H + 8;
  const podsX = side ? ix + kpW + 10 : ix;
  const podsW = side ? iw - kpW - 10 : iw;
  let host: NodeLayout['host'];
  if (o.host) {
    const hb = { x: podsX, y: podsTop, w: podsW, h: POD1_H };
    host = { box: hb, text: slot(hb.x + 8, hb.y + 4, hb.w - 16, T) };
    podsTop += POD1_H + POD_GAP;
  }
  const placed = podBoxes(
    o.pods,
    { x: podsX, y: podsTop, w: podsW, h: y + h - 8 - podsTop },
    o.onPath,
  );
  return {
    name: o.name,
    index: o.index,
    box: o.box,
    title,
    status,
    ip,
    nodePort,
    rotation,
    kubeProxy,
    kpTitle,
    ...(kpMode ? { kpMode } : {}),
    kpRules,
    dnat,
    snat,
    ...(host ? { host } : {}),
    pods: placed.pods,
    ...(placed.more ? { morePods: placed.more } : {}),
    gutterX: x + 5,
  };
}

/** Least node height for the stacked form with a host client box. */
export const nodeMinHeight = (host: boolean) => NODE_MIN_H + (host ? POD1_H + POD_GAP : 0);
/** Node height in the side-by-side form with a host client box. */
export const sideNodeHeight = (host: boolean) => SIDE_NODE_H + (host ? POD1_H + POD_GAP : 0);
/**
 * Node height in the stacked form that holds `pods` Pods as two-line boxes, with nothing
 * left over: header, rotation badge, kube-proxy, the Pods and a little padding, px.
 */
export function stackedContentHeight(pods: number, host: boolean): number {
  const n = Math.max(1, pods);
  return STACK_TOP + n * POD2_H + (n - 1) * POD_GAP + 8 + (host ? POD1_H + POD_GAP : 0);
}
/**
 * Node height in the side-by-side form holding `pods` Pods: no taller than kube-proxy when one
 * two-line Pod fits beside it, at most {@link sideNodeHeight} (more Pods fold into "+N Pods").
 */
export function sideContentHeight(pods: number, host: boolean): number {
  const n = Math.max(1, pods);
  const podsH = (host ? POD1_H + POD_GAP : 0) + n * POD2_H + (n - 1) * POD_GAP;
  return Math.min(sideNodeHeight(host), SIDE_TOP + Math.max(KP_H, podsH) + 8);
}
/** Node height in the stacked form holding `pods` Pods (two two-line, or two one-line and "+N"). */
export function stackedHeight(pods: number, host: boolean): number {
  const podsH =
    pods <= 2
      ? Math.max(1, pods) * POD2_H + (Math.max(1, pods) - 1) * POD_GAP
      : 3 * (POD1_H + POD_GAP);
  return STACK_TOP + podsH + 8 + (host ? POD1_H + POD_GAP : 0);
}
