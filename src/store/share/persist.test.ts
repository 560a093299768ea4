import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects } from '../../model';
import type { SharedState } from './link';
import { MAX_SAVED_CHARS, STORAGE_KEY, browserStorage, loadSaved, saveView } from './persist';
import type { StorageLike } from './persist';

/** An in-memory Storage. */
function fakeStorage(
  initial: Record<string, string> = {},
): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, String(value)),
    removeItem: (key) => void data.delete(key),
  };
}

/** Storage that throws as a disabled or full one does. */
const brokenStorage: StorageLike = {
  getItem: () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  },
  removeItem: () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  },
};

const state: SharedState = {
  v: 1,
  scene: { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local', failedNodes: ['node-2'] },
  step: 5,
  story: null,
  node: 'node-3',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the saved view', () => {
  it('uses a versioned key', () => {
    expect(STORAGE_KEY).toBe('lbpath.v1.state');
  });

  it('round-trips through storage, with and without objects', () => {
    const storage = fakeStorage();
    expect(loadSaved(storage)).toEqual({ kind: 'none' });
    expect(saveView(storage, state)).toBe(true);
    expect(loadSaved(storage)).toEqual({ kind: 'ok', state });
    const withObjects: SharedState = { ...state, objects: canonicalObjects().slice(0, 3) };
    saveView(storage, withObjects);
    expect(loadSaved(storage)).toEqual({ kind: 'ok', state: withObjects });
    expect([...storage.data.keys()]).toEqual([STORAGE_KEY]);
  });

  it('ignores corrupt JSON, a newer or unknown format, and tampered fields, with a reason', () => {
    const cases: [string, RegExp][] = [
      ['{"v":1,', /damaged \(it is not valid JSON\)/],
      ['', /not valid JSON/],
      [JSON.stringify({ ...state, v: 2 }), /newer version of this app/],
      [JSON.stringify({ ...state, v: 0 }), /older version/],
      [JSON.stringify({ hello: 'world' }), /does not hold a view/],
      ['null', /does not hold a view/],
      [JSON.stringify({ ...state, scene: { ...state.scene, ipMode: 'Nope' } }), /scene\.ipMode/],
      [JSON.stringify(state).replace('{', '{"__proto__":{"x":1},'), /forbidden key "__proto__"/],
    ];
    for (const [text, reason] of cases) {
      const result = loadSaved(fakeStorage({ [STORAGE_KEY]: text }));
      expect(result.kind, text).toBe('ignored');
      if (result.kind === 'ignored') expect(result.reason).toMatch(reason);
    }
  });

  it('saves to this tab’s sessionStorage too, and removes both copies of a view it cannot save', () => {
    const local = fakeStorage();
    const tab = fakeStorage();
    expect(saveView(local, state, tab)).toBe(true);
    expect(loadSaved(tab)).toEqual({ kind: 'ok', state });
    expect(tab.data.get(STORAGE_KEY)).toBe(local.data.get(STORAGE_KEY));
    const huge: SharedState = {
      ...state,
      objects: [{ kind: 'X', pad: 'y'.repeat(MAX_SAVED_CHARS) } as never],
    };
    expect(saveView(local, huge, tab)).toBe(false);
    expect([local.data.size, tab.data.size]).toEqual([0, 0]);
    // A full localStorage: this tab's copy still keeps the view for a reload of the tab.
    expect(saveView(brokenStorage, state, tab)).toBe(false);
    expect(loadSaved(tab)).toEqual({ kind: 'ok', state });
  });

  it('says nothing when storage is missing or disabled, and saving reports failure', () => {
    expect(loadSaved(undefined)).toEqual({ kind: 'none' });
    expect(loadSaved(brokenStorage)).toEqual({ kind: 'none' });
    expect(saveView(undefined, state)).toBe(false);
    expect(saveView(brokenStorage, state)).toBe(false);
  });

  it('a view with more objects than a saved view may hold is not written, and removes the older one', () => {
    const storage = fakeStorage();
    saveView(storage, state);
    const setItem = vi.spyOn(storage, 'setItem');
    const many: SharedState = {
      ...state,
      objects: Array.from({ length: 5_001 }, () => ({ kind: 'X' }) as never),
    };
    expect(saveView(storage, many)).toBe(false);
    expect(setItem).not.toHaveBeenCalled();
    expect(loadSaved(storage)).toEqual({ kind: 'none' });
  });

  it('a view it cannot save (too large, storage full) removes the older saved one', () => {
    const storage = fakeStorage();
    saveView(storage, state);
    const huge: SharedState = {
      ...state,
      objects: [{ kind: 'X', pad: 'y'.repeat(MAX_SAVED_CHARS) } as never],
    };
    expect(saveView(storage, huge)).toBe(false);
    expect(loadSaved(storage)).toEqual({ kind: 'none' });

    const full = fakeStorage();
    saveView(full, state);
    full.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    expect(saveView(full, { ...state, step: 6 })).toBe(false);
    expect(loadSaved(full)).toEqual({ kind: 'none' });
  });

  it('browserStorage survives a localStorage getter that throws', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(browserStorage()).toBeUndefined();
    const fake = fakeStorage();
    vi.stubGlobal('localStorage', fake);
    expect(browserStorage()).toBe(fake);
    vi.unstubAllGlobals();
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      expect(browserStorage()).toBeUndefined();
    } finally {
      if (original) Object.defineProperty(globalThis, 'localStorage', original);
      else delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });
});
