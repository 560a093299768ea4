import { useCallback, useEffect, useRef, useState } from 'react';
import { select } from 'd3-selection';
import type { ZoomBehavior, ZoomTransform } from 'd3-zoom';
import { zoom, zoomIdentity } from 'd3-zoom';

/** Zoom limits: never below a quarter, never above 4×. */
const SCALE: [number, number] = [0.25, 4];

/**
 * Pan and zoom of the stage with d3-zoom: drag pans, Ctrl/⌘ + wheel zooms (a plain wheel
 * scrolls the page), and `zoomBy` / `fit` / `reveal` for the buttons and keyboard focus.
 * `extent` is the drawing's size (px): panning stops a margin past its edges.
 */
export function useZoom(extent: { w: number; h: number }, touchPan: boolean) {
  const svgRef = useRef<SVGSVGElement>(null);
  // A narrow (vertical) stage lets a finger scroll the page: touch does not pan the drawing.
  const touch = useRef(touchPan);
  useEffect(() => {
    touch.current = touchPan;
  }, [touchPan]);
  const behaviour = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const [t, setT] = useState<ZoomTransform>(zoomIdentity);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent(SCALE)
      .filter((e: Event) =>
        e.type === 'wheel'
          ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey
          : e.type.startsWith('touch')
            ? touch.current
            : !(e as MouseEvent).button,
      )
      .on('zoom', (e: { transform: ZoomTransform }) => setT(e.transform));
    behaviour.current = z;
    const sel = select(svg);
    sel.call(z).on('dblclick.zoom', null);
    return () => {
      sel.on('.zoom', null);
    };
  }, []);
  useEffect(() => {
    const m = 200;
    behaviour.current?.translateExtent([
      [-m, -m],
      [extent.w + m, extent.h + m],
    ]);
  }, [extent.w, extent.h]);
  const apply = useCallback(
    (fn: (z: ZoomBehavior<SVGSVGElement, unknown>, svg: SVGSVGElement) => void) => {
      const svg = svgRef.current;
      if (svg && behaviour.current) fn(behaviour.current, svg);
    },
    [],
  );
  const zoomBy = useCallback((k: number) => apply((z, svg) => z.scaleBy(select(svg), k)), [apply]);
  const fit = useCallback(() => apply((z, svg) => z.transform(select(svg), zoomIdentity)), [apply]);
  /** Pans (at scale 1) so the drawing's y `top` sits at the stage's top. */
  const reveal = useCallback(
    (top: number) =>
      apply((z, svg) => z.transform(select(svg), zoomIdentity.translate(0, -Math.max(0, top)))),
    [apply],
  );
  return { svgRef, transform: t, zoomBy, fit, reveal };
}
