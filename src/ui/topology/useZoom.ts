import { useCallback, useEffect, useRef, useState } from 'react';
import type { attachZoom, StageZoom } from './zoomBehaviour';

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

type ZoomModule = { attachZoom: typeof attachZoom };
/** A button's or key's request, run against d3-zoom once it is attached. */
type ZoomRequest = (z: StageZoom) => void;

/**
 * Pan and zoom of the stage: drag pans, Ctrl/⌘ + wheel zooms (a plain wheel scrolls the page),
 * and `zoomBy` / `fit` / `reveal` for the buttons and keyboard focus. `extent` is the drawing's
 * size (px). `svgRef` is a callback ref: put it on the stage's `<svg>`.
 *
 * d3-zoom itself is loaded after first paint (`zoomBehaviour.ts`), and the `<svg>` may mount
 * later still (there is none until the model's first answer lands, src/worker/) or be replaced
 * (an error message in between). d3-zoom is attached whenever both are there, to whichever
 * `<svg>` is on screen, keeping the transform on screen; requests made before that are queued
 * and applied, in order, once it is attached, so an early click on Zoom in is not lost.
 */
export function useZoom(extent: { w: number; h: number }, touchPan: boolean) {
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const svgRef = useCallback((el: SVGSVGElement | null) => setSvg(el), []);
  // A narrow (vertical) stage lets a finger scroll the page: touch does not pan the drawing.
  const touch = useRef(touchPan);
  useEffect(() => {
    touch.current = touchPan;
  }, [touchPan]);
  const [mod, setMod] = useState<ZoomModule | null>(null);
  useEffect(() => {
    let live = true;
    void import('./zoomBehaviour').then((m) => {
      if (live) setMod(m);
    });
    return () => {
      live = false;
    };
  }, []);
  const behaviour = useRef<StageZoom | null>(null);
  const pending = useRef<ZoomRequest[]>([]);
  const [t, setT] = useState<StageTransform>(IDENTITY);
  // Read when d3-zoom is attached: the extent and transform to start from.
  const latest = useRef({ extent, t });
  useEffect(() => {
    latest.current = { extent, t };
  });
  useEffect(() => {
    if (!mod || !svg) return;
    const z = mod.attachZoom(
      svg,
      () => touch.current,
      (tr) => setT({ x: tr.x, y: tr.y, k: tr.k, applyY: (y) => tr.applyY(y) }),
    );
    const { extent: e, t: from } = latest.current;
    z.setExtent(e.w, e.h, MARGIN);
    // A replaced <svg> starts at d3's identity: give it the transform the previous one had.
    if (from.x !== 0 || from.y !== 0 || from.k !== 1) z.set(from.x, from.y, from.k);
    behaviour.current = z;
    for (const request of pending.current.splice(0)) request(z);
    return () => {
      z.destroy();
      if (behaviour.current === z) behaviour.current = null;
    };
  }, [mod, svg]);
  useEffect(() => {
    behaviour.current?.setExtent(extent.w, extent.h, MARGIN);
  }, [extent.w, extent.h]);
  const request = useCallback((r: ZoomRequest) => {
    if (behaviour.current) r(behaviour.current);
    else pending.current.push(r);
  }, []);
  const zoomBy = useCallback((k: number) => request((z) => z.zoomBy(k)), [request]);
  const fit = useCallback(() => request((z) => z.fit()), [request]);
  /** Pans (at scale 1) so the drawing's y `top` sits at the stage's top. */
  const reveal = useCallback((top: number) => request((z) => z.reveal(top)), [request]);
  return { svgRef, transform: t, zoomBy, fit, reveal };
}
