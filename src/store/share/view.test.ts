import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH, canonicalObjects } from '../../model';
import type { ScenarioObject } from '../../model/k8s/objects';
import { goToStory, next, run, setProxyMode, togglePolicy } from '../commands';
import { selectStep, selectStepCount, selectTrace } from '../selectors';
import { createAppStore } from '../store';
import { boot } from './boot';
import { decodeState, encodeState } from './link';
import type { SharedState } from './link';
import { STORAGE_KEY, saveView } from './persist';
import type { StorageLike } from './persist';
import { isCanonical, openView, snapshot, storeForView } from './view';

function fakeStorage(initial: Record<string, string> = {}): StorageLike {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

/** The canonical scenario with the internet client at another address: a changed input. */
function customObjects(): ScenarioObject[] {
  return canonicalObjects().map((o) =>
    o.kind === 'Client' && o.metadata.name === 'internet'
      ? { ...o, spec: { ...o.spec, address: '198.51.100.99' } }
      : o,
  );
}

describe('snapshot / openView', () => {
  it('leaves the canonical objects out, and keeps custom ones', () => {
    const store = createAppStore();
    expect(isCanonical(store.getState().objects)).toBe(true);
    expect(snapshot(store.getState()).objects).toBeUndefined();
    const objects = customObjects();
    store.getState().setObjects(objects);
    expect(isCanonical(objects)).toBe(false);
    expect(snapshot(store.getState()).objects).toBe(objects);
  });

  it('a view survives store → link → new store, exactly', () => {
    const a = createAppStore({ story: 1 });
    run(a, setProxyMode('nftables'));
    run(a, next);
    a.getState().selectNode('node-3');
    const view = snapshot(a.getState());
    expect(view).toMatchObject({ story: 1, node: 'node-3' });
    const decoded = decodeState(encodeState(view));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const b = storeForView(decoded.state);
    const s = b.getState();
    expect(s.scene).toEqual(a.getState().scene);
    expect(s.playback).toEqual({ ...a.getState().playback, playing: false });
    expect(s.ui.walkthroughStep).toBe(1);
    // The step's own node would be selected by the step; the view's node wins.
    expect(s.ui.selectedNode).toBe('node-3');
    expect(selectStep(s)?.narration).toEqual(selectStep(a.getState())?.narration);
    expect(snapshot(s)).toEqual(view);
  });

  it('custom objects open as they were', () => {
    const objects = customObjects();
    const a = createAppStore({ objects });
    run(a, togglePolicy);
    run(a, next);
    const b = storeForView(snapshot(a.getState()));
    expect(b.getState().objects).toEqual(objects);
    expect(selectTrace(b.getState())).toEqual(selectTrace(a.getState()));
  });

  it('clamps the step to the trace and ignores a node the cluster does not have', () => {
    const view: SharedState = {
      v: 1,
      scene: DEFAULT_SCENE,
      step: 9999,
      story: null,
      node: 'node-9',
    };
    const s = storeForView(view).getState();
    expect(s.playback.stepIndex).toBe(selectStepCount(s) - 1);
    expect(['node-1', 'node-2', 'node-3']).toContain(s.ui.selectedNode);
    expect(s.playback.playing).toBe(false);
  });

  it('openView on a running store stops playback and goes back to canonical objects', () => {
    const store = createAppStore({ objects: customObjects() });
    store.getState().setPlaying(true);
    openView(store, { v: 1, scene: DEFAULT_SCENE, step: 2, story: 0 });
    const s = store.getState();
    expect(s.playback).toMatchObject({ stepIndex: 2, playing: false });
    expect(isCanonical(s.objects)).toBe(true);
    expect(s.ui.walkthroughStep).toBe(0);
  });
});

describe('boot: link, then saved view, then default', () => {
  const saved: SharedState = {
    v: 1,
    scene: { ...DEFAULT_SCENE, ipMode: 'Proxy' },
    step: 1,
    story: null,
  };

  it('opens the default walkthrough step when there is nothing', () => {
    const b = boot('', fakeStorage());
    expect(b.source).toBe('default');
    expect(b.notice).toBeUndefined();
    const s = b.store.getState();
    expect(s.ui.walkthroughStep).toBe(0);
    expect(s.scene).toEqual({ ...DEFAULT_SCENE, ...DEFAULT_WALKTHROUGH.steps[0]!.scene });
  });

  it('a link wins over the saved view', () => {
    const storage = fakeStorage();
    saveView(storage, saved);
    const store = createAppStore();
    run(store, goToStory(3));
    const b = boot(encodeState(snapshot(store.getState())), storage);
    expect(b.source).toBe('link');
    expect(b.store.getState().ui.walkthroughStep).toBe(3);
    expect(b.store.getState().playback.stepIndex).toBe(store.getState().playback.stepIndex);
  });

  it('a bad link opens the default with a notice, not the saved view', () => {
    const storage = fakeStorage();
    saveView(storage, saved);
    const b = boot('#s=garbage', storage);
    expect(b).toMatchObject({ source: 'default', badLink: true });
    expect(b.notice).toMatch(
      /^This link could not be opened: the link is damaged or incomplete .*\. Showing the default scenario\.$/,
    );
    expect(b.store.getState().ui.walkthroughStep).toBe(0);
  });

  it('restores the saved view; other fragments (#foo) do not count as links', () => {
    const storage = fakeStorage();
    saveView(storage, saved);
    for (const hash of ['', '#foo']) {
      const b = boot(hash, storage);
      expect(b.source).toBe('saved');
      expect(b.store.getState().scene).toEqual(saved.scene);
      expect(b.store.getState().playback.stepIndex).toBe(1);
    }
  });

  it('two tabs: a reload opens this tab’s own last view, a new tab the last of any tab', () => {
    const local = fakeStorage();
    const tabA = fakeStorage();
    const tabB = fakeStorage();
    const viewA: SharedState = { ...saved, step: 2 };
    const viewB: SharedState = { ...saved, scene: { ...saved.scene, ipMode: 'VIP' }, step: 3 };
    saveView(local, viewA, tabA);
    // Tab B saves later: localStorage holds B's view now.
    saveView(local, viewB, tabB);
    const reloadA = boot('', local, tabA);
    expect(reloadA.source).toBe('saved');
    expect(reloadA.store.getState().scene.ipMode).toBe('Proxy');
    expect(reloadA.store.getState().playback.stepIndex).toBe(2);
    expect(boot('', local, tabB).store.getState().scene.ipMode).toBe('VIP');
    const fresh = boot('', local, fakeStorage());
    expect(fresh.store.getState().scene.ipMode).toBe('VIP');
    expect(fresh.store.getState().playback.stepIndex).toBe(3);
    // This tab's copy that cannot be read falls back to the last of any tab.
    expect(
      boot('', local, fakeStorage({ [STORAGE_KEY]: '{"v":1,' })).store.getState().scene.ipMode,
    ).toBe('VIP');
  });

  it('a saved view from an older version is not opened, said why, and left in storage', () => {
    const older = JSON.stringify({ ...saved, v: 0 });
    const storage = fakeStorage({ [STORAGE_KEY]: older });
    const b = boot('', storage);
    expect(b.source).toBe('default');
    expect(b.notice).toMatch(
      /^Your last view could not be restored: the saved view is from an older version of this app \(format 0; this version reads format 1\)/,
    );
    expect(storage.getItem(STORAGE_KEY)).toBe(older);
  });

  it('a saved view it cannot read is ignored with a notice', () => {
    const b = boot('', fakeStorage({ [STORAGE_KEY]: JSON.stringify({ ...saved, v: 2 }) }));
    expect(b.source).toBe('default');
    expect(b.notice).toMatch(
      /^Your last view could not be restored: the saved view is from a newer version of this app/,
    );
  });
});
