/**
 * The "Time & failures" view's door: the only part of it in the initial bundle. The toggle
 * button, the footer's key help, and a lazy wrapper; everything else (the workspace, the
 * model's timeline code, d3 lanes) loads on the first switch to the view.
 */
import { Suspense, lazy } from 'react';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import { ErrorBoundary } from '../ErrorBoundary';

const Workspace = lazy(() => import('./TimeWorkspace'));

const selectView = (s: Store) => s.time.view;

/** Whether the time view is on screen. */
export const useTimeView = (): boolean => useAppStore(selectView) === 'time';

/** The header's switch between the single-packet trace and the time view. */
export function TimeViewToggle() {
  const store = useAppStoreApi();
  const on = useTimeView();
  return (
    <button
      type="button"
      className="time-toggle"
      aria-pressed={on}
      data-testid="time-toggle"
      onClick={() => store.getState().setView(on ? 'trace' : 'time')}
    >
      Time &amp; failures
    </button>
  );
}

/** What the keys do in the time view (the footer shows it in place of the trace player's). */
export const TIME_KEYS =
  'Keys (time view): Space play/pause the clock · ← → previous/next event · Home/End start/end · < > speed · P policy · Esc gives the keys back';

/** The time view, loaded on demand, in its own error boundary. */
export function TimeWorkspace() {
  return (
    <ErrorBoundary name="the time view">
      <Suspense
        fallback={
          <p className="time-loading" role="status">
            Loading the time view…
          </p>
        }
      >
        <Workspace />
      </Suspense>
    </ErrorBoundary>
  );
}
