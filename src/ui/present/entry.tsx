/**
 * Present mode's way in, in the initial bundle (small): the header's Present button, the `F`
 * key, and the lazily loaded view itself (./PresentView.tsx).
 */
import { Suspense, lazy, useEffect } from 'react';
import { keyBelongsToTarget } from '../useGlobalKeys';
import { enterFullscreen } from './fullscreen';
import { setPresentRoute } from './route';

export { usePresentRoute } from './route';

const PresentView = lazy(() => import('./PresentView').then((m) => ({ default: m.PresentView })));

/**
 * Enters present mode, full screen where the browser allows (call from a click or key), on the
 * trace's steps or on the talk `talk` (an id from content/talks, or `chapter:<slug>`).
 */
export function startPresenting(talk: string | null = null): void {
  // Asked for first, while the click or key still counts as the person's gesture.
  void enterFullscreen(document.documentElement);
  setPresentRoute({ on: true, talk, beat: 0 });
}

/** The header's Present button. */
export function PresentButton() {
  return (
    <button
      type="button"
      onClick={() => startPresenting()}
      aria-keyshortcuts="F"
      title="Present: full screen, clicker keys (F)"
      data-testid="present-button"
    >
      Present
    </button>
  );
}

/** `F` enters present mode from the app's views (present mode handles its own keys). */
export function usePresentKey(presenting: boolean): void {
  useEffect(() => {
    if (presenting) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if ((e.key !== 'f' && e.key !== 'F') || keyBelongsToTarget(e.key, e.target)) return;
      e.preventDefault();
      startPresenting();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [presenting]);
}

/** The present view, loaded on demand. */
export function PresentMode() {
  return (
    <Suspense
      fallback={
        <p className="present-loading" role="status">
          Loading present mode…
        </p>
      }
    >
      <PresentView />
    </Suspense>
  );
}
