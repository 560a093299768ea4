import { Suspense, lazy, useEffect, useState } from 'react';
import type { ReactNode } from 'react';

/**
 * The hidden tabs' panels, out of the initial JavaScript: the walkthrough tab is the one open
 * on the first frame, so the packet, rule and conntrack panels (one chunk, `detailPanels.ts`)
 * load right after the first paint, or at once when their tab is opened first.
 */
const load = () => import('./detailPanels');

export const PacketInspector = lazy(() => load().then((m) => ({ default: m.PacketInspector })));
export const RulePanel = lazy(() => load().then((m) => ({ default: m.RulePanel })));
export const ConntrackPanel = lazy(() => load().then((m) => ({ default: m.ConntrackPanel })));

/**
 * `true` once the first frame is on screen (after the next animation frame and a task), so
 * hidden panels can mount then and keep their state while hidden, as before.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setAfter(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return after;
}

/**
 * A lazily loaded panel, drawn when `mounted` (after the first paint, or its tab open). Until
 * its code arrives a "Loading…" line holds the panel's usual height, so nothing jumps.
 */
export function LazyPanel({ mounted, children }: { mounted: boolean; children: ReactNode }) {
  if (!mounted) return null;
  return (
    <Suspense
      fallback={
        <p className="empty tab-panel-loading" role="status">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
