/**
 * The reader's place, kept in the browser's history: each history entry of the tutorial
 * remembers (in `history.state.lbReader`) where the reader was scrolled and which view the
 * visualiser showed, so Back and Forward come back to both. The place is an anchor (the n-th
 * block of the chapter and its offset from the reader's top edge) rather than a pixel offset, so
 * diagrams that are drawn later, above it, do not move it. A chapter left for the glossary is
 * also remembered in memory, for the glossary's "Back to …" link.
 */

/** A block of the chapter (the n-th child of the article) and its offset from the reader's top. */
export interface Anchor {
  index: number;
  /** px from the reader's top edge to the block's top edge (negative: scrolled past). */
  offset: number;
}

/** What a history entry remembers for the reader. */
export interface ReaderPlace {
  /** The route's hash the place belongs to (a replaced entry may keep another's state). */
  hash: string;
  anchor?: Anchor;
  /** The visualiser's view as a `#s=` link, and whether the tutorial had opened it. */
  view?: string;
  byTutorial?: boolean;
}

const FIELD = 'lbReader';

function state(): Record<string, unknown> {
  const s: unknown = window.history.state;
  return s !== null && typeof s === 'object' ? (s as Record<string, unknown>) : {};
}

/** The place the current history entry remembers, if it belongs to the current hash. */
export function readPlace(): ReaderPlace | undefined {
  const p = state()[FIELD];
  if (p === null || typeof p !== 'object') return undefined;
  const place = p as Partial<ReaderPlace>;
  if (place.hash !== window.location.hash) return undefined;
  const out: ReaderPlace = { hash: place.hash };
  const a = place.anchor;
  if (
    a &&
    Number.isInteger(a.index) &&
    a.index >= 0 &&
    typeof a.offset === 'number' &&
    Number.isFinite(a.offset)
  )
    out.anchor = { index: a.index, offset: a.offset };
  if (typeof place.view === 'string' && place.view.startsWith('#s=')) {
    out.view = place.view;
    out.byTutorial = place.byTutorial === true;
  }
  return out;
}

/** Merges `patch` into the current entry's place (no new entry; the URL is unchanged). */
export function writePlace(patch: Omit<Partial<ReaderPlace>, 'hash'>): void {
  const hash = window.location.hash;
  const before = readPlace() ?? { hash };
  try {
    window.history.replaceState({ ...state(), [FIELD]: { ...before, ...patch, hash } }, '');
  } catch (_) {
    // An embedder may forbid it; Back then opens chapters at their top.
  }
}

/** The block at the top of the reader and its offset, or undefined when there is none. */
export function captureAnchor(reader: HTMLElement, article: HTMLElement): Anchor | undefined {
  const top = reader.getBoundingClientRect().top;
  const blocks = article.children;
  for (let i = 0; i < blocks.length; i++) {
    const r = blocks[i]!.getBoundingClientRect();
    if (r.bottom > top + 1) return { index: i, offset: Math.round(r.top - top) };
  }
  return undefined;
}

/** Scrolls the reader so the anchor's block is where it was. Returns whether it could. */
export function applyAnchor(reader: HTMLElement, article: HTMLElement, anchor: Anchor): boolean {
  const block = article.children[anchor.index];
  if (!block) return false;
  const delta = block.getBoundingClientRect().top - reader.getBoundingClientRect().top;
  reader.scrollTop += delta - anchor.offset;
  return true;
}

/** Chapters left for the glossary, with where they were read (slug → anchor). */
const leftAt = new Map<string, Anchor>();
let resume: string | undefined;

/** Remembers where chapter `slug` was left. */
export function rememberLeft(slug: string, anchor: Anchor | undefined): void {
  if (anchor) leftAt.set(slug, anchor);
}

/** The glossary's "Back to …" link was pressed: the chapter reopens where it was left. */
export function resumeNext(slug: string): void {
  resume = slug;
}

/** The anchor to reopen chapter `slug` at, once, when its "Back to …" link was pressed. */
export function takeResume(slug: string): Anchor | undefined {
  if (resume !== slug) return undefined;
  resume = undefined;
  return leftAt.get(slug);
}
