/**
 * The derived timeline, shared by the time view's panels through one context, and a hook for
 * the virtual clock that re-renders only when the value a panel needs changes.
 */
import { createContext, useContext } from 'react';
import type { Timeline } from '../../model/time/types';
import { useAppStore } from '../../store';
import type { Store } from '../../store';
import type { DerivedTimeline } from '../../store/timelineDerive';

/**
 * Whether the timeline on screen is for the inputs on screen: `pending` while a newer one is
 * computed (the last stays on screen), `busy` once that has taken over 300 ms ("Computing…").
 */
export interface TimeStatus {
  pending: boolean;
  busy: boolean;
}

/** The time view's {@link TimeStatus}, provided by its workspace. */
export const TimeStatusContext = createContext<TimeStatus>({ pending: false, busy: false });

/** The time view's {@link TimeStatus}. */
export const useTimeStatus = (): TimeStatus => useContext(TimeStatusContext);

/** The derived timeline of the time view, provided by its workspace. */
export const TimelineContext = createContext<DerivedTimeline | null>(null);

/** The derived timeline (ok or error). */
export function useDerived(): DerivedTimeline {
  const d = useContext(TimelineContext);
  if (!d) throw new Error('useDerived must be used inside the time view');
  return d;
}

/** The timeline; only for components rendered when the model succeeded. */
export function useTimeline(): Timeline {
  const d = useDerived();
  if (!d.ok) throw new Error(d.error);
  return d.timeline;
}

const selectSimMs = (s: Store) => s.time.simMs;

/** The virtual clock, simulated ms (re-renders on every tick). */
export const useSimMs = (): number => useAppStore(selectSimMs);
