/** The shapes the stage's layout returns (see layout.ts). All coordinates and sizes in px. */
import type { Cluster } from '../../model/scenario/cluster';
import type { Box, NodeLayout } from './nodeLayout';
import type { TextSlot } from './text';

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
  /** Where the packet's header card rests at the client and the balancer (room no text uses). */
  card: Box;
  /**
   * Horizontal, when the stage has the room: the band under the cluster network (no text uses
   * it) where the card rests while the packet is inside the cluster, under the packet's node.
   */
  cardBand?: Box;
  /** The y of each drawn node's wire lane (horizontal: in the trunk; vertical: above it). */
  lanes: Record<string, number>;
  /** x of each drawn node's wire turn (horizontal: between balancer and cluster; vertical: left gutter). */
  turns: Record<string, number>;
  /** The anchor point of every place the trace can name. */
  anchors: Record<string, Point>;
}
