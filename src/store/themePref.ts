/**
 * The theme the person picked (System, Light, Dark, High contrast), kept in this browser apart
 * from the view: a shared link carries a scene, not a reader's theme, but a reload — or a
 * presenter's `?present=1&talk=…` opened after choosing High contrast — keeps it. Storage may be
 * missing or refuse: nothing here throws.
 */
import type { StorageLike } from './share/persist';
import type { Theme } from './types';

/** The localStorage key. */
export const THEME_KEY = 'lbpath.theme';

const THEMES: readonly Theme[] = ['system', 'light', 'dark', 'contrast'];

/** The kept theme, or null (none kept, unreadable, or not a theme). */
export function loadTheme(storage: StorageLike | undefined): Theme | null {
  try {
    const v = storage?.getItem(THEME_KEY);
    return v && (THEMES as readonly string[]).includes(v) ? (v as Theme) : null;
  } catch {
    return null;
  }
}

/** Keeps `theme` (System is the default: kept as no key at all). */
export function saveTheme(storage: StorageLike | undefined, theme: Theme): void {
  try {
    if (theme === 'system') storage?.removeItem(THEME_KEY);
    else storage?.setItem(THEME_KEY, theme);
  } catch {
    // Full or refused: the theme still applies until the page closes.
  }
}
