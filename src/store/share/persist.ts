/**
 * The last view, kept in the browser so a reload opens where the person was. Stored as JSON
 * under a versioned key; read back through the same checks as a link. Storage may be missing,
 * disabled, full or hold anything: every access is guarded, nothing throws.
 *
 * Two tabs: each saves to localStorage (the last view of any tab: what a new tab, or the app
 * opened again, starts from) and to its own sessionStorage (this tab's last view: what a reload
 * of this tab opens, whatever another tab saved since). A view that fits a link is in the tab's
 * address bar too, and a link wins over both (`boot.ts`).
 *
 * Older versions: format 1 is the only one so far. A saved view in a format this version does
 * not read is not opened, and the app says why ("from an older version …", `boot.ts`); it
 * stays in storage until a view is next saved. A later format must read this one (or migrate
 * it), as `store/draft/drafts.ts` does for the editor's text.
 */
import { SHARE_VERSION, tooManyObjects, validateSharedState } from './link';
import type { SharedState } from './link';

/** The key this version writes; a later format would use another key (`lbpath.v2.state`). */
export const STORAGE_KEY = `lbpath.v${SHARE_VERSION}.state`;

/**
 * At most this many characters are saved or read back (localStorage holds about 5 MB, in
 * UTF-16, per origin, shared with the editor's text).
 */
export const MAX_SAVED_CHARS = 1_500_000;

/** The part of `Storage` used here (a fake one in tests). */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type Restored =
  { kind: 'none' } | { kind: 'ok'; state: SharedState } | { kind: 'ignored'; reason: string };

/** The browser's localStorage, or undefined when there is none or it is blocked. */
export function browserStorage(): StorageLike | undefined {
  try {
    // Reading the property itself throws a SecurityError when storage is disabled.
    const storage = globalThis.localStorage as Storage | undefined;
    return storage ?? undefined;
  } catch (_) {
    return undefined;
  }
}

/** This tab's sessionStorage (its own last view), or undefined when there is none or it is blocked. */
export function tabStorage(): StorageLike | undefined {
  try {
    return (globalThis.sessionStorage as Storage | undefined) ?? undefined;
  } catch (_) {
    return undefined;
  }
}

/** The saved view, if there is a readable one; otherwise why it was ignored. */
export function loadSaved(storage: StorageLike | undefined): Restored {
  if (!storage) return { kind: 'none' };
  let text: string | null;
  try {
    text = storage.getItem(STORAGE_KEY);
  } catch (_) {
    return { kind: 'none' };
  }
  if (text === null) return { kind: 'none' };
  if (typeof text !== 'string' || text.length > MAX_SAVED_CHARS)
    return { kind: 'ignored', reason: 'the saved view is too large' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (_) {
    return { kind: 'ignored', reason: 'the saved view is damaged (it is not valid JSON)' };
  }
  const checked = validateSharedState(value, 'the saved view');
  return checked.ok
    ? { kind: 'ok', state: checked.state }
    : { kind: 'ignored', reason: checked.reason };
}

/** Writes `text` under {@link STORAGE_KEY} (null: removes it); false when not written. */
function put(storage: StorageLike | undefined, text: string | null): boolean {
  if (!storage) return false;
  try {
    if (text !== null) {
      storage.setItem(STORAGE_KEY, text);
      return true;
    }
  } catch (_) {
    // Full or blocked: fall through and drop the stale view.
  }
  try {
    storage.removeItem(STORAGE_KEY);
  } catch (_) {
    // Blocked: nothing more to do.
  }
  return false;
}

/**
 * Saves `state` in `storage` (localStorage) and in `tab` (this tab's sessionStorage, when
 * given); returns whether localStorage took it — false when it is missing, full or blocked,
 * or the view is too large. A view that cannot be saved removes the saved one, so a reload
 * never opens an older view than the last one on screen (it opens the default).
 */
export function saveView(
  storage: StorageLike | undefined,
  state: SharedState,
  tab?: StorageLike,
): boolean {
  if (!storage && !tab) return false;
  // A view with more objects than a saved view may hold is refused unwritten (it would be
  // refused when read, and writing out 10,000 Pods blocks the page).
  let text: string | null = null;
  if (!tooManyObjects(state)) {
    const json = JSON.stringify(state);
    if (json.length <= MAX_SAVED_CHARS) text = json;
  }
  put(tab, text);
  return put(storage, text);
}
