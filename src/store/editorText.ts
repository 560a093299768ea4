/**
 * The manifests editor's text, kept in the browser (localStorage) under its own key, so a
 * reload keeps what was typed even when it never became a valid scenario. Separate from the
 * saved view (`share/persist.ts`): a link never carries the editor's text. Every access is
 * guarded; nothing throws.
 */
import type { AppStore } from './types';

export const EDITOR_TEXT_KEY = 'lbpath.v1.editorText';

/** Longer text is not saved (localStorage holds about 5 MB per origin). */
export const MAX_SAVED_EDITOR_CHARS = 1_000_000;

/** How long typing must pause before the text is saved. */
export const SAVE_DELAY_MS = 500;

export type TextStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's localStorage, or undefined when there is none or it is blocked. */
export function editorStorage(): TextStorage | undefined {
  try {
    return (globalThis.localStorage as Storage | undefined) ?? undefined;
  } catch (_) {
    return undefined;
  }
}

/** The saved text, or null. */
export function loadEditorText(storage: TextStorage | undefined): string | null {
  try {
    const text = storage?.getItem(EDITOR_TEXT_KEY) ?? null;
    return typeof text === 'string' && text.length <= MAX_SAVED_EDITOR_CHARS ? text : null;
  } catch (_) {
    return null;
  }
}

/** Saves `text` (null removes it); returns false when storage is missing, full or blocked. */
export function saveEditorText(storage: TextStorage | undefined, text: string | null): boolean {
  if (!storage) return false;
  try {
    if (text === null || text.length > MAX_SAVED_EDITOR_CHARS) storage.removeItem(EDITOR_TEXT_KEY);
    else storage.setItem(EDITOR_TEXT_KEY, text);
    return text === null || text.length <= MAX_SAVED_EDITOR_CHARS;
  } catch (_) {
    return false;
  }
}

/**
 * Restores the saved text into the store (unless it already holds some) and saves every
 * change, debounced and on `pagehide`. Returns the function that stops it (and flushes).
 */
export function syncEditorText(
  store: AppStore,
  storage: TextStorage | undefined,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined = globalThis.window,
): () => void {
  if (!storage) return () => {};
  if (store.getState().editorText === null) {
    const saved = loadEditorText(storage);
    if (saved !== null) store.getState().setEditorText(saved);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    timer = undefined;
    saveEditorText(storage, store.getState().editorText);
  };
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    write();
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.editorText === prev.editorText) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(write, SAVE_DELAY_MS);
  });
  target?.addEventListener('pagehide', flush);
  return () => {
    flush();
    unsubscribe();
    target?.removeEventListener('pagehide', flush);
  };
}
