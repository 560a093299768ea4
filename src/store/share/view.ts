/**
 * Between the store and a {@link SharedState}: what a link or the saved view holds of the
 * store ({@link snapshot}), and how a store opens one ({@link openView}, {@link storeForView}).
 */
import { canonicalObjects } from '../../model/scenario/canonical';
import type { ScenarioObject } from '../../model/k8s/objects';
import { selectCluster } from '../selectors';
import { whenModel } from '../modelSync';
import { createAppStore } from '../store';
import type { AppStore, Store } from '../types';
import { SHARE_VERSION, shareLink } from './link';
import type { SharedState, SharedTime } from './link';

let canonicalJson: string | undefined;
let canonicalCount: number | undefined;
const canonicalCache = new WeakMap<ScenarioObject[], boolean>();

/** Whether `objects` are the canonical scenario's (by value; memoised per array). */
export function isCanonical(objects: ScenarioObject[]): boolean {
  let hit = canonicalCache.get(objects);
  if (hit === undefined) {
    canonicalCount ??= canonicalObjects().length;
    canonicalJson ??= JSON.stringify(canonicalObjects());
    // Another count is another scenario: no need to write out an imported cluster's objects.
    hit = objects.length === canonicalCount && JSON.stringify(objects) === canonicalJson;
    canonicalCache.set(objects, hit);
  }
  return hit;
}

/**
 * The time view's part of a link, when it is on screen. The clock in whole ms when paused;
 * while it runs, in whole seconds (so the link, and whatever shows it, changes once a second,
 * not every frame).
 */
export function timeSnapshot(s: Store): SharedTime | undefined {
  const t = s.time;
  if (t.view !== 'time') return undefined;
  return {
    view: 'time',
    controller: t.controller,
    events: t.events,
    healthCheck: t.healthCheck,
    workload: t.workload,
    simMs: t.playing ? Math.floor(t.simMs / 1000) * 1000 : Math.round(t.simMs),
  };
}

/**
 * The view on screen, as a link carries it (objects left out when canonical; the time view's
 * inputs and clock when it is on screen).
 */
export function snapshot(s: Store): SharedState {
  const time = timeSnapshot(s);
  return {
    v: SHARE_VERSION,
    ...(isCanonical(s.objects) ? {} : { objects: s.objects }),
    scene: s.scene,
    step: s.playback.stepIndex,
    story: s.ui.walkthroughStep,
    ...(s.ui.selectedNode ? { node: s.ui.selectedNode } : {}),
    ...(time ? { time } : {}),
  };
}

/** `#s=<data>` for the view on screen, or null when it is too large for a link (a selector). */
export const selectShareHash = (s: Store): string | null => {
  const link = shareLink(snapshot(s));
  return link.ok ? link.hash : null;
};

/**
 * Puts the store on exactly `view`, paused: its objects and scene, then its step (clamped to the
 * trace), walkthrough step and node (when the cluster has that node); then the view on screen —
 * "Time & failures" with its inputs and clock when `view.time` is set, else the trace view.
 */
export function openView(store: AppStore, view: SharedState): void {
  const s = store.getState();
  s.setPlaying(false);
  if (view.objects) s.setObjects(view.objects);
  else if (!isCanonical(s.objects)) s.setObjects(canonicalObjects());
  s.setScene(view.scene, 'reset');
  s.setWalkthroughStep(view.story);
  // The step and the node need the view's trace and cluster: once the answer is in.
  whenModel(store, () => {
    // The step selects its kube-proxy node; the view's own node (picked next) wins over it.
    store.getState().setStepIndex(view.step);
    const nodes = selectCluster(store.getState())?.nodes.map((n) => n.name) ?? [];
    const current = store.getState().ui.selectedNode;
    const node =
      view.node !== undefined && nodes.includes(view.node)
        ? view.node
        : nodes.includes(current)
          ? current
          : (nodes[0] ?? '');
    if (node !== current) store.getState().selectNode(node);
  });
  if (view.time) {
    const { controller, healthCheck, events, workload, simMs } = view.time;
    s.openTime({ controller, healthCheck, events, workload, simMs });
  } else if (store.getState().time.view === 'time') s.setView('trace');
}

/** A new store opened on `view`. */
export function storeForView(view: SharedState): AppStore {
  const store = createAppStore(view.objects ? { objects: view.objects } : {});
  openView(store, view);
  return store;
}
