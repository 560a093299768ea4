/**
 * "Open as trace": where the single-packet trace meets time. The model gives the cluster as of
 * a connection's opening with its path pinned (`sceneAt`); the trace view opens exactly that
 * (objects, scene with pinned `choices`), on its first step, and the time view keeps
 * simulating the scenario it had (see `TimeSource`) until the person changes the trace view.
 */
import { sceneAt } from '../../model/time';
import type { ScenarioObject } from '../../model/k8s/objects';
import type { SceneOptions } from '../../model/scenario/scene';
import type { Timeline } from '../../model/time/types';
import { SHARE_VERSION } from '../../store/share/link';
import { openView } from '../../store/share/view';
import type { AppStore, Store } from '../../store/types';

/** The scenario the time view simulates: the kept source while it still applies, else the trace view's. */
export function timeScenario(s: Store): { objects: ScenarioObject[]; scene: SceneOptions } {
  const src = s.time.source;
  if (src && src.openedObjects === s.objects && src.openedScene === s.scene)
    return { objects: src.objects, scene: src.scene };
  return { objects: s.objects, scene: s.scene };
}

/**
 * Opens connection `connectionId` of `timeline` in the trace view.
 * @throws {Error} when the timeline has no such connection (from `sceneAt`).
 */
export function openAsTrace(store: AppStore, timeline: Timeline, connectionId: string): void {
  const snapshot = sceneAt(timeline, connectionId);
  const before = timeScenario(store.getState());
  openView(store, {
    v: SHARE_VERSION,
    objects: snapshot.objects,
    scene: snapshot.scene,
    step: 0,
    story: null,
  });
  const s = store.getState();
  s.setTimeSource({ ...before, openedObjects: s.objects, openedScene: s.scene });
  s.setView('trace');
  if (typeof window !== 'undefined') focusTraceView(window);
}

/**
 * Once the trace view is on screen (it renders after the store changed, so this waits up to
 * half a second of frames): scrolls it to the top of the viewport and moves keyboard focus to
 * the Narration panel's heading, so the reader lands on the connection's first step rather
 * than at the bottom of the page, with `<body>` focused.
 */
export function focusTraceView(win: Window, frames = 30): void {
  const doc = win.document;
  const heading = doc.querySelector<HTMLElement>('[data-testid="narration"] h2');
  const stage = doc.querySelector<HTMLElement>('main.layout:not(.time-layout)');
  if (!heading || !stage) {
    if (frames > 0) win.requestAnimationFrame(() => focusTraceView(win, frames - 1));
    return;
  }
  stage.scrollIntoView({ block: 'start' });
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}
