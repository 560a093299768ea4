/**
 * The learner's own cluster, kept while the tutorial is open. Opening the tutorial never throws
 * away what the visualiser held: the view on screen when the reader opens is kept (in memory and
 * in sessionStorage under {@link STASH_KEY}, so a reload keeps it too), and it is updated again
 * whenever the tutorial is about to replace a cluster the learner brought (an import or an
 * example picked in "Your cluster"). The reader offers "Restore" while that cluster is off screen,
 * and so does the app after the reader closes.
 *
 * Part of the initial bundle (the app's close notice and the walkthrough panel use it), so it
 * stays small: no React.
 */
import { isCanonical, openView, snapshot, validateSharedState } from '../../store/share';
import type { SharedState } from '../../store/share';
import type { AppStore, Store } from '../../store';
import type { ScenarioObject } from '../../model';

/** The sessionStorage key of the kept view (a {@link SharedState} as JSON). */
export const STASH_KEY = 'lbpath.v1.pretutorial';

/** Largest kept view read back from sessionStorage, in characters. */
const MAX_TEXT = 4_000_000;

let memory: SharedState | null | undefined;
const listeners = new Set<() => void>();
/** Object lists and scenes the tutorial itself put in the visualiser (by identity). */
const tutorialObjects = new WeakSet<object>();
const tutorialScenes = new WeakSet<object>();
const json = new WeakMap<object, string>();

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch (_) {
    return undefined;
  }
}

function jsonOf(objects: readonly ScenarioObject[]): string {
  let text = json.get(objects);
  if (text === undefined) {
    text = JSON.stringify(objects);
    json.set(objects, text);
  }
  return text;
}

/** The kept view, or null. Read from sessionStorage once, validated like a shared link. */
export function readStash(): SharedState | null {
  if (memory !== undefined) return memory;
  memory = null;
  try {
    const text = session()?.getItem(STASH_KEY);
    if (text && text.length <= MAX_TEXT) {
      const r = validateSharedState(JSON.parse(text), 'the view kept before the tutorial');
      if (r.ok) memory = r.state;
    }
  } catch (_) {
    // Unreadable or blocked storage: nothing is kept.
  }
  return memory;
}

/** Keeps `view` (null forgets it), in memory and in sessionStorage; listeners are told. */
export function writeStash(view: SharedState | null): void {
  memory = view;
  try {
    if (view) session()?.setItem(STASH_KEY, JSON.stringify(view));
    else session()?.removeItem(STASH_KEY);
  } catch (_) {
    // Full or blocked storage: memory still holds it for this page.
  }
  listeners.forEach((l) => l());
}

/** Calls `listener` whenever the kept view changes; returns the unsubscribe function. */
export function subscribeStash(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Remembers that the tutorial put the store's current objects and scene on screen. */
export function markOpenedByTutorial(s: Store): void {
  tutorialObjects.add(s.objects);
  tutorialScenes.add(s.scene);
}

/** Whether `scene` is the one a tutorial link (or a chapter) opened, not changed since. */
export function openedByTutorial(scene: object): boolean {
  return tutorialScenes.has(scene);
}

/**
 * Whether the visualiser holds a cluster the learner brought: objects that are not the canonical
 * scenario's and that the tutorial did not put there.
 */
export function holdsLearnerCluster(s: Store): boolean {
  return !isCanonical(s.objects) && !tutorialObjects.has(s.objects);
}

/**
 * When the reader opens: keeps the view on screen, unless a view is already kept (a reload with
 * the reader open keeps the one from before the tutorial).
 */
export function keepViewOnOpen(store: AppStore): void {
  if (readStash() === null) writeStash(snapshot(store.getState()));
}

/**
 * Before the tutorial replaces what the visualiser shows: when that is the learner's own cluster,
 * keeps it (so Restore brings back the latest one). Returns whether it was the learner's.
 */
export function keepLearnerCluster(store: AppStore): boolean {
  const s = store.getState();
  if (!holdsLearnerCluster(s)) return false;
  writeStash(snapshot(s));
  return true;
}

/**
 * The kept view when it holds the learner's own cluster and the visualiser shows other objects
 * now (so "Restore" would bring something back); else null.
 */
export function displacedCluster(s: Store): SharedState | null {
  const kept = readStash();
  if (!kept?.objects) return null;
  if (kept.objects === s.objects) return null;
  return jsonOf(kept.objects) === jsonOf(s.objects) ? null : kept;
}

/** Puts the kept view back in the visualiser (the trace view). Returns whether there was one. */
export function restoreKept(store: AppStore): boolean {
  const kept = readStash();
  if (!kept) return false;
  openView(store, kept);
  store.getState().setView('trace');
  return true;
}
