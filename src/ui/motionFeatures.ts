/**
 * The packet's animation, loaded after the first paint. framer-motion (about 22 KB gzip with
 * its DOM features) is not needed to draw the first frame: until it arrives — and always under
 * reduced motion, where every move is a jump — the packet is drawn with plain SVG at the end of
 * its move, which is exactly where the animation would leave it. The animated parts live in
 * `motionFeaturesBundle.tsx`, reached only through a dynamic `import()`.
 */
import { createElement, Fragment, useEffect, useRef, useState } from 'react';
import type { ComponentType, ReactNode } from 'react';

/** A tween, in framer-motion's terms (px for `x`/`y`, seconds for durations). */
export interface Tween {
  /** Where the tween starts; `false`: at `animate`'s end, no tween. */
  initial?: false | { x?: number; y?: number; opacity?: number };
  /** Where it goes: a value, or keyframes (the last is where it rests). */
  animate: { x?: number | number[]; y?: number | number[]; opacity?: number };
  transition: { duration: number; delay?: number; ease?: 'easeInOut'; times?: number[] };
}

/** A `<g>` that tweens its translation (`x`, `y`) and opacity. */
export interface TweenGProps extends Tween {
  className?: string;
  'data-testid'?: string;
  children?: ReactNode;
}

/** A `<line>` that tweens its opacity. */
export interface TweenLineProps extends Tween {
  className?: string;
  'data-testid'?: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The elements the packet is drawn with: tweening (framer-motion's) or static. */
export interface MotionParts {
  /** Wraps the packet (framer-motion's feature and reduced-motion context). */
  Root: ComponentType<{ children: ReactNode }>;
  G: ComponentType<TweenGProps>;
  Line: ComponentType<TweenLineProps>;
  /** `true` for the parts that tween. */
  animated: boolean;
}

const last = (v: number | number[] | undefined) => (Array.isArray(v) ? v[v.length - 1] : v);

/** The SVG attributes of where a tween rests: its last translation and opacity. */
function restingAt(animate: Tween['animate']): { transform?: string; opacity?: number } {
  const x = last(animate.x);
  const y = last(animate.y);
  return {
    ...(x !== undefined || y !== undefined ? { transform: `translate(${x ?? 0} ${y ?? 0})` } : {}),
    ...(animate.opacity !== undefined && animate.opacity !== 1 ? { opacity: animate.opacity } : {}),
  };
}

/** Plain SVG at the end of every tween: the first frame, and reduced motion. */
export const STATIC_PARTS: MotionParts = {
  Root: ({ children }) => createElement(Fragment, null, children),
  G: (p) =>
    createElement(
      'g',
      { className: p.className, 'data-testid': p['data-testid'], ...restingAt(p.animate) },
      p.children,
    ),
  Line: (p) =>
    createElement('line', {
      className: p.className,
      'data-testid': p['data-testid'],
      x1: p.x1,
      y1: p.y1,
      x2: p.x2,
      y2: p.y2,
      ...restingAt(p.animate),
    }),
  animated: false,
};

let loaded: MotionParts | null = null;
let loading: Promise<MotionParts> | null = null;

/** Loads the animated parts once (a failed load can be tried again). */
export function loadMotionParts(): Promise<MotionParts> {
  loading ??= import('./motionFeaturesBundle').then(
    (m) => (loaded = m.default),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/**
 * The parts to draw the packet with. With `enabled` (no reduced motion) the animated parts are
 * loaded one frame after the first paint; until then, or if loading fails, the static ones.
 * `settled` is the `moveKey` that was on screen when the animation arrived: that move has been
 * drawn at its end already and must not be replayed from its start.
 */
export function useMotionParts(
  enabled: boolean,
  moveKey: string,
): { parts: MotionParts; settled: string | null } {
  const [arrival, setArrival] = useState<{ parts: MotionParts; key: string | null } | null>(() =>
    loaded ? { parts: loaded, key: null } : null,
  );
  const key = useRef(moveKey);
  useEffect(() => {
    key.current = moveKey;
  }, [moveKey]);
  useEffect(() => {
    if (!enabled || arrival) return;
    let live = true;
    const frame = requestAnimationFrame(() => {
      loadMotionParts().then(
        (parts) => {
          if (live) setArrival({ parts, key: key.current });
        },
        () => {
          // Offline or a stale deploy: the packet keeps jumping, which is still correct.
        },
      );
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, [enabled, arrival]);
  return enabled && arrival
    ? { parts: arrival.parts, settled: arrival.key }
    : { parts: STATIC_PARTS, settled: null };
}
