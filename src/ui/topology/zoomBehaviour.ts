/**
 * The d3-zoom half of {@link useZoom}, in its own module so d3-zoom and d3-selection (about
 * 10 KB gzip with d3-drag, d3-transition and d3-dispatch) load after first paint, not in the
 * initial bundle: the stage is readable before anyone pans it.
 */
import { select } from 'd3-selection';
import type { ZoomBehavior, ZoomTransform } from 'd3-zoom';
import { zoom, zoomIdentity } from 'd3-zoom';

/** Zoom limits: never below a quarter, never above 4×. */
const SCALE: [number, number] = [0.25, 4];

/** A stage's pan/zoom: what the hook's buttons and keys call. */
export interface StageZoom {
  /** Multiplies the scale by `k` (e.g. 1.25 or 0.8) about the stage's centre. */
  zoomBy(k: number): void;
  /** Back to scale 1, no pan. */
  fit(): void;
  /** Scale 1, panned so the drawing's y `top` (px) sits at the stage's top. */
  reveal(top: number): void;
  /** Sets the transform: translate (`x`, `y`, px) then scale `k` (within the limits). */
  set(x: number, y: number, k: number): void;
  /** Panning stops `margin` px past a drawing `w`×`h` px. */
  setExtent(w: number, h: number, margin: number): void;
  /** Removes the listeners from the SVG. */
  destroy(): void;
}

/**
 * Attaches d3-zoom to `svg`: drag pans, Ctrl/⌘ + wheel zooms (a plain wheel scrolls the page),
 * touch pans only while `touchPans()` says so; every change is reported through `onChange`.
 */
export function attachZoom(
  svg: SVGSVGElement,
  touchPans: () => boolean,
  onChange: (t: ZoomTransform) => void,
): StageZoom {
  const z: ZoomBehavior<SVGSVGElement, unknown> = zoom<SVGSVGElement, unknown>()
    .scaleExtent(SCALE)
    .filter((e: Event) =>
      e.type === 'wheel'
        ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey
        : e.type.startsWith('touch')
          ? touchPans()
          : !(e as MouseEvent).button,
    )
    .on('zoom', (e: { transform: ZoomTransform }) => onChange(e.transform));
  const sel = select(svg);
  sel.call(z).on('dblclick.zoom', null);
  return {
    zoomBy: (k) => z.scaleBy(sel, k),
    fit: () => z.transform(sel, zoomIdentity),
    reveal: (top) => z.transform(sel, zoomIdentity.translate(0, -Math.max(0, top))),
    set: (x, y, k) => z.transform(sel, zoomIdentity.translate(x, y).scale(k)),
    setExtent: (w, h, m) => {
      z.translateExtent([
        [-m, -m],
        [w + m, h + m],
      ]);
    },
    destroy: () => {
      sel.on('.zoom', null);
    },
  };
}
