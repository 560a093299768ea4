import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  parseDiagramText,
  renderMermaid,
  type DiagramTheme,
  type RenderOutcome,
} from './mermaidLoader';
import './MermaidDiagram.css';

/** How far outside the visible area a diagram starts loading, so it is usually drawn in time. */
const NEAR_VIEWPORT = '400px 0px';

/**
 * The smallest scale a diagram is drawn at in the text (its natural size is mermaid's, 16 px
 * labels): below it the diagram keeps this scale and scrolls sideways inside its figure, so its
 * labels stay about 13 px; "Enlarge" shows it at full size.
 */
export const MIN_SCALE = 0.8;

/** The natural width of mermaid's SVG markup (its viewBox), in CSS px, or undefined. */
export function naturalWidth(svg: string): number | undefined {
  const m = /<svg\b[^>]*\sviewBox="\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([\d.e]+)[\s,]+[\d.e]+\s*"/i.exec(
    svg,
  );
  const w = m ? Number(m[1]) : NaN;
  return Number.isFinite(w) && w > 0 ? w : undefined;
}

/**
 * The same markup with its ids made unique (the root's id prefixes every id and style rule
 * mermaid writes), for a second copy on the page (the enlarged view).
 */
export function withUniqueIds(svg: string, suffix: string): string {
  const m = /<svg\b[^>]*\sid="([^"]+)"/i.exec(svg);
  const id = m?.[1];
  return id ? svg.split(id).join(`${id}${suffix}`) : svg;
}

/** Whether `el` is wider inside than it shows (so it scrolls sideways), kept current. */
function useOverflows(ref: RefObject<HTMLElement | null>, key: unknown): boolean {
  const [over, setOver] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOver(el.scrollWidth > el.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, key]);
  return over;
}

/** The diagram at full size in a modal dialog (native `<dialog>`: focus stays inside, Esc closes). */
function EnlargedDiagram({
  svg,
  width,
  title,
  onClose,
}: {
  svg: string;
  width: number | undefined;
  title: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (!el.open) el.showModal();
    const close = () => onClose();
    el.addEventListener('close', close);
    return () => el.removeEventListener('close', close);
  }, [onClose]);
  return (
    <dialog
      ref={dialog}
      className="mermaid-dialog"
      aria-labelledby={titleId}
      data-testid="mermaid-dialog"
    >
      <div className="mermaid-dialog-head">
        <h4 id={titleId}>{title || 'Diagram'}</h4>
        <button type="button" onClick={() => dialog.current?.close()} autoFocus>
          Close
        </button>
      </div>
      <div
        className="mermaid-dialog-body"
        tabIndex={0}
        role="group"
        aria-label="The diagram at full size (scrolls)"
        style={width ? ({ '--natural-width': `${width}px` } as CSSProperties) : undefined}
        // The markup is mermaid's own output under securityLevel 'strict' (see below).
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    </dialog>
  );
}

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
  const svg = shown?.outcome.status === 'rendered' ? shown.outcome.svg : undefined;
  const width = svg ? naturalWidth(svg) : undefined;
  const box = useRef<HTMLDivElement>(null);
  const overflows = useOverflows(box, svg);
  const [enlarged, setEnlarged] = useState(false);
  const enlarge = useRef<HTMLButtonElement>(null);
  const closeEnlarged = useCallback(() => {
    setEnlarged(false);
    enlarge.current?.focus();
  }, []);

  let body: ReactNode;
  if (svg) {
    // The markup is mermaid's own output under securityLevel 'strict', which mermaid has
    // already sanitised with DOMPurify (see renderMermaid); no author HTML reaches it unchecked.
    // Never drawn below MIN_SCALE: a wider diagram scrolls sideways (from the keyboard too).
    body = (
      <div
        ref={box}
        className="mermaid-svg"
        style={
          width
            ? ({ '--diagram-min': `${Math.round(width * MIN_SCALE)}px` } as CSSProperties)
            : undefined
        }
        {...(overflows
          ? {
              tabIndex: 0,
              role: 'group',
              'aria-label': `${title || 'Diagram'} (scrolls sideways)`,
              'data-overflows': 'true',
            }
          : {})}
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    );
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
      {title || description || svg ? (
        <figcaption>
          <span className="mermaid-caption-head">
            {title ? <span className="mermaid-title">{title}</span> : <span />}
            {svg && (
              <button
                ref={enlarge}
                type="button"
                className="mermaid-enlarge"
                onClick={() => setEnlarged(true)}
                data-testid="mermaid-enlarge"
              >
                Enlarge
                <span className="visually-hidden"> the diagram{title ? ` “${title}”` : ''}</span>
              </button>
            )}
          </span>
          {description ? (
            <details className="mermaid-description">
              <summary>Text description</summary>
              <p>{description}</p>
            </details>
          ) : null}
        </figcaption>
      ) : null}
      {enlarged && svg && (
        <EnlargedDiagram
          svg={withUniqueIds(svg, '-enlarged')}
          width={width}
          title={title ?? ''}
          onClose={closeEnlarged}
        />
      )}
    </figure>
  );
}
