/**
 * One exported frame as a standalone SVG file: a background in the stage's colour, the caption
 * band (caption.ts) and the stage's drawing with its styles inlined (styleInline.ts), as text —
 * addresses stay findable and selectable. The frame grows to the whole drawing (a zoomed or
 * large stage is exported in full, at scale 1, not as the part on screen).
 */
import { captionLines } from './caption';
import { inlineComputedStyles, rewriteIds } from './styleInline';
import type { FrameSpec } from './naming';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The theme's colours as resolved on screen (CSS colour strings). */
export interface FrameColours {
  background: string;
  fg: string;
  muted: string;
  font: string;
}

/** A frame's file text and its size in CSS px (1 SVG unit = 1 px). */
export interface FrameSvg {
  markup: string;
  width: number;
  height: number;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Space kept around the drawing's content when it is larger than the stage, px. */
const MARGIN = 8;

/**
 * Serialises the rendered stage `live` (an `<svg class="topology">` in the document) as frame
 * `f`. `idPrefix` names the markers and patterns (give each frame on one page its own).
 */
export function frameSvg(
  live: SVGSVGElement,
  f: FrameSpec,
  colours: FrameColours,
  idPrefix: string,
): FrameSvg {
  const copy = inlineComputedStyles(live);
  // The pan/zoom transform on screen is the person's view, not the frame's: scale 1.
  copy.querySelector('.stage-layer')?.removeAttribute('transform');
  const layer = live.querySelector<SVGGraphicsElement>('.stage-layer');
  const box = layer?.getBBox();
  const w0 = Number(live.getAttribute('width')) || live.clientWidth;
  const h0 = Number(live.getAttribute('height')) || live.clientHeight;
  const drawW = Math.ceil(Math.max(w0, box ? box.x + box.width + MARGIN : 0));
  const drawH = Math.ceil(Math.max(h0, box ? box.y + box.height + MARGIN : 0));
  for (const a of ['role', 'aria-label', 'class', 'data-testid'] as const) copy.removeAttribute(a);
  copy.setAttribute('x', '0');
  copy.setAttribute('width', String(drawW));
  copy.setAttribute('height', String(drawH));
  copy.setAttribute('viewBox', `0 0 ${drawW} ${drawH}`);
  const cap = captionLines(f, drawW);
  copy.setAttribute('y', String(cap.height));
  const width = drawW;
  const height = cap.height + drawH;
  const ids = [...copy.querySelectorAll('[id]')].map((e) => e.id);
  const text = cap.lines
    .map(
      (l) =>
        `<text x="12" y="${l.y}" font-size="${l.size}"${l.bold ? ' font-weight="700"' : ''} fill="${l.muted ? colours.muted : colours.fg}">${escapeXml(l.text)}</text>`,
    )
    .join('');
  const inner = rewriteIds(new XMLSerializer().serializeToString(copy), ids, idPrefix);
  const markup =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(`${f.label}: ${f.title}`)}" font-family="${escapeXml(colours.font)}">` +
    `<title>${escapeXml(`${f.label}: ${f.title}`)}</title>` +
    `<rect width="100%" height="100%" fill="${colours.background}"/>` +
    `<g>${text}</g>${inner}</svg>`;
  return { markup, width, height };
}
