import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EDITOR_TEXT_KEY,
  MAX_SAVED_EDITOR_CHARS,
  SAVE_DELAY_MS,
  loadEditorText,
  saveEditorText,
  syncEditorText,
} from './editorText';
import type { TextStorage } from './editorText';
import { createAppStore } from './store';

function memory(initial: Record<string, string> = {}): TextStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const broken: TextStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('the editor text in localStorage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('load and save, exactly as typed; nothing throws', () => {
    const storage = memory();
    const text = 'spec:\n  ports: [   \t\n# é 東京';
    expect(saveEditorText(storage, text)).toBe(true);
    expect(loadEditorText(storage)).toBe(text);
    expect(loadEditorText(undefined)).toBeNull();
    expect(loadEditorText(broken)).toBeNull();
    expect(saveEditorText(broken, 'x')).toBe(false);
    expect(saveEditorText(undefined, 'x')).toBe(false);
    expect(saveEditorText(storage, 'x'.repeat(MAX_SAVED_EDITOR_CHARS + 1))).toBe(false);
    expect(storage.data.has(EDITOR_TEXT_KEY)).toBe(false);
  });

  it('restores the saved text into the store and saves changes after a pause', () => {
    const storage = memory({ [EDITOR_TEXT_KEY]: 'kind: Service' });
    const store = createAppStore();
    const stop = syncEditorText(store, storage, undefined);
    expect(store.getState().editorText).toBe('kind: Service');
    store.getState().setEditorText('kind: Service\nmetadata:');
    expect(storage.data.get(EDITOR_TEXT_KEY)).toBe('kind: Service');
    vi.advanceTimersByTime(SAVE_DELAY_MS);
    expect(storage.data.get(EDITOR_TEXT_KEY)).toBe('kind: Service\nmetadata:');
    // Stopping flushes what is pending.
    store.getState().setEditorText('kind: Pod');
    stop();
    expect(storage.data.get(EDITOR_TEXT_KEY)).toBe('kind: Pod');
  });

  it('does not overwrite text the store already holds', () => {
    const store = createAppStore();
    store.getState().setEditorText('mine');
    syncEditorText(store, memory({ [EDITOR_TEXT_KEY]: 'saved' }), undefined)();
    expect(store.getState().editorText).toBe('mine');
  });
});
