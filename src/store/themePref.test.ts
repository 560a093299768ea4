import { describe, expect, it } from 'vitest';
import { THEME_KEY, loadTheme, saveTheme } from './themePref';

function storage(init: Record<string, string> = {}, fail = false) {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (fail) throw new Error('QuotaExceededError');
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('the kept theme', () => {
  it('keeps a picked theme and forgets System (the default)', () => {
    const s = storage();
    saveTheme(s, 'contrast');
    expect(s.data.get(THEME_KEY)).toBe('contrast');
    expect(loadTheme(s)).toBe('contrast');
    saveTheme(s, 'system');
    expect(s.data.has(THEME_KEY)).toBe(false);
    expect(loadTheme(s)).toBeNull();
  });

  it('ignores what is not a theme, and storage that refuses', () => {
    expect(loadTheme(storage({ [THEME_KEY]: 'neon' }))).toBeNull();
    expect(loadTheme(undefined)).toBeNull();
    expect(() => saveTheme(storage({}, true), 'dark')).not.toThrow();
  });
});
