import { useEffect } from 'react';
import type { AppStore, Store } from '../../store';
import {
  HASH_PREFIX,
  browserStorage,
  loadCompressor,
  decodeState,
  openView,
  MAX_OBJECTS,
  saveView,
  shareLink,
  snapshot,
  tabStorage,
  timeSnapshot,
  tooManyObjects,
} from '../../store/share';
import type { SharedState, SharedTime } from '../../store/share';
import { LEARN_PREFIX } from '../tutorial/route';

/** How long the view must stay still before it is saved and written to the URL. */
export const SYNC_DELAY_MS = 400;

/** Whether anything a link or the saved view holds changed (the time view's part included). */
export function viewChanged(s: Store, prev: Store): boolean {
  const t = s.time;
  const p = prev.time;
  return (
    s.objects !== prev.objects ||
    s.scene !== prev.scene ||
    s.playback.stepIndex !== prev.playback.stepIndex ||
    s.ui.walkthroughStep !== prev.ui.walkthroughStep ||
    s.ui.selectedNode !== prev.ui.selectedNode ||
    t.view !== p.view ||
    (t.view === 'time' &&
      (t.controller !== p.controller ||
        t.events !== p.events ||
        t.healthCheck !== p.healthCheck ||
        t.workload !== p.workload ||
        t.playing !== p.playing ||
        timeSnapshot(s)?.simMs !== timeSnapshot(prev)?.simMs))
  );
}

/** The view on screen as a link, but with the other main view (trace ⇄ time) showing. */
function otherView(s: Store): SharedState {
  const view = snapshot(s);
  if (s.time.view === 'time') {
    const { time: _time, ...trace } = view;
    return trace;
  }
  return {
    ...view,
    time: timeSnapshot({ ...s, time: { ...s.time, view: 'time', playing: false } }) as SharedTime,
  };
}

/**
 * Keeps the browser in step with the view, debounced: saves it (to localStorage, and to this
 * tab's sessionStorage for a reload of this tab) and puts its
 * link in the address bar with `history.replaceState`, except when the view on screen switched
 * between the trace and "Time & failures": that link gets a history entry of its own
 * (`pushState`), so Back returns to the other view. A `#s=` link
 * pasted into the address bar of the open app (a `hashchange`) opens that view; one that does
 * not decode reports through `onNotice`.
 */
export function useShareSync(store: AppStore, onNotice: (text: string) => void): void {
  useEffect(() => {
    const storage = browserStorage();
    const tab = tabStorage();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    // The view (trace or time) of the link last written to the address bar.
    let writtenView = store.getState().time.view;

    // The objects last said to be too large to keep: said once per import, not per change.
    let warnedFor: unknown = undefined;

    const write = () => {
      timer = undefined;
      const view = snapshot(store.getState());
      const saved = saveView(storage, view, tab);
      // A reload would open the default scenario: say so now, not after the reload.
      const objects = store.getState().objects;
      if (!saved && storage && tooManyObjects(view) && objects !== warnedFor) {
        warnedFor = objects;
        onNotice(
          `This cluster is too large to keep in this browser (over ${MAX_OBJECTS.toLocaleString('en-US')} objects): a reload opens the default scenario. Keep its file to import it again.`,
        );
      }
      // A view too large for a link leaves no (stale) link in the address bar.
      const link = shareLink(view);
      // The compressor loads after the first paint (store/share/compress.ts): write the link
      // once it is there (the view above is saved already).
      if (!link.ok && link.pending) {
        void loadCompressor().then(() => {
          if (live && timer === undefined) write();
        });
        return;
      }
      const hash = link.ok ? link.hash : '';
      // While the tutorial is open the address bar shows the reader's place (#/learn/…);
      // the view is still saved, and Copy link still gives its #s= link.
      if (window.location.hash.startsWith(LEARN_PREFIX)) return;
      const mainView = store.getState().time.view;
      if (hash !== window.location.hash) {
        const { pathname, search } = window.location;
        try {
          if (mainView !== writtenView && hash) {
            // The entry Back returns to must hold the other view's link (a fresh page has none).
            if (!window.location.hash.startsWith(HASH_PREFIX)) {
              const prev = shareLink(otherView(store.getState()));
              if (prev.ok) window.history.replaceState(window.history.state, '', prev.hash);
            }
            window.history.pushState(null, '', hash);
          } else window.history.replaceState(window.history.state, '', hash || pathname + search);
        } catch (_) {
          // Some embedders forbid it; the link button still works.
        }
      }
      writtenView = mainView;
    };
    const flush = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      write();
    };

    const unsubscribe = store.subscribe((s, prev) => {
      if (!viewChanged(s, prev)) return;
      if (timer !== undefined) clearTimeout(timer);
      // Switching views is written at once, so Back has its entry even after a quick switch back.
      if (s.time.view !== prev.time.view) return write();
      timer = setTimeout(write, SYNC_DELAY_MS);
    });

    const onHashChange = () => {
      const hash = window.location.hash;
      // A `#s=` entry opens the view it holds — Back out of the tutorial too: the view from
      // before the tutorial comes back, and its history entry is left as it was (not rewritten
      // with what the tutorial showed).
      if (!hash.startsWith(HASH_PREFIX)) return;
      const decoded = decodeState(hash);
      if (decoded.ok) {
        // Before opening: the switch of views it makes is Back/Forward's, not a new entry.
        writtenView = decoded.state.time ? 'time' : 'trace';
        openView(store, decoded.state);
      } else
        onNotice(
          `This link could not be opened: ${decoded.reason}. The view on screen is unchanged.`,
        );
    };

    window.addEventListener('pagehide', flush);
    window.addEventListener('hashchange', onHashChange);
    // Links need the compressor: fetch it now, after the first paint, not at the first change.
    void loadCompressor().catch(() => undefined);
    return () => {
      flush();
      live = false;
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, [store, onNotice]);
}
