/**
 * The store factory: one store per app instance (and a fresh one per test).
 */
import { createStore } from 'zustand/vanilla';
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
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
}

/** Makes a store; with no options it holds the canonical scenario before the first step. */
export function createAppStore(options: AppStoreOptions = {}): AppStore {
  const store = createStore<Store>()((...a) => ({
    ...createScenarioSlice(...a),
    ...createPlaybackSlice(...a),
    ...createUiSlice(...a),
    ...createTimelineSlice(...a),
  }));
  const { objects, scene, story } = options;
  if (objects) store.setState({ objects });
  if (scene) store.setState({ scene });
  const first = selectCluster(store.getState())?.nodes[0]?.name ?? '';
  store.getState().selectNode(first);
  if (story !== undefined) goToStory(story).perform(store);
  return store;
}
