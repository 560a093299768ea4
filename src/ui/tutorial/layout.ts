/**
 * The reader and the visualiser on one screen. On wide screens (≥ 1280 px, side by side) the
 * reader is sticky and as tall as the viewport below its top edge (`--reader-top`, kept current
 * here), so its end, its previous/next links and its status line are always on screen, and the
 * visualiser's stage is sticky beside it (tutorial.css). When the reader opens, the page scrolls
 * so the workspace starts at the top of the window. On narrow screens (stacked) a scene link,
 * "Show me" or a time link brings the stage into view ({@link revealStage}).
 */
import { useEffect } from 'react';
import type { RefObject } from 'react';

/** Whether the user asked for reduced motion. */
export function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** `smooth`, or `auto` (a jump) when motion is reduced. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth';
}

/** Gap kept between the viewport's edges and what is brought into view, in CSS pixels. */
const EDGE = 8;

/**
 * Keeps the reader's `--reader-top` (its top edge in the viewport, px) current, so CSS can size
 * it to the viewport below it; and, when the reader first opens, scrolls the page so the
 * workspace (reader and visualiser) starts at the top of the window.
 */
export function useReaderFit(reader: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = reader.current;
    if (!el) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      const top = Math.max(0, Math.round(el.getBoundingClientRect().top));
      el.style.setProperty('--reader-top', `${top}px`);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    // The workspace to the top: the header and "Your cluster" stay a scroll away.
    const workspace = el.closest<HTMLElement>('.workspace');
    const y = workspace ? workspace.getBoundingClientRect().top : 0;
    if (y > EDGE) window.scrollBy({ top: y, behavior: 'auto' });
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => schedule());
    observer?.observe(document.body);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer?.disconnect();
    };
  }, [reader]);
}

/** Which stage to bring into view: the trace view's, or the time view's. */
export type StageKind = 'trace' | 'time';

const STAGE_SELECTOR: Record<StageKind, string> = {
  trace: '.workspace .layout:not(.time-layout) > .area-stage',
  time: '.workspace .time-layout .area-stage',
};

/** How many animation frames to wait for a stage that is still loading (the time view). */
const MAX_FRAMES = 120;

/**
 * How long (ms) the page keeps a revealed stage in view while it settles: the model answers in
 * a worker (src/worker/), so the new scene's playback controls, drawing and narration land after
 * the first scroll, and the narration of the steps that then play changes its height again.
 */
const FOLLOW_MS = 8000;

/** What the learner does to take the scrolling back: the page stops following the stage. */
const TAKE_OVER = ['wheel', 'touchmove', 'pointerdown', 'keydown'] as const;

/** Stops the current follow (a newer reveal replaces it). */
let stopFollowing: (() => void) | null = null;

/**
 * After a scene link, "Show me" or a time link: when the visualiser's stage (the drawing and
 * its playback controls) is not wholly on screen, scrolls the page just enough to show it (its
 * bottom edge at the window's bottom, or its top at the top when it is above), smoothly unless
 * motion is reduced. When `origin` (the link pressed) sits in the reader, the reader scrolls so
 * the link stays visible in what is left of it. Nothing moves when the stage is already in
 * view (wide screens). Waits a few frames for a stage that is still loading. Where the stage
 * scrolls with the page (stacked, not sticky), it is kept in view as it grows or shrinks for
 * {@link FOLLOW_MS}, until the learner scrolls, touches or types.
 */
export function revealStage(origin: Element | null, kind: StageKind = 'trace'): void {
  stopFollowing?.();
  stopFollowing = null;
  let frames = 0;
  const attempt = () => {
    const stage = document.querySelector<HTMLElement>(STAGE_SELECTOR[kind]);
    if (!stage) {
      if (++frames < MAX_FRAMES) requestAnimationFrame(attempt);
      return;
    }
    bringIntoView(stage, origin);
    if (getComputedStyle(stage).position !== 'sticky') stopFollowing = follow(stage, origin);
  };
  requestAnimationFrame(attempt);
}

/** Scrolls the page (and the reader, for `origin`) so `stage` is wholly on screen. */
function bringIntoView(stage: HTMLElement, origin: Element | null): void {
  const r = stage.getBoundingClientRect();
  const bottom = window.innerHeight - EDGE;
  let dy = 0;
  if (r.top < EDGE) dy = r.top - EDGE;
  else if (r.bottom > bottom) dy = Math.min(r.top - EDGE, r.bottom - bottom);
  if (Math.abs(dy) < 1) return;
  const behavior = scrollBehavior();
  const reader = origin?.closest<HTMLElement>('.reader') ?? null;
  if (reader && origin && getComputedStyle(reader).position !== 'sticky') {
    // After the page moves by dy, the reader shows the band [top, bottom] of the window.
    const box = reader.getBoundingClientRect();
    const top = Math.max(box.top - dy, EDGE);
    const end = Math.min(box.bottom - dy, r.top - dy - EDGE);
    const o = origin.getBoundingClientRect();
    const at = o.top - dy;
    if (end - top > o.height && (at < top || at + o.height > end))
      reader.scrollBy({ top: at - (top + (end - top) / 3), behavior });
  }
  // Relative to where the page is now, so a call during a smooth scroll retargets it.
  window.scrollBy({ top: dy, behavior });
}

/**
 * Brings `stage` into view again whenever its size changes, for {@link FOLLOW_MS} or until the
 * learner takes over ({@link TAKE_OVER}). Returns the function that stops it.
 */
function follow(stage: HTMLElement, origin: Element | null): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  let frame = 0;
  let height = stage.getBoundingClientRect().height;
  const observer = new ResizeObserver(() => {
    const h = stage.getBoundingClientRect().height;
    if (h === height) return;
    height = h;
    if (frame === 0)
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (stage.isConnected) bringIntoView(stage, origin);
      });
  });
  const stop = () => {
    observer.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
    window.clearTimeout(timer);
    for (const type of TAKE_OVER) window.removeEventListener(type, stop, true);
    if (stopFollowing === stop) stopFollowing = null;
  };
  const timer = window.setTimeout(stop, FOLLOW_MS);
  for (const type of TAKE_OVER)
    window.addEventListener(type, stop, { capture: true, passive: true });
  observer.observe(stage);
  return stop;
}
