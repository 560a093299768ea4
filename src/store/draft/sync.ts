/**
 * Keeps the store's editor text (`editorText`) in step with this tab's draft (`drafts.ts` has
 * the scheme): restores it when the importer starts, saves every change after a pause and on
 * `pagehide`, and says how that went through `onStatus` — saved, waiting, or not saved and
 * why — so the dialog can say so (never a silent loss). Another tab's draft changing never
 * replaces this tab's text: the status only notes it. None of this throws.
 */
import type { AppStore } from '../types';
import {
  DRAFT_PREFIX,
  decodeDraft,
  draftKey,
  listDrafts,
  migrateV1,
  pruneDrafts,
  writeDraft,
} from './drafts';
import type { DraftStorage, SaveProblem } from './drafts';
import { newTabId, renewTabId, tabId } from './tabId';
import type { SessionLike } from './tabId';

/** How long typing must pause before the text is saved, ms. */
export const SAVE_DELAY_MS = 500;

/** Where the text on screen came from when the importer started. */
export type Restored =
  /** This tab's own draft (a reload). */
  | 'this-tab'
  /** The newest draft of another tab (a new tab, or the app opened again). */
  | 'another-tab'
  /** The text version 1 of the app saved (moved to a draft, or kept where it was). */
  | 'older-version';

/** How the text on screen stands with the browser's storage. */
export interface DraftStatus {
  /**
   * `idle`: nothing to save yet; `saved`: storage holds the text on screen; `pending`: a
   * change waits for the pause; `unsaved`: the last save failed (see `problem`) — it stays so
   * until a save works, typing meanwhile included.
   */
  state: 'idle' | 'saved' | 'pending' | 'unsaved';
  /** Why the last save failed, while `state` is `unsaved`; else null. */
  problem: SaveProblem | null;
  /** Where the text came from at the start; null when nothing was restored. */
  restored: Restored | null;
  /** Another tab saved a draft different from this tab's text since it started. */
  otherTabChanged: boolean;
}

/** The status before anything is known. */
export const INITIAL_STATUS: DraftStatus = {
  state: 'idle',
  problem: null,
  restored: null,
  otherTabChanged: false,
};

/** What {@link syncDraft} works with: the browser's by default ({@link browserDraftEnv}). */
export interface DraftEnv {
  /** localStorage, or undefined when missing or blocked. */
  storage: DraftStorage | undefined;
  /** sessionStorage (for the tab's id), or undefined. */
  session: SessionLike | undefined;
  /** Where `pagehide` and `storage` events come from (the window). */
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined;
  /** The time, ms since 1970. */
  now: () => number;
  /** A new tab id. */
  newId: () => string;
}

function guarded<T>(get: () => T): T | undefined {
  try {
    // Reading the property itself throws a SecurityError when storage is disabled.
    return get() ?? undefined;
  } catch (_) {
    return undefined;
  }
}

/** The browser's storage, window, clock and random ids. */
export function browserDraftEnv(): DraftEnv {
  return {
    storage: guarded(() => globalThis.localStorage),
    session: guarded(() => globalThis.sessionStorage),
    target: globalThis.window,
    now: () => Date.now(),
    newId: newTabId,
  };
}

/**
 * Restores this tab's text into `store` (unless it already holds some): the tab's own draft,
 * else the newest draft of any tab; version 1's text is migrated first. Then saves every
 * change of `editorText`, {@link SAVE_DELAY_MS} after the last, and at once on `pagehide`.
 * `onStatus` is called with the first status before this returns, then on every change.
 * @returns the function that stops it (saving what is pending first).
 */
export function syncDraft(
  store: AppStore,
  env: DraftEnv,
  onStatus: (status: DraftStatus) => void,
): () => void {
  const { storage, target } = env;
  let id = tabId(env.session, env.newId);
  let status = INITIAL_STATUS;
  const update = (next: Partial<DraftStatus>) => {
    status = { ...status, ...next };
    onStatus(status);
  };

  // Version 1's text goes into this tab's key if it has no draft yet, else a key of its own.
  let ownFree = true;
  try {
    ownFree = storage?.getItem(draftKey(id)) === null;
  } catch (_) {
    // Blocked: nothing to migrate either.
  }
  const migration = migrateV1(storage, ownFree ? id : env.newId(), env.now());
  pruneDrafts(storage, id);
  const drafts = listDrafts(storage);
  const own = drafts.find((d) => d.tabId === id);
  // Whether this tab's text is in its own key (a removal by another tab is then written back).
  let ownWritten = own !== undefined;

  const start = store.getState().editorText;
  if (start === null) {
    const newest = drafts[0];
    let restored: { text: string; from: Restored } | undefined;
    if (own)
      restored = {
        text: own.text,
        from: migration.kind === 'moved' && migration.tabId === id ? 'older-version' : 'this-tab',
      };
    else if (migration.kind === 'kept') restored = { text: migration.text, from: 'older-version' };
    else if (newest)
      restored = {
        text: newest.text,
        from:
          migration.kind === 'moved' && migration.tabId === newest.tabId
            ? 'older-version'
            : 'another-tab',
      };
    if (restored) store.getState().setEditorText(restored.text);
    update({ state: restored ? 'saved' : 'idle', restored: restored?.from ?? null });
  } else update({ state: 'pending' });

  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const text = store.getState().editorText;
    if (text === null) return;
    const result = writeDraft(storage, id, text, env.now());
    if (result.ok) {
      ownWritten = true;
      update({ state: 'saved', problem: null });
    } else update({ state: 'unsaved', problem: result.problem });
  };
  if (start !== null) timer = setTimeout(write, SAVE_DELAY_MS);
  const flush = () => {
    if (timer !== undefined) write();
  };

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.editorText === prev.editorText) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(write, SAVE_DELAY_MS);
    if (status.state !== 'unsaved' && status.state !== 'pending') update({ state: 'pending' });
  });

  const onStorage = (e: StorageEvent) => {
    if (e.storageArea && e.storageArea !== (storage as unknown)) return;
    // Everything was cleared (from another tab): this tab's text goes back in.
    if (e.key === null) {
      if (ownWritten) write();
      return;
    }
    if (e.key === draftKey(id)) {
      // Another tab wrote this tab's key: it is a copy of this one (a duplicated tab keeps
      // sessionStorage, so the id). This tab takes a new id; the copy keeps the old key.
      if (e.newValue !== null) id = renewTabId(env.session, env.newId);
      // Removed by another tab (pruned, or cleared) or moved to the new id: written again.
      if (ownWritten) write();
      return;
    }
    if (e.key.startsWith(DRAFT_PREFIX) && e.newValue !== null && !status.otherTabChanged) {
      if (decodeDraft(e.newValue).text !== store.getState().editorText)
        update({ otherTabChanged: true });
    }
  };

  target?.addEventListener('pagehide', flush);
  target?.addEventListener('storage', onStorage as EventListener);
  return () => {
    flush();
    unsubscribe();
    target?.removeEventListener('pagehide', flush);
    target?.removeEventListener('storage', onStorage as EventListener);
  };
}
