/**
 * The learner's progress, kept in the browser under `lbpath.v1.tutorial`: the chapters read,
 * the last chapter opened (reopening the reader resumes there) and the answers given to the
 * "Check yourself" questions. Read back defensively: storage may be missing, blocked, full or
 * hold anything; every access is guarded and nothing throws.
 */
import type { StorageLike } from '../../store/share';

/** The key this version writes. */
export const PROGRESS_KEY = 'lbpath.v1.tutorial';

/** What is remembered. */
export interface Progress {
  /** Slugs of the chapters read, in the order they were first read. */
  read: string[];
  /** The slug of the chapter opened last. */
  last?: string;
  /** Question id → the id of the option the learner checked. */
  answers: Record<string, string>;
}

const EMPTY: Progress = { read: [], answers: {} };
const MAX_ITEMS = 500;
const MAX_TEXT = 200;

const isText = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT;

/** The saved progress, or an empty one when there is none or it cannot be read. */
export function loadProgress(storage: StorageLike | undefined): Progress {
  let text: string | null;
  try {
    text = storage?.getItem(PROGRESS_KEY) ?? null;
  } catch (_) {
    return EMPTY;
  }
  if (text === null || text.length > 100_000) return EMPTY;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (_) {
    return EMPTY;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return EMPTY;
  const v = value as Record<string, unknown>;
  const read = Array.isArray(v['read'])
    ? [...new Set(v['read'].filter(isText))].slice(0, MAX_ITEMS)
    : [];
  const answers: Record<string, string> = {};
  const a = v['answers'];
  if (typeof a === 'object' && a !== null && !Array.isArray(a))
    for (const [k, option] of Object.entries(a).slice(0, MAX_ITEMS))
      if (isText(k) && isText(option) && k !== '__proto__') answers[k] = option;
  const last = v['last'];
  return { read, answers, ...(isText(last) ? { last } : {}) };
}

/** Saves `progress`; returns false when storage is missing, full or blocked. */
export function saveProgress(storage: StorageLike | undefined, progress: Progress): boolean {
  if (!storage) return false;
  try {
    storage.setItem(PROGRESS_KEY, JSON.stringify(progress));
    return true;
  } catch (_) {
    return false;
  }
}

/** `progress` with `slug` marked read (once). */
export function markRead(progress: Progress, slug: string): Progress {
  return progress.read.includes(slug) ? progress : { ...progress, read: [...progress.read, slug] };
}

/** `progress` with `slug` as the last chapter opened. */
export function withLast(progress: Progress, slug: string): Progress {
  return progress.last === slug ? progress : { ...progress, last: slug };
}

/** `progress` with the answer `option` recorded for question `id`. */
export function withAnswer(progress: Progress, id: string, option: string): Progress {
  return progress.answers[id] === option
    ? progress
    : { ...progress, answers: { ...progress.answers, [id]: option } };
}
