import { useCallback, useEffect, useRef, useState } from 'react';
import type { StageZoom } from './zoomBehaviour';

/** A pan/zoom transform: translate (`x`, `y`, px) then scale `k`, as d3-zoom reports it. */
export interface StageTransform {
  x: number;
  y: number;
  k: number;
  /** The screen y (px, in the stage) of the drawing's y. */
  applyY(y: number): number;
}

const IDENTITY: StageTransform = { x: 0, y: 0, k: 1, applyY: (y) => y };

/** Panning stops this far (px) past the drawing's edges. */
const MARGIN = 200;

/**
 * Pan and zoom of the stage: drag pans, Ctrl/⌘ + wheel zooms (a plain wheel scrolls the page),
 * and `zoomBy` / `fit` / `reveal` for the buttons and keyboard focus. `extent` is the drawing's
 * size (px). d3-zoom itself is loaded after first paint (`zoomBehaviour.ts`); until it is there
 * the stage is drawn at scale 1 and the buttons do nothing.
 */
export function useZoom(extent: { w: number; h: number }, touchPan: boolean) {
  const svgRef = useRef<SVGSVGElement>(null);
  // A narrow (vertical) stage lets a finger scroll the page: touch does not pan the drawing.
  const touch = useRef(touchPan);
  useEffect(() => {
    touch.current = touchPan;
  }, [touchPan]);
  const behaviour = useRef<StageZoom | null>(null);
  // Set once d3-zoom is attached, so the extent effect runs again with it.
  const [ready, setReady] = useState(false);
  const [t, setT] = useState<StageTransform>(IDENTITY);
  useEffect(() => {
    let live = true;
    void import('./zoomBehaviour').then(({ attachZoom }) => {
      const svg = svgRef.current;
      if (!live || !svg) return;
      const z = attachZoom(
        svg,
        () => touch.current,
        (tr) => setT({ x: tr.x, y: tr.y, k: tr.k, applyY: (y) => tr.applyY(y) }),
      );
      behaviour.current = z;
      setReady(true);
    });
    return () => {
      live = false;
      behaviour.current?.destroy();
      behaviour.current = null;
    };
  }, []);
  useEffect(() => {
    behaviour.current?.setExtent(extent.w, extent.h, MARGIN);
  }, [extent.w, extent.h, ready]);
  const zoomBy = useCallback((k: number) => behaviour.current?.zoomBy(k), []);
  const fit = useCallback(() => behaviour.current?.fit(), []);
  /** Pans (at scale 1) so the drawing's y `top` sits at the stage's top. */
  const reveal = useCallback((top: number) => behaviour.current?.reveal(top), []);
  return { svgRef, transform: t, zoomBy, fit, reveal };
}
