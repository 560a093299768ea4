import { useEffect } from 'react';
import { commandForKey, run } from '../store/commands';
import type { AppStore } from '../store/types';

/** Whether a key press belongs to the focused element rather than to the app. */
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
  return false;
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

/** Global shortcuts (Space, ←/→, Home/End, …) from the command records; Escape releases focus. */
export function useGlobalKeys(store: AppStore): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape') {
        releaseFocus();
        return;
      }
      if (keyBelongsToTarget(e.key, e.target)) return;
      const command = commandForKey(e.key);
      if (!command) return;
      e.preventDefault();
      run(store, command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
