/**
 * The laser pointer (`L`): a red dot that follows the mouse over the stage and leaves a trail
 * that fades within {@link TRAIL_MS}, so the room sees where the presenter points and the
 * drawing stays clear. Under reduced motion, only the dot (no trail). Drawn on its own
 * pointer-transparent layer: clicks still reach the drawing.
 */
import { useEffect, useRef, useState } from 'react';
import { usePrefersReducedMotion } from '../reducedMotion';

/** How long a trail point stays visible, ms. */
export const TRAIL_MS = 700;

interface Point {
  x: number;
  y: number;
  at: number;
}

export function Laser() {
  const reduced = usePrefersReducedMotion();
  const [points, setPoints] = useState<Point[]>([]);
  const [now, setNow] = useState(() => performance.now());
  const frame = useRef(0);

  useEffect(() => {
    const onMove = (e: PointerEvent) =>
      setPoints((ps) => {
        const t = performance.now();
        const kept = reduced ? [] : ps.filter((p) => t - p.at < TRAIL_MS);
        return [...kept, { x: e.clientX, y: e.clientY, at: t }];
      });
    window.addEventListener('pointermove', onMove);
    return () => window.removeEventListener('pointermove', onMove);
  }, [reduced]);

  // While a trail is fading, redraw each frame; stop when it has gone.
  useEffect(() => {
    if (reduced || points.length < 2) return;
    const tick = () => {
      const t = performance.now();
      setNow(t);
      if (points.some((p) => t - p.at < TRAIL_MS)) frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame.current);
  }, [points, reduced]);

  const last = points.at(-1);
  return (
    <svg className="present-laser" aria-hidden="true" data-testid="laser">
      {!reduced &&
        points.slice(0, -1).map((p) => {
          const left = 1 - (now - p.at) / TRAIL_MS;
          return left > 0 ? (
            <circle key={p.at} cx={p.x} cy={p.y} r={4 + 6 * left} opacity={0.5 * left} />
          ) : null;
        })}
      {last && <circle className="present-laser-dot" cx={last.x} cy={last.y} r={9} />}
    </svg>
  );
}
