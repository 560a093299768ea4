/**
 * What the pieces of a chapter (scene links, live scenes, questions, glossary links) need from
 * the reader: the app's main store (scene links open their view there, not in a live scene's
 * own store), the chapter on screen, the theme, a way to announce, and the learner's answers.
 */
import { createContext, useContext } from 'react';
import type { AppStore } from '../../store';
import type { SharedState } from '../../store/share';
import type { GlossaryEntry } from '../../tutorial';

/** Said after a link that replaced the learner's own cluster (which is kept). */
export const DISPLACED_NOTE =
  ' It switched to the tutorial’s scenario; your cluster is kept — Restore brings it back.';

/** The reader's shared state for the components inside a chapter. */
export interface ReaderContextValue {
  /** The visualiser's store (the app's), never a live scene's. */
  mainStore: AppStore;
  /**
   * Opens `view` in the visualiser for the learner (a scene link, "Show me", a live scene's
   * "Open in the visualiser"; a time link, which then switches to the time view), in the trace
   * view; a chapter's own scene, still loading, then no longer replaces it. Returns true when it
   * replaced the learner's own cluster (kept: the reader offers Restore; say so with
   * {@link DISPLACED_NOTE}).
   */
  openInVisualiser: (view: SharedState) => boolean;
  /** The slug of the chapter on screen ('' on the glossary page). */
  slug: string;
  /** The page's theme, resolved (`system` → the system's). */
  theme: 'light' | 'dark';
  /** Says `text` in the reader's polite live region (and shows it). */
  announce: (text: string) => void;
  /** Question id → the option id the learner checked. */
  answers: Readonly<Record<string, string>>;
  /** Remembers the learner's answer to a question. */
  saveAnswer: (id: string, option: string) => void;
  /** Glossary entries by id. */
  glossary: ReadonlyMap<string, GlossaryEntry>;
}

/** The reader's context; null outside the reader. */
export const ReaderContext = createContext<ReaderContextValue | null>(null);

/**
 * The reader's context.
 * @throws {Error} outside the reader.
 */
export function useReader(): ReaderContextValue {
  const value = useContext(ReaderContext);
  if (!value) throw new Error('useReader must be used inside the tutorial reader');
  return value;
}
