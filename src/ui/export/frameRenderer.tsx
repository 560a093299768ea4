/**
 * Draws any step of the trace on screen without touching the view on screen: a hidden copy of
 * the stage (the real `Topology`, so the frames are exactly what the app draws) over a frozen
 * copy of the store's state with its own `playback.stepIndex`, inside `StillFrames` (every
 * tween at its end: a still frame, not a moment of an animation). React renders it
 * synchronously (`flushSync`), so after `show(i)` the SVG in the DOM is step i's drawing and
 * its computed styles are real — which is what styleInline.ts reads.
 *
 * Why not render to a string (react-dom/server): computed styles need the elements in the
 * document anyway, and the stage measures its box (useStageSize), which a server render
 * cannot; the hidden stage gets the size of the one on screen, so the frame looks like it.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createStore } from 'zustand/vanilla';
import { StoreProvider } from '../../store';
import type { AppStore, Store } from '../../store';
import { StillFrames } from '../reducedMotion';
import { Topology } from '../topology/Topology';
import type { FrameColours } from './frameSvg';

/** A hidden stage that can show any step; `dispose` removes it. */
export interface FrameRenderer {
  /** Renders step `index` (-1: before the first) and returns its `<svg>`, in the document. */
  show(index: number): SVGSVGElement;
  /**
   * Renders another state altogether (a walkthrough step's scene, answer and step: see
   * storyFrames.ts), paused, and returns its `<svg>`.
   */
  showState(state: Store): SVGSVGElement;
  /** The theme's resolved colours where the stage is. */
  colours: FrameColours;
  dispose(): void;
}

/** The stage's size when there is none on screen to copy (the stage's own fallback + legend), px. */
const FALLBACK = { width: 900, height: 560 };

function resolvedBackground(el: Element | null): string {
  for (let e = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

/**
 * Mounts the hidden stage next to `anchor` (inside its themed ancestor, `[data-theme]`, so the
 * theme's custom properties apply), sized like the stage on screen (`.stage-view`), over a
 * snapshot of `live`'s state taken now: later changes on screen do not reach the frames.
 */
export function openFrameRenderer(live: AppStore, anchor: Element): FrameRenderer {
  const themed = anchor.closest('[data-theme]') ?? document.body;
  const view = themed.querySelector('.stage-view');
  const r = view?.getBoundingClientRect();
  const width = r && r.width >= 1 ? Math.round(r.width) : FALLBACK.width;
  const height = r && r.height >= 1 ? Math.round(r.height) : FALLBACK.height;
  const host = document.createElement('div');
  host.className = 'export-stage';
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  // Off screen but laid out (computed styles and getBBox need a rendered tree).
  Object.assign(host.style, {
    position: 'fixed',
    left: '-100000px',
    top: '0',
    width: `${width}px`,
    height: `${height}px`,
    pointerEvents: 'none',
    contain: 'strict',
  });
  themed.appendChild(host);
  const snapshot = live.getState();
  const frames = createStore<Store>()(() => ({
    ...snapshot,
    playback: { ...snapshot.playback, playing: false },
  }));
  const root = createRoot(host);
  flushSync(() =>
    root.render(
      <StillFrames.Provider value>
        <StoreProvider store={frames as AppStore}>
          <Topology />
        </StoreProvider>
      </StillFrames.Provider>,
    ),
  );
  const cs = getComputedStyle(host);
  const colours: FrameColours = {
    background: resolvedBackground(view ?? themed),
    fg: cs.getPropertyValue('--fg').trim() || cs.color,
    muted: cs.getPropertyValue('--muted').trim() || cs.color,
    font: cs.getPropertyValue('--font').trim() || 'sans-serif',
  };
  const drawn = () => {
    const svg = host.querySelector<SVGSVGElement>('svg.topology');
    if (!svg) throw new Error('The stage has nothing to draw: the model has no answer yet.');
    return svg;
  };
  return {
    colours,
    show(index) {
      flushSync(() =>
        frames.setState({ playback: { ...frames.getState().playback, stepIndex: index } }),
      );
      return drawn();
    },
    showState(state) {
      flushSync(() =>
        frames.setState({ ...state, playback: { ...state.playback, playing: false } }),
      );
      return drawn();
    },
    dispose() {
      if (!host.isConnected) return;
      root.unmount();
      host.remove();
    },
  };
}
