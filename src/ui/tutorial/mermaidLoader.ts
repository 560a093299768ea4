/**
 * mermaid, loaded on first use and driven through one queue.
 *
 * mermaid is large (hundreds of KB gzip across its chunks), so it is only ever reached through
 * the dynamic `import('mermaid')` below: the bundler puts it in chunks of its own that the page
 * fetches when the first diagram comes near the viewport, never in the initial load
 * (e2e/budget.spec.ts checks that).
 *
 * `mermaid.initialize` sets one global configuration (the theme among it) and `mermaid.render`
 * is asynchronous, so two diagrams rendering at once in different themes could interleave
 * (initialize dark, initialize light, render the dark one in light). Every render therefore
 * goes through a single FIFO queue: initialise (only when the theme differs from the last
 * one), render, clean up — one job at a time.
 */
import type { Mermaid, MermaidConfig } from 'mermaid';

/** What the ESM build's module gives: mermaid as its default export. */
interface MermaidModule {
  default: Mermaid;
}

/** The two themes the app draws diagrams in (the app's `system` theme is resolved before). */
export type DiagramTheme = 'light' | 'dark';

/** What one render produced. */
export type RenderOutcome =
  /** `svg` is mermaid's serialised SVG, already sanitised by mermaid (see {@link renderMermaid}). */
  | { status: 'rendered'; svg: string; theme: DiagramTheme }
  /** The source did not parse or could not be drawn; `message` is mermaid's error text. */
  | { status: 'error'; message: string }
  /** The caller's signal was aborted before the job reached the front of the queue. */
  | { status: 'cancelled' };

let mermaidModule: Promise<Mermaid> | undefined;
let initialisedTheme: DiagramTheme | undefined;
let tail: Promise<unknown> = Promise.resolve();
let renderCount = 0;

/**
 * The mermaid configuration for a theme: never start on load (we call `render` ourselves),
 * `securityLevel: 'strict'` (labels are text, no click handlers, the SVG is sanitised), and
 * `logLevel: 'fatal'` so that parse errors are not also printed to the console — the component
 * shows them. `suppressErrorRendering` stops mermaid from drawing its own "Syntax error in
 * text" bomb SVG into the page. Option names: mermaid 11 `MermaidConfig` (config.type.d.ts).
 */
export function mermaidConfig(theme: DiagramTheme): MermaidConfig {
  return {
    startOnLoad: false,
    securityLevel: 'strict',
    theme: theme === 'dark' ? 'dark' : 'default',
    logLevel: 'fatal',
    suppressErrorRendering: true,
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  };
}

/**
 * Loads mermaid once (a dynamic import, so it stays out of the initial bundle). A failed load
 * (e.g. the chunk could not be fetched) is forgotten so that the next diagram tries again.
 */
export function loadMermaid(): Promise<Mermaid> {
  // mermaid's self-contained ESM build carries its own copy of d3. The package's main entry
  // (mermaid.core.mjs) imports d3 as shared modules, and since the app's initial chunk already
  // uses d3-scale/d3-shape, the bundler would pull every d3 export mermaid needs into the
  // initial chunk (~8–16 KB gzip over budget, measured).
  mermaidModule ??= (import('mermaid/dist/mermaid.esm.min.mjs') as Promise<MermaidModule>).then(
    (m) => m.default,
    (error: unknown) => {
      mermaidModule = undefined;
      throw error;
    },
  );
  return mermaidModule;
}

/** mermaid's error text: its parser throws `Error`s whose message says the line and token. */
function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'mermaid could not draw this diagram.';
}

/**
 * Removes what mermaid may leave in `document.body` after a render: a wrapper `div#d<id>`
 * holding the working `svg#<id>` (or an `iframe#i<id>` in sandbox mode). mermaid removes them
 * itself on success and, with `suppressErrorRendering`, on a parse error; this makes sure no
 * error SVG survives a failure in the drawing stage either.
 */
function removeLeftovers(id: string): void {
  if (typeof document === 'undefined') return;
  for (const leftover of [`d${id}`, id, `i${id}`]) document.getElementById(leftover)?.remove();
}

/**
 * Renders one diagram, serialised behind every render queued before it.
 *
 * @param source the diagram's mermaid text (a fenced `mermaid` block's content).
 * @param theme the theme to draw in; mermaid is re-initialised only when it changes.
 * @param signal optional: if aborted before the job starts, nothing is rendered and the
 *   outcome is `cancelled` (a diagram that unmounted or changed theme while waiting).
 * @returns the SVG markup, or mermaid's error message. Rejects only if mermaid itself could
 *   not be loaded.
 *
 * The SVG returned by `mermaid.render` under `securityLevel: 'strict'` has already been passed
 * through mermaid's own DOMPurify (mermaidAPI.render: every level except `loose` sanitises;
 * `sandbox` would use an iframe), so it is safe to put into the DOM as markup.
 */
export function renderMermaid(
  source: string,
  theme: DiagramTheme,
  signal?: AbortSignal,
): Promise<RenderOutcome> {
  const job = async (): Promise<RenderOutcome> => {
    if (signal?.aborted) return { status: 'cancelled' };
    const mermaid = await loadMermaid();
    if (initialisedTheme !== theme) {
      mermaid.initialize(mermaidConfig(theme));
      initialisedTheme = theme;
    }
    // A fresh id per render: mermaid scopes the SVG's CSS and its <title>/<desc> ids by it.
    renderCount += 1;
    const id = `mermaid-diagram-${renderCount}`;
    try {
      const { svg } = await mermaid.render(id, source);
      return { status: 'rendered', svg, theme };
    } catch (error) {
      return { status: 'error', message: messageOf(error) };
    } finally {
      removeLeftovers(id);
    }
  };
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/** The text alternative an author wrote into a diagram (content/AUTHORING.md, Diagrams). */
export interface DiagramText {
  /** From `accTitle: …`; undefined when the diagram has none. */
  title?: string;
  /** From `accDescr: …` or a `accDescr { … }` block; undefined when the diagram has none. */
  description?: string;
}

const ACC_TITLE = /^\s*accTitle\s*:\s*(.*?)\s*$/m;
const ACC_DESCR_LINE = /^\s*accDescr\s*:\s*(.*?)\s*$/m;
const ACC_DESCR_BLOCK = /^\s*accDescr\s*\{([^}]*)\}/m;

/**
 * Reads `accTitle` and `accDescr` from a diagram's source, the way mermaid's grammars accept
 * them: `accTitle: text` and `accDescr: text` run to the end of their line; `accDescr { … }`
 * may span lines (its lines are joined with spaces). A diagram should have one of each; if it has
 * more, the first is used here.
 */
export function parseDiagramText(source: string): DiagramText {
  const text: DiagramText = {};
  const title = ACC_TITLE.exec(source)?.[1];
  if (title) text.title = title;
  const line = ACC_DESCR_LINE.exec(source);
  const block = ACC_DESCR_BLOCK.exec(source);
  // Whichever form comes first in the source is the one mermaid uses.
  const first = line && block ? (line.index <= block.index ? line : block) : (line ?? block);
  const description = first?.[1]
    ?.split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  if (description) text.description = description;
  return text;
}
