import { useSyncExternalStore } from 'react';
import { selectUi, useAppStore } from '../../store';

const QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

const systemDark = () => window.matchMedia(QUERY).matches;

/**
 * The page's theme as drawn, light or dark (for diagrams and the reader): the person's choice, or
 * the system's for `system`; high contrast is white on black, so it draws as dark.
 */
export function useResolvedTheme(): 'light' | 'dark' {
  const { theme } = useAppStore(selectUi);
  const dark = useSyncExternalStore(subscribe, systemDark, () => false);
  if (theme === 'system') return dark ? 'dark' : 'light';
  if (theme === 'contrast') return 'dark';
  return theme;
}
