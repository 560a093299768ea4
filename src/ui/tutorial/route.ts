/**
 * The tutorial's place in the URL: `#/learn` (the book: the last chapter read, or the first),
 * `#/learn/<slug>` (a chapter), `#/learn/<slug>/<heading-id>` (a section of it),
 * `#/learn/glossary` and `#/learn/glossary/<term-id>`. While the reader is open the address bar
 * shows its place (the share sync leaves a `#/learn` hash alone); `#s=…` stays the visualiser's
 * link. This module is in the initial bundle, so it stays tiny: no React beyond one hook.
 */
import { useSyncExternalStore } from 'react';

/** The hash prefix of every tutorial location. */
export const LEARN_PREFIX = '#/learn';

/** Where the reader is. */
export type LearnRoute =
  | { kind: 'home' }
  | { kind: 'glossary'; term?: string }
  | { kind: 'chapter'; slug: string; section?: string };

function segment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch (_) {
    return s;
  }
}

/** The route a URL fragment names, or null when it is not a tutorial location. */
export function parseLearnHash(hash: string): LearnRoute | null {
  if (hash !== LEARN_PREFIX && !hash.startsWith(`${LEARN_PREFIX}/`)) return null;
  const [first, second] = hash
    .slice(LEARN_PREFIX.length + 1)
    .split('/')
    .filter((s) => s !== '')
    .map(segment);
  if (first === undefined) return { kind: 'home' };
  if (first === 'glossary')
    return second ? { kind: 'glossary', term: second } : { kind: 'glossary' };
  return second
    ? { kind: 'chapter', slug: first, section: second }
    : { kind: 'chapter', slug: first };
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    window.addEventListener('hashchange', notify);
    window.addEventListener('popstate', notify);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener('hashchange', notify);
      window.removeEventListener('popstate', notify);
    }
  };
}

const currentHash = () => window.location.hash;

/**
 * Puts `hash` in the address bar: a new history entry (Back returns), or the current one
 * replaced. `hash` '' leaves no fragment. Listeners of {@link useLocationHash} are told.
 */
export function navigate(hash: string, { replace = false }: { replace?: boolean } = {}): void {
  if (hash === window.location.hash) return;
  const { pathname, search } = window.location;
  const url = hash || pathname + search;
  try {
    if (replace) window.history.replaceState(window.history.state, '', url);
    else window.history.pushState(null, '', url);
  } catch (_) {
    // An embedder may forbid it; the reader still follows its own state.
  }
  notify();
}

/** The URL fragment, kept current through hashchange, popstate and {@link navigate}. */
export function useLocationHash(): string {
  return useSyncExternalStore(subscribe, currentHash, () => '');
}
