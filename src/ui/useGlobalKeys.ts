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

/** Global shortcuts (Space, ←/→, Home/End, …) from the command records. */
export function useGlobalKeys(store: AppStore): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
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
