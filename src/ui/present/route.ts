/**
 * Present mode lives in the query string: `?present=1` (and, with a talk, `&talk=<id>&beat=<n>`),
 * beside the scene's `#s=` fragment, so a presenter can bookmark "this talk, this beat" and a
 * reload comes back to it. Changing it replaces the history entry (a talk's 40 beats are not 40
 * Back presses).
 */
import { useSyncExternalStore } from 'react';

/** What the query string says about present mode. */
export interface PresentRoute {
  on: boolean;
  /** A talk's id (`content/talks/<id>.md`), or null: the beats are the trace's steps. */
  talk: string | null;
  /** The talk's beat (0-based), when a talk is given. */
  beat: number;
}

const OFF: PresentRoute = Object.freeze({ on: false, talk: null, beat: 0 });

/** Reads `search` (e.g. `?present=1&talk=cluster-vs-local&beat=3`). Pure. */
export function parsePresentRoute(search: string): PresentRoute {
  const p = new URLSearchParams(search);
  if (p.get('present') !== '1') return OFF;
  const talk = p.get('talk');
  const beat = Number(p.get('beat') ?? '0');
  return {
    on: true,
    talk: talk && /^(chapter:)?[a-z0-9-]+$/.test(talk) ? talk : null,
    beat: Number.isInteger(beat) && beat >= 0 ? beat : 0,
  };
}

/** `search` with present mode set to `route` (other parameters kept). Pure. */
export function withPresentRoute(search: string, route: PresentRoute): string {
  const p = new URLSearchParams(search);
  for (const k of ['present', 'talk', 'beat']) p.delete(k);
  if (route.on) {
    p.set('present', '1');
    if (route.talk) {
      p.set('talk', route.talk);
      p.set('beat', String(route.beat));
    }
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

const EVENT = 'lb-present-route';
let cached: { search: string; route: PresentRoute } = { search: '', route: OFF };

function read(): PresentRoute {
  const search = typeof window === 'undefined' ? '' : window.location.search;
  if (search !== cached.search) cached = { search, route: parsePresentRoute(search) };
  return cached.route;
}

function subscribe(fn: () => void): () => void {
  window.addEventListener('popstate', fn);
  window.addEventListener(EVENT, fn);
  return () => {
    window.removeEventListener('popstate', fn);
    window.removeEventListener(EVENT, fn);
  };
}

/** The present-mode route, kept up to date. Off on the server (prerender). */
export function usePresentRoute(): PresentRoute {
  return useSyncExternalStore(subscribe, read, () => OFF);
}

/** Puts `route` in the address bar (replacing the entry) and tells {@link usePresentRoute}. */
export function setPresentRoute(route: PresentRoute): void {
  const { pathname, search, hash } = window.location;
  const next = withPresentRoute(search, route);
  if (next === search) return;
  window.history.replaceState(window.history.state, '', `${pathname}${next}${hash}`);
  window.dispatchEvent(new Event(EVENT));
}
