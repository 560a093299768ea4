import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  parseDiagramText,
  renderMermaid,
  type DiagramTheme,
  type RenderOutcome,
} from './mermaidLoader';
import './MermaidDiagram.css';

/** How far outside the visible area a diagram starts loading, so it is usually drawn in time. */
const NEAR_VIEWPORT = '400px 0px';

interface Drawn {
  source: string;
  theme: DiagramTheme;
  outcome: Exclude<RenderOutcome, { status: 'cancelled' }>;
}

/**
 * The nearest ancestor that scrolls vertically, or null for the viewport. The tutorial reader
 * scrolls inside its own panel, and an IntersectionObserver's `rootMargin` only widens its root:
 * with the viewport as root, a diagram just below the panel's fold would count as far away.
 */
function scrollContainer(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') return p;
  }
  return null;
}

/**
 * `true` once the element is within {@link NEAR_VIEWPORT} of what its scroll container shows
 * (at once when IntersectionObserver is missing).
 */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          setNear(true);
        }
      },
      { root: scrollContainer(el), rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}

/**
 * A mermaid diagram from a fenced `mermaid` block, drawn in the page's theme.
 *
 * mermaid is loaded (dynamic import) only when the diagram first comes near the viewport, and
 * every render goes through one queue (mermaidLoader.ts). Changing `theme` draws it again; the
 * previous drawing stays visible meanwhile. The figure's caption repeats the author's
 * `accTitle` and offers `accDescr` as a "Text description" (mermaid also puts them into the
 * SVG as `<title>`/`<desc>`). A diagram that does not parse shows mermaid's message and the
 * source instead of a blank.
 *
 * For tests: `data-testid="mermaid-diagram"`, `data-state` is `loading`, `rendered` or
 * `error`, and `data-theme` is the theme of the drawing shown (once there is one).
 */
export function MermaidDiagram({ source, theme }: { source: string; theme: DiagramTheme }) {
  const figure = useRef<HTMLElement>(null);
  const near = useNearViewport(figure);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const headingId = useId();

  useEffect(() => {
    if (!near) return;
    const controller = new AbortController();
    renderMermaid(source, theme, controller.signal).then(
      (outcome) => {
        if (controller.signal.aborted || outcome.status === 'cancelled') return;
        setDrawn({ source, theme, outcome });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const reason = error instanceof Error ? error.message : String(error);
        setDrawn({
          source,
          theme,
          outcome: { status: 'error', message: `The diagram library could not load: ${reason}` },
        });
      },
    );
    return () => controller.abort();
  }, [near, source, theme]);

  const { title, description } = parseDiagramText(source);
  const current = drawn && drawn.source === source && drawn.theme === theme ? drawn : null;
  const state = current ? current.outcome.status : 'loading';
  // While a new theme is being drawn, keep the old drawing of the same source on screen.
  const shown = current ?? (drawn?.source === source ? drawn : null);

  let body: ReactNode;
  if (shown?.outcome.status === 'rendered') {
    // The markup is mermaid's own output under securityLevel 'strict', which mermaid has
    // already sanitised with DOMPurify (see renderMermaid); no author HTML reaches it unchecked.
    body = <div className="mermaid-svg" dangerouslySetInnerHTML={{ __html: shown.outcome.svg }} />;
  } else if (shown?.outcome.status === 'error') {
    body = (
      <section className="mermaid-error" aria-labelledby={headingId}>
        <h4 id={headingId}>This diagram could not be drawn</h4>
        <pre className="mermaid-error-message">{shown.outcome.message}</pre>
        <p className="mermaid-error-label">The diagram&apos;s source:</p>
        <pre className="mermaid-error-source">
          <code>{source}</code>
        </pre>
      </section>
    );
  } else {
    body = <div className="mermaid-placeholder">Loading diagram…</div>;
  }

  return (
    <figure
      ref={figure}
      className="mermaid-figure"
      data-testid="mermaid-diagram"
      data-state={state}
      {...(shown?.outcome.status === 'rendered' ? { 'data-theme': shown.outcome.theme } : {})}
      aria-busy={state === 'loading'}
    >
      {body}
      {title || description ? (
        <figcaption>
          {title ? <span className="mermaid-title">{title}</span> : null}
          {description ? (
            <details className="mermaid-description">
              <summary>Text description</summary>
              <p>{description}</p>
            </details>
          ) : null}
        </figcaption>
      ) : null}
    </figure>
  );
}
