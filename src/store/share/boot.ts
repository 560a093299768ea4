/**
 * Which view the app opens on: a shared link in the URL fragment first, then the last view
 * saved in the browser (this tab's, else any tab's: `persist.ts`), then the walkthrough's first step. A link or saved view that cannot be
 * read opens the default and says why (a notice, not a console error).
 */
import { createAppStore } from '../store';
import type { AppStore } from '../types';
import { HASH_PREFIX, decodeState } from './link';
import { loadSaved } from './persist';
import type { StorageLike } from './persist';
import type { SharedState } from './link';
import { storeForView } from './view';

export interface Boot {
  store: AppStore;
  /** Where the view came from. */
  source: 'link' | 'saved' | 'default';
  /** A sentence to show the person when a link or saved view was not used. */
  notice?: string;
  /** True when the URL holds a link that could not be opened (the app clears it). */
  badLink?: boolean;
}

/** The default view: the walkthrough's first step. */
export function defaultStore(): AppStore {
  return createAppStore({ story: 0 });
}

/** The notice for a link that did not decode. */
export function badLinkNotice(reason: string): string {
  return `This link could not be opened: ${reason}. Showing the default scenario.`;
}

function savedNotice(reason: string): string {
  return `Your last view could not be restored: ${reason}. Showing the default scenario.`;
}

/** A store on `view`, or undefined if opening it threw (the checks should make that impossible). */
function tryOpen(view: SharedState): AppStore | undefined {
  try {
    return storeForView(view);
  } catch (_) {
    return undefined;
  }
}

/**
 * Opens the view for `hash` (the URL fragment), else the saved view: this tab's own (`tab`,
 * its sessionStorage: a reload) before the last one of any tab (`storage`, localStorage).
 */
export function boot(hash: string, storage: StorageLike | undefined, tab?: StorageLike): Boot {
  if (hash.startsWith(HASH_PREFIX)) {
    const decoded = decodeState(hash);
    const store = decoded.ok ? tryOpen(decoded.state) : undefined;
    if (store) return { store, source: 'link' };
    return {
      store: defaultStore(),
      source: 'default',
      notice: badLinkNotice(decoded.ok ? 'the view in it could not be built' : decoded.reason),
      badLink: true,
    };
  }
  const own = loadSaved(tab);
  const saved = own.kind === 'ok' ? own : loadSaved(storage);
  switch (saved.kind) {
    case 'ok': {
      const store = tryOpen(saved.state);
      if (store) return { store, source: 'saved' };
      return {
        store: defaultStore(),
        source: 'default',
        notice: savedNotice('it could not be built'),
      };
    }
    case 'ignored':
      return {
        store: defaultStore(),
        source: 'default',
        notice: savedNotice(saved.reason),
      };
    case 'none':
      return { store: defaultStore(), source: 'default' };
  }
}
