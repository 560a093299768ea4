import { createContext, useContext, useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : null;
}

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

const snapshot = () => media()?.matches ?? false;

/**
 * Whether the person asked for reduced motion (`prefers-reduced-motion: reduce`), following
 * changes to the setting, or the tree below {@link StillFrames} draws still frames; `false`
 * where there is no `matchMedia` (server, tests). The same answer framer-motion's
 * `useReducedMotion` gives, without loading framer-motion.
 */
export function usePrefersReducedMotion(): boolean {
  const still = useContext(StillFrames);
  const asked = useSyncExternalStore(subscribe, snapshot, () => false);
  return still || asked;
}

/**
 * `true` below it: motion is reduced whatever the person's setting, so every tween is drawn at
 * its end at once. The export (src/ui/export/) draws each step's still frame inside it.
 */
export const StillFrames = createContext(false);
