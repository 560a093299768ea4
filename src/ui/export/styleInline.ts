/**
 * Makes the stage's SVG stand alone. On screen it is styled by classes (topology.css) whose
 * values are theme custom properties (tokens.css, per `[data-theme]` and
 * `prefers-color-scheme`); a file opened by itself has neither. So each element gets the
 * *computed* value of the properties that draw SVG — resolved colours, fonts, dashes — as a
 * `style` attribute, written only where it differs from what the element inherits, and the
 * React `useId` ids (markers, the hatch pattern) are renamed to fixed ones so the references
 * resolve in the file and several frames can sit on one page.
 */

/** The properties that decide how SVG is painted (all but `opacity` and `display` inherit). */
export const SVG_PROPERTIES = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'opacity',
  'display',
  'visibility',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'letter-spacing',
] as const;

/** Properties that do not inherit: written when they differ from their initial value. */
const NOT_INHERITED: Record<string, string> = { opacity: '1', display: 'inline' };

/** Computed values by property name. */
export type StyleValues = Readonly<Record<string, string>>;

/**
 * The `style` attribute that reproduces `own` under a parent whose computed values are
 * `parent` (null: the root, where everything is written). Inherited properties equal to the
 * parent's are left out (the file inherits them the same way); `display: none` is kept.
 * Returns '' when nothing needs writing.
 */
export function styleDeclarations(own: StyleValues, parent: StyleValues | null): string {
  const out: string[] = [];
  for (const p of SVG_PROPERTIES) {
    const v = own[p];
    if (v === undefined || v === '') continue;
    const initial = NOT_INHERITED[p];
    if (initial !== undefined) {
      if (v !== initial) out.push(`${p}:${v}`);
    } else if (!parent || parent[p] !== v) out.push(`${p}:${v}`);
  }
  return out.join(';');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A fixed name for a `useId`-based id: `<uid>-arrow-req` → `<prefix>-arrow-req` (an id
 * without a `-` keeps its whole text after the prefix).
 */
export function renamedId(id: string, prefix: string): string {
  const dash = id.indexOf('-');
  return `${prefix}-${dash < 0 ? id : id.slice(dash + 1)}`;
}

/**
 * Renames the ids `ids` in serialised SVG `markup` to {@link renamedId}s, with every
 * reference to them: `id="…"`, `href="#…"`, `url(#…)` and `url("#…")` (attributes and inline
 * styles alike).
 */
export function rewriteIds(markup: string, ids: readonly string[], prefix: string): string {
  let out = markup;
  for (const id of ids) {
    const to = renamedId(id, prefix);
    const e = escapeRe(id);
    out = out
      .replace(new RegExp(`(\\sid=")${e}(")`, 'g'), `$1${to}$2`)
      .replace(new RegExp(`(href="#)${e}(")`, 'g'), `$1${to}$2`)
      .replace(new RegExp(`(url\\((?:&quot;|"|')?#)${e}((?:&quot;|"|')?\\))`, 'g'), `$1${to}$2`);
  }
  return out;
}

function read(cs: CSSStyleDeclaration): Record<string, string> {
  const v: Record<string, string> = {};
  for (const p of SVG_PROPERTIES) v[p] = cs.getPropertyValue(p);
  return v;
}

/** Elements whose style does not paint anything (their text is kept as it is). */
const SKIP = new Set(['title', 'desc', 'metadata']);

/**
 * A copy of `live` (an `<svg>` in the document, styled by its classes) with the computed
 * style of every element written inline ({@link styleDeclarations}). `live` must be rendered
 * (in the document, not `display: none`) for its computed styles to be real.
 */
export function inlineComputedStyles(live: SVGSVGElement): SVGSVGElement {
  const copy = live.cloneNode(true) as SVGSVGElement;
  const walk = (src: Element, dst: Element, parent: StyleValues | null) => {
    const own = read(getComputedStyle(src));
    const decl = styleDeclarations(own, parent);
    if (decl) dst.setAttribute('style', decl);
    else dst.removeAttribute('style');
    const s = src.children;
    const d = dst.children;
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      if (SKIP.has(c.localName)) continue;
      walk(c, d[i]!, own);
    }
  };
  walk(live, copy, null);
  return copy;
}
