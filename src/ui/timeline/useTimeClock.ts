import { useEffect, useRef } from 'react';
import type { SimMs } from '../../model/time/types';
import type { AppStore } from '../../store/types';
import { startTimeClock } from './clock';

const reducedMotion = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Runs the virtual clock's scheduler for as long as the time view is mounted. */
export function useTimeClock(store: AppStore, horizonMs: SimMs): void {
  const horizon = useRef(horizonMs);
  useEffect(() => {
    horizon.current = horizonMs;
  }, [horizonMs]);
  useEffect(
    () => startTimeClock(store, { horizonMs: () => horizon.current, reducedMotion }),
    [store],
  );
}
