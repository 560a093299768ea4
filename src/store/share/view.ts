/**
 * Between the store and a {@link SharedState}: what a link or the saved view holds of the
 * store ({@link snapshot}), and how a store opens one ({@link openView}, {@link storeForView}).
 */
import { canonicalObjects } from '../../model';
import type { ScenarioObject } from '../../model/k8s/objects';
import { selectCluster } from '../selectors';
import { createAppStore } from '../store';
import type { AppStore, Store } from '../types';
import { SHARE_VERSION, shareLink } from './link';
import type { SharedState } from './link';

let canonicalJson: string | undefined;
const canonicalCache = new WeakMap<ScenarioObject[], boolean>();

/** Whether `objects` are the canonical scenario's (by value; memoised per array). */
export function isCanonical(objects: ScenarioObject[]): boolean {
  let hit = canonicalCache.get(objects);
  if (hit === undefined) {
    canonicalJson ??= JSON.stringify(canonicalObjects());
    hit = JSON.stringify(objects) === canonicalJson;
    canonicalCache.set(objects, hit);
  }
  return hit;
}

/** The view on screen, as a link carries it (objects left out when canonical). */
export function snapshot(s: Store): SharedState {
  return {
    v: SHARE_VERSION,
    ...(isCanonical(s.objects) ? {} : { objects: s.objects }),
    scene: s.scene,
    step: s.playback.stepIndex,
    story: s.ui.walkthroughStep,
    ...(s.ui.selectedNode ? { node: s.ui.selectedNode } : {}),
  };
}

/** `#s=<data>` for the view on screen, or null when it is too large for a link (a selector). */
export const selectShareHash = (s: Store): string | null => {
  const link = shareLink(snapshot(s));
  return link.ok ? link.hash : null;
};

/**
 * Puts the store on exactly `view`, paused: its objects and scene, then its step (clamped to the
 * trace), walkthrough step and node (when the cluster has that node).
 */
export function openView(store: AppStore, view: SharedState): void {
  const s = store.getState();
  s.setPlaying(false);
  if (view.objects) s.setObjects(view.objects);
  else if (!isCanonical(s.objects)) s.setObjects(canonicalObjects());
  s.setScene(view.scene, 'reset');
  // The step selects its kube-proxy node; the view's own node (picked later) wins over it.
  s.setStepIndex(view.step);
  s.setWalkthroughStep(view.story);
  const nodes = selectCluster(store.getState())?.nodes.map((n) => n.name) ?? [];
  const current = store.getState().ui.selectedNode;
  const node =
    view.node !== undefined && nodes.includes(view.node)
      ? view.node
      : nodes.includes(current)
        ? current
        : (nodes[0] ?? '');
  if (node !== current) s.selectNode(node);
}

/** A new store opened on `view`. */
export function storeForView(view: SharedState): AppStore {
  const store = createAppStore(view.objects ? { objects: view.objects } : {});
  openView(store, view);
  return store;
}
