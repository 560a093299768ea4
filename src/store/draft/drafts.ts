/**
 * The manifests editor's drafts in localStorage: one key per browser tab, the older
 * version's single key migrated, old drafts pruned. Pure functions over a given `Storage`
 * (a fake one in tests); none of them throws.
 *
 * The scheme (decided for issue 15, "Nothing lost"):
 * - Each tab saves its text under its own key, `lbpath.v2.draft.<tabId>`, as JSON
 *   `{"v":2,"savedAt":<ms since 1970>,"text":"…"}` — the text exactly as typed. The tab's id
 *   lives in sessionStorage (`tabId.ts`), which a reload of the same tab keeps, so a reload
 *   finds that tab's own draft; two tabs never write the same key.
 * - A tab with no draft of its own (a new tab, "open the app again") starts from the most
 *   recently saved draft of any tab, and writes only its own key once its text changes.
 * - At most {@link MAX_DRAFTS} drafts are kept: when a tab starts, the oldest beyond that
 *   are removed (never the starting tab's own). With more tabs open than that, an idle tab's
 *   draft may go; the tab saves it again when it next changes or is hidden.
 * - Text longer than {@link MAX_SAVED_EDITOR_CHARS} is not saved (localStorage holds about
 *   5 million characters per origin, shared with the saved view) — said to the person, with a
 *   way to download it, as is a full or blocked storage (`SaveProblem`).
 * - Version 1 kept one text under `lbpath.v1.editorText`: it is moved into a v2 draft and
 *   removed only once that draft is written; if it cannot be written, the v1 key stays and
 *   its text is still used.
 * - A value under a draft key that is not a v2 draft (damaged, or written by hand) is kept
 *   and read as the text itself, saved at time 0 (so the oldest): never thrown away unread.
 */

/** The prefix of every draft's key; the tab's id follows. */
export const DRAFT_PREFIX = 'lbpath.v2.draft.';

/** Where version 1 kept the editor's one text. */
export const V1_EDITOR_KEY = 'lbpath.v1.editorText';

/** The format number written in each draft. */
export const DRAFT_VERSION = 2;

/** Drafts kept at most (the newest, by `savedAt`). */
export const MAX_DRAFTS = 5;

/** Longer text (in UTF-16 code units, JavaScript's `length`) is not saved. */
export const MAX_SAVED_EDITOR_CHARS = 1_000_000;

/** The part of `Storage` the drafts use: a fake one in tests. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** One saved draft. */
export interface Draft {
  /** Its localStorage key, {@link DRAFT_PREFIX} + `tabId`. */
  key: string;
  tabId: string;
  text: string;
  /** When it was saved, ms since 1970 (0 for a value that is not a v2 draft). */
  savedAt: number;
}

/**
 * Why text was not saved: storage is `full` (a quota error), the text is `too-large`
 * (over {@link MAX_SAVED_EDITOR_CHARS}), or storage is `blocked` (missing, disabled by the
 * browser's settings, or refusing for another reason).
 */
export type SaveProblem = 'full' | 'too-large' | 'blocked';

/** What a save came to. */
export type SaveResult = { ok: true } | { ok: false; problem: SaveProblem };

/** The key of `tabId`'s draft. */
export function draftKey(tabId: string): string {
  return DRAFT_PREFIX + tabId;
}

/** Whether `e` is the browser saying storage is full (named differently by each engine). */
export function isQuotaError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return (
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    code === 22 ||
    code === 1014
  );
}

/** `value` (a draft key's value) as text and time; a value that is not a v2 draft is the text. */
export function decodeDraft(value: string): { text: string; savedAt: number } {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null) {
      const { text, savedAt } = parsed as { text?: unknown; savedAt?: unknown };
      if (typeof text === 'string')
        return {
          text,
          savedAt: typeof savedAt === 'number' && Number.isFinite(savedAt) ? savedAt : 0,
        };
    }
  } catch (_) {
    // Not JSON: the value itself is the text.
  }
  return { text: value, savedAt: 0 };
}

/** The stored form of a draft of `text` saved at `savedAt` (ms). */
export function encodeDraft(text: string, savedAt: number): string {
  return JSON.stringify({ v: DRAFT_VERSION, savedAt, text });
}

/** Every draft in `storage`, newest first; [] when storage is missing or blocked. */
export function listDrafts(storage: DraftStorage | undefined): Draft[] {
  if (!storage) return [];
  const drafts: Draft[] = [];
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key !== null && key.startsWith(DRAFT_PREFIX) && key.length > DRAFT_PREFIX.length)
        keys.push(key);
    }
    for (const key of keys) {
      const value = storage.getItem(key);
      if (value === null) continue;
      drafts.push({ key, tabId: key.slice(DRAFT_PREFIX.length), ...decodeDraft(value) });
    }
  } catch (_) {
    return drafts;
  }
  return drafts.sort((a, b) => b.savedAt - a.savedAt);
}

/** Saves `text` as `tabId`'s draft, at `savedAt` (ms). Writes no other key. */
export function writeDraft(
  storage: DraftStorage | undefined,
  tabId: string,
  text: string,
  savedAt: number,
): SaveResult {
  if (!storage) return { ok: false, problem: 'blocked' };
  if (text.length > MAX_SAVED_EDITOR_CHARS) return { ok: false, problem: 'too-large' };
  try {
    storage.setItem(draftKey(tabId), encodeDraft(text, savedAt));
    return { ok: true };
  } catch (e) {
    return { ok: false, problem: isQuotaError(e) ? 'full' : 'blocked' };
  }
}

/**
 * Removes the oldest drafts beyond `max`, never `keepTabId`'s own. Returns the keys removed.
 */
export function pruneDrafts(
  storage: DraftStorage | undefined,
  keepTabId: string,
  max = MAX_DRAFTS,
): string[] {
  const drafts = listDrafts(storage);
  const own = drafts.some((d) => d.tabId === keepTabId) ? 1 : 0;
  const others = drafts.filter((d) => d.tabId !== keepTabId);
  const removed = others.slice(Math.max(0, max - own)).map((d) => d.key);
  for (const key of removed) {
    try {
      storage?.removeItem(key);
    } catch (_) {
      // Blocked: nothing more to do.
    }
  }
  return removed;
}

/** What {@link migrateV1} found. */
export type Migration =
  | { kind: 'none' }
  /** The v1 text is now `tabId`'s draft and the v1 key is gone. */
  | { kind: 'moved'; tabId: string; text: string }
  /** The v1 text could not be written as a draft: the v1 key is kept (and its text used). */
  | { kind: 'kept'; text: string; problem: SaveProblem };

/**
 * Moves version 1's text (under {@link V1_EDITOR_KEY}) into a draft for `tabId`, saved at
 * `savedAt` (ms), then removes the v1 key — in that order, so a failed write loses nothing.
 */
export function migrateV1(
  storage: DraftStorage | undefined,
  tabId: string,
  savedAt: number,
): Migration {
  let text: string | null;
  try {
    text = storage?.getItem(V1_EDITOR_KEY) ?? null;
  } catch (_) {
    return { kind: 'none' };
  }
  if (text === null) return { kind: 'none' };
  const written = writeDraft(storage, tabId, text, savedAt);
  if (!written.ok) return { kind: 'kept', text, problem: written.problem };
  try {
    storage?.removeItem(V1_EDITOR_KEY);
  } catch (_) {
    // The draft is written; a v1 key left behind is migrated (again, to the same text) later.
  }
  return { kind: 'moved', tabId, text };
}
