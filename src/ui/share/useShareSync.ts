import { useEffect } from 'react';
import type { AppStore, Store } from '../../store';
import {
  HASH_PREFIX,
  browserStorage,
  decodeState,
  openView,
  saveView,
  shareLink,
  snapshot,
} from '../../store/share';
import { LEARN_PREFIX } from '../tutorial/route';

/** How long the view must stay still before it is saved and written to the URL. */
export const SYNC_DELAY_MS = 400;

/** Whether anything a link or the saved view holds changed. */
function viewChanged(s: Store, prev: Store): boolean {
  return (
    s.objects !== prev.objects ||
    s.scene !== prev.scene ||
    s.playback.stepIndex !== prev.playback.stepIndex ||
    s.ui.walkthroughStep !== prev.ui.walkthroughStep ||
    s.ui.selectedNode !== prev.ui.selectedNode
  );
}

/**
 * Keeps the browser in step with the view, debounced: saves it to localStorage and puts its
 * link in the address bar with `history.replaceState` (no history entries). A `#s=` link
 * pasted into the address bar of the open app (a `hashchange`) opens that view; one that does
 * not decode reports through `onNotice`.
 */
export function useShareSync(store: AppStore, onNotice: (text: string) => void): void {
  useEffect(() => {
    const storage = browserStorage();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let written = window.location.hash;

    const write = () => {
      timer = undefined;
      const view = snapshot(store.getState());
      saveView(storage, view);
      // A view too large for a link leaves no (stale) link in the address bar.
      const link = shareLink(view);
      const hash = link.ok ? link.hash : '';
      // While the tutorial is open the address bar shows the reader's place (#/learn/…);
      // the view is still saved, and Copy link still gives its #s= link.
      if (window.location.hash.startsWith(LEARN_PREFIX)) return;
      if (hash !== window.location.hash) {
        const { pathname, search } = window.location;
        try {
          window.history.replaceState(window.history.state, '', hash || pathname + search);
        } catch (_) {
          // Some embedders forbid it; the link button still works.
        }
      }
      written = hash;
    };
    const flush = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      write();
    };

    const unsubscribe = store.subscribe((s, prev) => {
      if (!viewChanged(s, prev)) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(write, SYNC_DELAY_MS);
    });

    const onHashChange = () => {
      const hash = window.location.hash;
      // Back out of the tutorial to the link written before it opened: keep the view on screen
      // (the learner may have changed it from the text) and show its link.
      if (hash === written) return write();
      if (!hash.startsWith(HASH_PREFIX)) return;
      written = hash;
      const decoded = decodeState(hash);
      if (decoded.ok) openView(store, decoded.state);
      else
        onNotice(
          `This link could not be opened: ${decoded.reason}. The view on screen is unchanged.`,
        );
    };

    window.addEventListener('pagehide', flush);
    window.addEventListener('hashchange', onHashChange);
    return () => {
      flush();
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, [store, onNotice]);
}
