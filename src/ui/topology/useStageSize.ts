import { useLayoutEffect, useRef, useState } from 'react';

/** The stage size before the first measure (and where ResizeObserver is missing), px. */
export const FALLBACK_SIZE = { width: 900, height: 480 };

/**
 * The size in CSS px of the element the ref is put on, kept up to date with a ResizeObserver.
 * Whole pixels, so sub-pixel jitter does not re-run the layout.
 */
export function useStageSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState(FALLBACK_SIZE);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return;
      const next = { width: Math.floor(r.width), height: Math.floor(r.height) };
      setSize((s) => (s.width === next.width && s.height === next.height ? s : next));
    };
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, size] as const;
}
