import { useEffect, useRef } from 'react';
import type { SimMs } from '../../model/time/types';
import type { AppStore } from '../../store/types';
import { keyBelongsToTarget } from '../useGlobalKeys';
import { seek, shiftTimeSpeed, stepEvent, togglePlay } from './commands';

/**
 * The time view's keys, ahead of the app's global ones (a capture listener that marks the
 * event handled, which the global handler respects): Space plays/pauses the virtual clock,
 * ← / → go to the previous/next entry, Home/End to the start/end, < / > change speed. Other
 * keys (P policy, I ipMode, R, Esc) keep their global meaning. Keys typed into a control
 * belong to that control, as everywhere in the app.
 *
 * Options: `pageKeys` makes a clicker's PageDown / PageUp the next/previous entry too (present
 * mode; the desk view is a long page, where they keep scrolling it). `enabled` false leaves
 * every key alone (present mode playing a talk: its clicker keys move the talk's beats).
 */
export function useTimeKeys(
  store: AppStore,
  times: readonly SimMs[],
  horizonMs: SimMs,
  { enabled = true, pageKeys = false }: { enabled?: boolean; pageKeys?: boolean } = {},
): void {
  const ref = useRef({ times, horizonMs });
  useEffect(() => {
    ref.current = { times, horizonMs };
  }, [times, horizonMs]);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (keyBelongsToTarget(e.key, e.target)) return;
      const { times: t, horizonMs: h } = ref.current;
      const key =
        pageKeys && e.key === 'PageDown'
          ? 'ArrowRight'
          : pageKeys && e.key === 'PageUp'
            ? 'ArrowLeft'
            : e.key;
      switch (key) {
        case ' ':
          togglePlay(store, h);
          break;
        case 'ArrowRight':
          stepEvent(store, t, 1, h);
          break;
        case 'ArrowLeft':
          stepEvent(store, t, -1, h);
          break;
        case 'Home':
          seek(store, 0, h);
          break;
        case 'End':
          seek(store, h, h);
          break;
        case '>':
        case '+':
          shiftTimeSpeed(store, 1);
          break;
        case '<':
        case '-':
          shiftTimeSpeed(store, -1);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [store, enabled, pageKeys]);
}
