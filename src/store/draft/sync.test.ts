import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../store';
import { MAX_SAVED_EDITOR_CHARS, V1_EDITOR_KEY, draftKey, encodeDraft, listDrafts } from './drafts';
import { fakeStorage } from './fakeStorage.test-helpers';
import type { FakeStorage } from './fakeStorage.test-helpers';
import { SAVE_DELAY_MS, syncDraft } from './sync';
import type { DraftEnv, DraftStatus } from './sync';
import { TAB_ID_KEY } from './tabId';

/** One browser tab: its own sessionStorage and window, the origin's shared localStorage. */
function tab(local: FakeStorage | undefined, session = fakeStorage()) {
  const window = new EventTarget();
  let n = 0;
  const env: DraftEnv = {
    storage: local,
    session,
    target: window as unknown as DraftEnv['target'],
    now: () => Date.now(),
    newId: () => `${Math.random().toString(16).slice(2, 10)}${++n}`,
  };
  const store = createAppStore();
  const seen: DraftStatus[] = [];
  const stop = syncDraft(store, env, (s) => seen.push(s));
  return {
    store,
    session,
    window,
    stop,
    status: () => seen[seen.length - 1],
    id: () => session.data.get(TAB_ID_KEY) ?? '',
    type: (text: string) => store.getState().setEditorText(text),
    text: () => store.getState().editorText,
  };
}

/** A `storage` event as another tab's write makes it. */
function storageEvent(key: string | null, newValue: string | null, storageArea?: Storage): Event {
  return Object.assign(new Event('storage'), { key, newValue, storageArea });
}

describe('syncing the editor’s text with this tab’s draft', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_700_000_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('saves after a pause, and a reload of the tab finds its own text (even invalid YAML)', () => {
    const local = fakeStorage();
    const a = tab(local);
    expect(a.status()).toMatchObject({ state: 'idle', restored: null });
    a.type('spec: [');
    expect(a.status()?.state).toBe('pending');
    vi.advanceTimersByTime(SAVE_DELAY_MS - 1);
    expect(local.data.size).toBe(0);
    vi.advanceTimersByTime(1);
    expect(a.status()).toMatchObject({ state: 'saved', problem: null });
    expect(listDrafts(local).map((d) => [d.tabId, d.text])).toEqual([[a.id(), 'spec: [']]);
    a.stop();
    // The reload: same sessionStorage, a new page.
    const again = tab(local, a.session);
    expect(again.text()).toBe('spec: [');
    expect(again.status()).toMatchObject({ state: 'saved', restored: 'this-tab' });
  });

  it('saves at once on pagehide, and when stopped', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('one');
    a.window.dispatchEvent(new Event('pagehide'));
    expect(listDrafts(local)[0]?.text).toBe('one');
    a.type('two');
    a.stop();
    expect(listDrafts(local)[0]?.text).toBe('two');
  });

  it('two tabs keep their own text; a new tab starts from the newest and writes only its own key', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('text of A');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    const b = tab(local);
    expect(b.id()).not.toBe(a.id());
    expect(b.text()).toBe('text of A');
    expect(b.status()).toMatchObject({ state: 'saved', restored: 'another-tab' });
    // Nothing written for B until its text changes; A's key is untouched.
    expect([...local.data.keys()]).toEqual([draftKey(a.id())]);
    b.type('text of B');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    // A's text, saved when A's pause ended.
    expect(local.data.get(draftKey(a.id()))).toBe(
      encodeDraft('text of A', 1_700_000_000_000 + SAVE_DELAY_MS),
    );
    // Each tab reloaded finds its own.
    a.stop();
    b.stop();
    expect(tab(local, a.session).text()).toBe('text of A');
    expect(tab(local, b.session).text()).toBe('text of B');
    // A third tab starts from the newest: B's.
    expect(tab(local).text()).toBe('text of B');
  });

  it('another tab saving its draft never replaces this tab’s text: a note only', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('mine');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    // The same text from elsewhere is not worth a note.
    a.window.dispatchEvent(storageEvent(draftKey('other'), encodeDraft('mine', 1), local));
    expect(a.status()?.otherTabChanged).toBe(false);
    // Another storage area (sessionStorage) is not another tab's draft.
    a.window.dispatchEvent(storageEvent(draftKey('other'), encodeDraft('x', 1), a.session));
    expect(a.status()?.otherTabChanged).toBe(false);
    a.window.dispatchEvent(storageEvent(draftKey('other'), encodeDraft('theirs', 2), local));
    expect(a.status()?.otherTabChanged).toBe(true);
    expect(a.text()).toBe('mine');
  });

  it('a duplicated tab (same id from a copied sessionStorage) makes this tab take a new id', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('original');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    const oldId = a.id();
    // The copy writes the shared key; this tab hears it.
    local.setItem(draftKey(oldId), encodeDraft('the copy', 2));
    a.window.dispatchEvent(storageEvent(draftKey(oldId), encodeDraft('the copy', 2), local));
    expect(a.id()).not.toBe(oldId);
    expect(local.data.get(draftKey(a.id()))).toBe(
      encodeDraft('original', 1_700_000_000_000 + SAVE_DELAY_MS),
    );
    expect(local.data.get(draftKey(oldId))).toBe(encodeDraft('the copy', 2));
    expect(a.text()).toBe('original');
  });

  it('this tab’s draft removed by another tab (pruned, or storage cleared) is written back', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('keep me');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    local.removeItem(draftKey(a.id()));
    a.window.dispatchEvent(storageEvent(draftKey(a.id()), null, local));
    expect(listDrafts(local)[0]?.text).toBe('keep me');
    local.clear();
    a.window.dispatchEvent(storageEvent(null, null, local));
    expect(listDrafts(local)[0]?.text).toBe('keep me');
  });

  it('does not replace text the store already holds (it is saved instead)', () => {
    const local = fakeStorage({ [draftKey('x')]: encodeDraft('saved', 1) });
    const window = new EventTarget();
    const store = createAppStore();
    store.getState().setEditorText('mine');
    const seen: DraftStatus[] = [];
    const env: DraftEnv = {
      storage: local,
      session: fakeStorage({ [TAB_ID_KEY]: 'me' }),
      target: window as unknown as DraftEnv['target'],
      now: () => 5,
      newId: () => 'new',
    };
    const stop = syncDraft(store, env, (s) => seen.push(s));
    expect(store.getState().editorText).toBe('mine');
    expect(seen.at(-1)?.state).toBe('pending');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(local.data.get(draftKey('me'))).toBe(encodeDraft('mine', 5));
    stop();
  });
});

describe('never a silent loss', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a full storage says `unsaved: full` until a save works again', () => {
    // Room for the filler and a draft of about 300 characters, not both with the filler at 150.
    const local = fakeStorage({ filler: 'f'.repeat(200) }, 400);
    const a = tab(local);
    a.type('x'.repeat(150));
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()).toMatchObject({ state: 'unsaved', problem: 'full' });
    // Typing on: still unsaved while waiting (the notice does not flicker away).
    a.type('x'.repeat(151));
    expect(a.status()).toMatchObject({ state: 'unsaved', problem: 'full' });
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()?.state).toBe('unsaved');
    local.removeItem('filler');
    a.type('x'.repeat(152));
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()).toMatchObject({ state: 'saved', problem: null });
    expect(listDrafts(local)[0]?.text).toBe('x'.repeat(152));
  });

  it('text over the limit says `unsaved: too-large`; the last text that fitted stays saved', () => {
    const local = fakeStorage();
    const a = tab(local);
    a.type('short');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    a.type('x'.repeat(MAX_SAVED_EDITOR_CHARS + 1));
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()).toMatchObject({ state: 'unsaved', problem: 'too-large' });
    expect(listDrafts(local)[0]?.text).toBe('short');
    a.type('short again');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()).toMatchObject({ state: 'saved', problem: null });
  });

  it('blocked storage (throws on access) or none: nothing throws, each change says `blocked`', () => {
    const local = fakeStorage({ [draftKey('x')]: encodeDraft('unreachable', 1) });
    local.blocked = true;
    const session = fakeStorage();
    session.blocked = true;
    const a = tab(local, session);
    expect(a.text()).toBeNull();
    a.type('typed');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(a.status()).toMatchObject({ state: 'unsaved', problem: 'blocked' });
    a.window.dispatchEvent(storageEvent(null, null));
    a.stop();
    const none = tab(undefined);
    none.type('typed');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(none.status()).toMatchObject({ state: 'unsaved', problem: 'blocked' });
  });
});

describe('text saved by version 1', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is shown, moved into this tab’s draft, and the v1 key removed', () => {
    const local = fakeStorage({ [V1_EDITOR_KEY]: 'kind: Service\nspec: [' });
    const a = tab(local);
    expect(a.text()).toBe('kind: Service\nspec: [');
    expect(a.status()).toMatchObject({ state: 'saved', restored: 'older-version' });
    expect(local.data.has(V1_EDITOR_KEY)).toBe(false);
    expect(listDrafts(local).map((d) => [d.tabId, d.text])).toEqual([
      [a.id(), 'kind: Service\nspec: ['],
    ]);
  });

  it('a tab with a draft of its own keeps it; the v1 text becomes a draft of its own', () => {
    const local = fakeStorage({
      [draftKey('me')]: encodeDraft('mine', 1),
      [V1_EDITOR_KEY]: 'from v1',
    });
    const a = tab(local, fakeStorage({ [TAB_ID_KEY]: 'me' }));
    expect(a.text()).toBe('mine');
    expect(a.status()?.restored).toBe('this-tab');
    expect(local.data.has(V1_EDITOR_KEY)).toBe(false);
    // A new tab starts from it (the newest).
    expect(tab(local).text()).toBe('from v1');
  });

  it('that cannot be moved (storage full) is still shown, and the v1 key kept', () => {
    const local = fakeStorage({ [V1_EDITOR_KEY]: 'from v1' }, V1_EDITOR_KEY.length + 7);
    const a = tab(local);
    expect(a.text()).toBe('from v1');
    expect(a.status()?.restored).toBe('older-version');
    expect(local.data.get(V1_EDITOR_KEY)).toBe('from v1');
  });
});
