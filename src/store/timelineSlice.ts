/**
 * The "Time & failures" view's state: which view is on screen, the virtual clock (a number of
 * simulated milliseconds, advanced by the view's scheduler), and the inputs of the timeline
 * (controller, health-check overrides, scheduled events, the connections workload).
 *
 * The timeline itself is not here: the lazily loaded view derives it from these inputs and
 * the scenario with the model's `simulate` (memoised), the same way the trace is derived.
 * This file is part of the initial bundle, so it holds data and setters only; every default
 * that comes from the model (health-check settings, delays) is left unset here and filled in
 * by the model.
 */
import type { StateCreator } from 'zustand';
import type { Store, TimeState, TimelineSlice } from './types';

/** Simulated seconds per real second, slowest first. */
export const TIME_SPEEDS = [1, 5, 20, 60] as const;

/** The time view's state before anything was changed. */
export const INITIAL_TIME: TimeState = {
  view: 'trace',
  simMs: 0,
  playing: false,
  speed: 5,
  controller: 'cloud',
  healthCheck: {},
  events: [],
  workload: { count: 1000, periodMs: 60_000, holdMs: 30_000, seed: 1 },
  source: null,
  revision: 0,
};

export const createTimelineSlice: StateCreator<Store, [], [], TimelineSlice> = (set) => {
  const put = (patch: Partial<TimeState>) => set((s) => ({ time: { ...s.time, ...patch } }));
  return {
    time: INITIAL_TIME,
    setView: (view) => put(view === 'trace' ? { view, playing: false } : { view }),
    setSimMs: (ms) => put({ simMs: Math.max(0, Math.round(ms)) }),
    setTimePlaying: (playing) => put({ playing }),
    setTimeSpeed: (speed) => put({ speed }),
    setController: (controller) => put({ controller, simMs: 0, playing: false }),
    setHealthCheck: (healthCheck) => put({ healthCheck }),
    addEvent: (event) =>
      set((s) => ({
        time: { ...s.time, events: [...s.time.events, event].sort((a, b) => a.at - b.at) },
      })),
    removeEvent: (index) =>
      set((s) => ({ time: { ...s.time, events: s.time.events.filter((_, i) => i !== index) } })),
    setWorkload: (workload) => put({ workload }),
    setTimeSource: (source) => put({ source }),
    openTime: ({ controller, healthCheck, events, workload, simMs }) =>
      set((s) => ({
        time: {
          ...s.time,
          view: 'time',
          playing: false,
          controller,
          healthCheck,
          events: events
            .map((e, i) => ({ e, i }))
            .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
            .map(({ e }) => e),
          workload,
          simMs: Math.max(0, Math.round(simMs)),
          source: null,
          revision: s.time.revision + 1,
        },
      })),
  };
};
