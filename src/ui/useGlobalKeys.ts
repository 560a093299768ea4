import { useEffect } from 'react';
import { commandForKey, run } from '../store/commands';
import type { AppStore } from '../store/types';

/** Keys that scroll a text. Inside the tutorial reader they scroll it, not drive the player. */
export const SCROLL_KEYS: ReadonlySet<string> = new Set([' ', 'PageUp', 'PageDown', 'Home', 'End']);

/** A region whose text owns the scrolling keys (the tutorial reader marks itself so). */
const READER = '[data-reader-keys]';

/** Whether `key` is taken by the control `el` sits in (a field, a button's Space/Enter, …). */
function controlTakes(key: string, el: Element): boolean {
  if (el.closest('input, select, textarea, [contenteditable="true"], [data-own-keys]')) return true;
  if ((key === ' ' || key === 'Enter') && el.closest('button, [role="button"], summary'))
    return true;
  return key === 'Enter' && el.closest('a[href]') !== null;
}

/**
 * The reader whose text `key` should scroll, or null: Space, Shift+Space, PageUp, PageDown, Home
 * and End scroll the reader when focus is inside it (and not in a control that takes the key,
 * such as a button's Space or a field), or when focus is nowhere (on the body) and the pointer
 * is over it.
 */
export function readerScrollTarget(key: string, target: EventTarget | null): HTMLElement | null {
  if (!SCROLL_KEYS.has(key) || !(target instanceof Element)) return null;
  const inside = target.closest<HTMLElement>(READER);
  if (inside) return controlTakes(key, target) ? null : inside;
  const doc = target.ownerDocument;
  if (target === doc.body || target === doc.documentElement)
    return doc.querySelector<HTMLElement>(`${READER}:hover`);
  return null;
}

/**
 * Whether a key press belongs to the focused element rather than to the app's player: a form
 * control's keys; Space and Enter on a button; the scrolling keys of the tutorial's text
 * ({@link readerScrollTarget}); and, while focus is in the reader's text (not on one of its
 * buttons, such as a scene link), every other key too — P, I, R and ← / → wait until Esc gives
 * the keys back to the player.
 */
export function keyBelongsToTarget(key: string, target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable="true"], [data-own-keys]'))
    return true;
  // Space and Enter press the focused button; they are not "play".
  if (
    (key === ' ' || key === 'Enter') &&
    target.closest('button, a[href], [role="button"], summary')
  )
    return true;
  if (readerScrollTarget(key, target)) return true;
  return target.closest(READER) !== null && target.closest('button') === null;
}

/**
 * Scrolls `el` as the key would scroll a page: Space / PageDown down by most of its height,
 * Shift+Space / PageUp up, Home to the top, End to the end; smoothly unless motion is reduced.
 */
export function scrollByKey(el: HTMLElement, key: string, shift: boolean): void {
  const reduce =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const behavior: ScrollBehavior = reduce ? 'auto' : 'smooth';
  const page = Math.max(40, Math.round(el.clientHeight * 0.85));
  if (key === 'Home') el.scrollTo({ top: 0, behavior });
  else if (key === 'End') el.scrollTo({ top: el.scrollHeight, behavior });
  else {
    const up = key === 'PageUp' || (key === ' ' && shift);
    el.scrollBy({ top: up ? -page : page, behavior });
  }
}

/**
 * Escape gives the keys back to the player: it blurs whatever control has focus (a select, a
 * radio, a button, a node in the drawing), so Space, ←/→ and Home/End drive playback again.
 * Returns whether it blurred something.
 */
export function releaseFocus(doc: Document = document): boolean {
  const el = doc.activeElement;
  if (!el || el === doc.body) return false;
  if (el instanceof HTMLElement || el instanceof SVGElement) el.blur();
  return doc.activeElement !== el;
}

/**
 * One key press for the player: Escape releases focus, the tutorial reader's text scrolls, a
 * focused control keeps its own keys, else a shortcut from the command records runs.
 * @returns whether the key was used (by the player, the reader or the focused control); false
 *   for keys nobody here uses (the embed forwards those to its host page, src/embed/).
 */
export function handlePlayerKey(store: AppStore, e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
  if (e.key === 'Escape') return releaseFocus();
  const reader = readerScrollTarget(e.key, e.target);
  if (reader) {
    e.preventDefault();
    scrollByKey(reader, e.key, e.shiftKey);
    return true;
  }
  if (keyBelongsToTarget(e.key, e.target)) return true;
  const command = commandForKey(e.key);
  if (!command) return false;
  e.preventDefault();
  run(store, command);
  return true;
}

/**
 * Global shortcuts (Space, ←/→, Home/End, …) from the command records; Escape releases focus.
 * The tutorial reader's text keeps its scrolling keys ({@link readerScrollTarget}).
 */
export function useGlobalKeys(store: AppStore, enabled = true): void {
  useEffect(() => {
    if (!enabled) return; // present mode has its own keys (src/ui/present/)
    const onKey = (e: KeyboardEvent) => void handlePlayerKey(store, e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, enabled]);
}
