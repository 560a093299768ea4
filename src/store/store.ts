/**
 * The store factory: one store per app instance (and a fresh one per test).
 */
import { createStore } from 'zustand/vanilla';
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import { WAITING } from './derived';
import { defaultEngine } from './engine';
import type { ModelEngine } from './engine';
import { attachEngine, whenModel } from './modelSync';
import { createPlaybackSlice } from './playbackSlice';
import { createScenarioSlice } from './scenarioSlice';
import { selectCluster } from './selectors';
import type { AppStore, Store } from './types';
import { createUiSlice } from './uiSlice';
import { createTimelineSlice } from './timelineSlice';
import { goToStory } from './commands';

export interface AppStoreOptions {
  objects?: ScenarioObject[];
  scene?: SceneOptions;
  /** Open on this walkthrough step (its scene and its trace step). */
  story?: number;
  /** Who computes the model (default: {@link defaultEngine}). */
  engine?: ModelEngine;
}

/**
 * Selects the cluster's first node: with a sync engine the resolved cluster's first node (''
 * when the objects do not resolve); with an async one, at once, the first `Node` object's
 * name (the resolved cluster lists its nodes in the objects' order: `resolveCluster`), so
 * nothing about the view changes when the answer lands.
 */
export function selectFirstNode(store: AppStore): void {
  const s = store.getState();
  if (!s.model.compute) {
    const node = s.objects.find((o) => o.kind === 'Node');
    s.selectNode(node?.metadata?.name ?? '');
    return;
  }
  whenModel(
    store,
    () => store.getState().selectNode(selectCluster(store.getState())?.nodes[0]?.name ?? ''),
    true,
  );
}

/** Makes a store; with no options it holds the canonical scenario before the first step. */
export function createAppStore(options: AppStoreOptions = {}): AppStore {
  const engine = options.engine ?? defaultEngine();
  const store = createStore<Store>()((...a) => ({
    ...createScenarioSlice(...a),
    ...createPlaybackSlice(...a),
    ...createUiSlice(...a),
    ...createTimelineSlice(...a),
    model: {
      compute: engine.kind === 'sync' ? engine.derive : null,
      objects: null,
      scene: null,
      derived: WAITING,
    },
  }));
  const { objects, scene, story } = options;
  if (objects) store.setState({ objects });
  if (scene) store.setState({ scene });
  if (engine.kind === 'async') attachEngine(store, engine);
  selectFirstNode(store);
  if (story !== undefined) goToStory(story).perform(store);
  return store;
}
