/**
 * Text measurement without a DOM: advance widths of DejaVu Sans / DejaVu Sans Mono (the
 * fallback fonts here and the widest of the common defaults), a little rounded up, so a string
 * that fits by this estimate fits when drawn. Pure; the layout and its tests use it.
 */

/** A place for one line of text in the drawing (px, SVG user units = CSS px). */
export interface TextSlot {
  /** Left edge of the slot. */
  x: number;
  /** Top edge of the slot (the text's baseline is at {@link baseline}). */
  y: number;
  /** Width the text may take. */
  w: number;
  /** Font size in px (never under 12 on the stage). */
  size: number;
  bold?: boolean;
  mono?: boolean;
  /** Where the text sits in the slot (default start). */
  anchor?: 'start' | 'middle' | 'end';
}

/** The smallest font size on the stage, px. */
export const MIN_TEXT = 12;

/** Line box of DejaVu Sans: ascent 0.928 em + descent 0.236 em, rounded up. */
const LINE_EM = 1.17;
const ASCENT_EM = 0.93;

// Advance widths in em (DejaVu Sans, from its hmtx table, rounded up).
const NARROW = new Set([..."ijlI|!.,:;' "]);
const WIDE = new Set([...'mwMW']);
const SANS: Record<string, number> = {
  ' ': 0.318,
  '.': 0.318,
  ',': 0.318,
  ':': 0.337,
  '-': 0.361,
  '/': 0.337,
  '(': 0.39,
  ')': 0.39,
  f: 0.352,
  r: 0.411,
  t: 0.392,
  s: 0.521,
  c: 0.55,
  z: 0.525,
  '·': 0.318,
};

function sansAdvance(ch: string): number {
  const known = SANS[ch];
  if (known !== undefined) return known;
  if (ch >= '0' && ch <= '9') return 0.636;
  if (NARROW.has(ch)) return 0.28;
  if (WIDE.has(ch)) return 0.99;
  if (ch >= 'a' && ch <= 'z') return 0.635;
  if (ch >= 'A' && ch <= 'Z') return 0.77;
  // Symbols (✓ ✗ ○ ● → ▸ …) and anything else: as wide as DejaVu's widest common glyphs.
  return ch.charCodeAt(0) > 127 ? 0.9 : 0.72;
}

/** Estimated width in px of `text` at `size` px (bold: DejaVu Sans Bold; mono: DejaVu Sans Mono). */
export function textWidth(text: string, size: number, bold = false, mono = false): number {
  let em = 0;
  for (const ch of text) em += mono ? (ch.charCodeAt(0) > 127 ? 0.9 : 0.602) : sansAdvance(ch);
  return Math.ceil(em * size * (bold ? 1.13 : 1) * 1.02);
}

/** Height of one line of text at `size` px. */
export const lineHeight = (size: number) => Math.ceil(size * LINE_EM);

/** The y of the baseline of a slot's text. */
export const baseline = (s: TextSlot) => s.y + Math.round(s.size * ASCENT_EM);

/** The x the slot's text is drawn at, for its anchor. */
export function anchorX(s: TextSlot): number {
  if (s.anchor === 'end') return s.x + s.w;
  if (s.anchor === 'middle') return s.x + s.w / 2;
  return s.x;
}

/**
 * A node name that is a DNS name (`ip-192-168-12-34.ec2.internal`, EKS; or
 * `node-1.us-central1-a.c.proj.internal`): its first label, which tells the nodes apart — the
 * domain after it is the same for every node of a cluster. Undefined for a plain name or an
 * address (`10.244.1.5`: its first label is digits).
 */
function dnsHead(text: string): string | undefined {
  const dot = text.indexOf('.');
  if (dot <= 0 || dot === text.length - 1) return undefined;
  const head = text.slice(0, dot);
  return /[a-z]/i.test(head) ? head : undefined;
}

/**
 * `text` shortened with "…" until it fits `slot`; unchanged when it fits, "" when not even "…"
 * does. A DNS name loses its domain first (`ip-192-168-12-34…`); any other text is shortened
 * in the middle, so a name's distinguishing end stays (`gke-prod-…-4kxz`).
 */
export function fitText(text: string, slot: TextSlot): string {
  const fits = (t: string) => textWidth(t, slot.size, slot.bold, slot.mono) <= slot.w;
  if (fits(text)) return text;
  const head = dnsHead(text);
  if (head !== undefined) return fits(`${head}…`) ? `${head}…` : fitText(head, slot);
  const chars = [...text];
  for (let keep = chars.length - 1; keep >= 1; keep--) {
    const tail = Math.ceil(keep / 2);
    const t = `${chars.slice(0, keep - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
    if (fits(t)) return t;
  }
  return fits('…') ? '…' : '';
}

/** A slot of the given width at (x, y). */
export function slot(
  x: number,
  y: number,
  w: number,
  size: number,
  opts: Pick<TextSlot, 'bold' | 'mono' | 'anchor'> = {},
): TextSlot {
  return { x, y, w: Math.max(0, w), size, ...opts };
}

/** The slot's box (for overlap tests). */
export const slotBox = (s: TextSlot) => ({ x: s.x, y: s.y, w: s.w, h: lineHeight(s.size) });
