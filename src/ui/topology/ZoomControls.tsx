/** The stage's zoom buttons: keyboard-operable, ≥ 44 px touch targets on narrow screens. */
export function ZoomControls({ zoomBy, fit }: { zoomBy: (k: number) => void; fit: () => void }) {
  return (
    <div className="zoom-controls" role="group" aria-label="Zoom the drawing">
      <button type="button" onClick={() => zoomBy(1.25)} aria-label="Zoom in" data-zoom="in">
        +
      </button>
      <button type="button" onClick={() => zoomBy(0.8)} aria-label="Zoom out" data-zoom="out">
        −
      </button>
      <button type="button" onClick={fit} aria-label="Fit: reset pan and zoom" data-zoom="fit">
        Fit
      </button>
    </div>
  );
}
