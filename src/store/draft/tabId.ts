/**
 * This browser tab's id, for the key of its draft (`drafts.ts`). Kept in sessionStorage, which
 * belongs to one tab and survives its reloads, so a reload finds the same id. Without
 * sessionStorage (blocked), each page load gets a new id: its draft is then found as the
 * newest draft of any tab. None of this throws.
 */

/** The sessionStorage key of the tab's id. */
export const TAB_ID_KEY = 'lbpath.v2.tabId';

/** The part of `Storage` used here. */
export type SessionLike = Pick<Storage, 'getItem' | 'setItem'>;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new random id: 16 hex digits. */
export function newTabId(): string {
  const bytes = new Uint8Array(8);
  try {
    globalThis.crypto.getRandomValues(bytes);
  } catch (_) {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The id kept in `session`, or a new one (`make()`), then kept there. */
export function tabId(session: SessionLike | undefined, make: () => string = newTabId): string {
  try {
    const kept = session?.getItem(TAB_ID_KEY);
    if (kept && ID.test(kept)) return kept;
  } catch (_) {
    // Blocked: a new id for this page load.
  }
  return renewTabId(session, make);
}

/** Gives the tab a new id (`make()`) and keeps it in `session`; returns it. */
export function renewTabId(
  session: SessionLike | undefined,
  make: () => string = newTabId,
): string {
  const id = make();
  try {
    session?.setItem(TAB_ID_KEY, id);
  } catch (_) {
    // Blocked or full: the id holds for this page load.
  }
  return id;
}
