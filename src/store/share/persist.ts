/**
 * The last view, kept in the browser (localStorage) so a reload opens where the person was.
 * Stored as JSON under a versioned key; read back through the same checks as a link. Storage
 * may be missing, disabled, full or hold anything: every access is guarded, nothing throws.
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

/**
 * Saves `state`; returns false when storage is missing, full or blocked, or the view is too
 * large. A view that cannot be saved removes the saved one, so a reload never opens an older
 * view than the last one on screen (it opens the default).
 */
export function saveView(storage: StorageLike | undefined, state: SharedState): boolean {
  if (!storage) return false;
  try {
    // A view with more objects than a saved view may hold is refused unwritten (it would be
    // refused when read, and writing out 10,000 Pods blocks the page).
    if (tooManyObjects(state)) throw new RangeError('too many objects');
    const text = JSON.stringify(state);
    if (text.length <= MAX_SAVED_CHARS) {
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
