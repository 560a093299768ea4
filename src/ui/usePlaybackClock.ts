import { useEffect } from 'react';
import type { AppStore } from '../store/types';
import { startPlaybackClock } from './clock';

/** Runs the one playback scheduler for as long as the app is mounted. */
export function usePlaybackClock(store: AppStore): void {
  useEffect(() => startPlaybackClock(store), [store]);
}
