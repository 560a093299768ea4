/**
 * The printable handout: one page per step — its frame (the standalone SVG, inline, so text
 * stays text and prints as vectors) and its narration — as one self-contained HTML document
 * with print CSS (`@media print`: no buttons, one figure per page, A4/Letter margins).
 * Pure: the frames are passed in.
 */
import type { FrameSpec } from './naming';

/** One figure of the handout: the frame's SVG file text and its narration. */
export interface HandoutFrame {
  spec: FrameSpec;
  svg: string;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
body { margin: 0 auto; max-width: 1100px; padding: 16px; color: #17202c; background: #fff; }
header { display: flex; flex-wrap: wrap; gap: 12px; align-items: baseline; justify-content: space-between; }
h1 { font-size: 22px; margin: 0 0 4px; }
.meta { color: #566173; margin: 0; }
button { font: inherit; font-size: 15px; padding: 6px 14px; border-radius: 6px; border: 1px solid #1d5fd6; background: #1d5fd6; color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid #7c3aed; outline-offset: 2px; }
figure { margin: 24px 0; border-top: 1px solid #cfd6df; padding-top: 16px; }
figure svg { display: block; width: 100%; height: auto; max-height: 70vh; border: 1px solid #cfd6df; border-radius: 6px; }
figcaption { margin-top: 8px; }
figcaption .count { color: #566173; font-size: 13px; margin: 0; }
figcaption h2 { font-size: 17px; margin: 2px 0 4px; }
figcaption p { margin: 0; font-size: 15px; line-height: 1.45; }
@page { margin: 12mm; }
@media print {
  body { max-width: none; padding: 0; }
  .no-print { display: none !important; }
  figure { break-inside: avoid; page-break-inside: avoid; break-after: page; border-top: 0; margin: 0; padding: 0; }
  figure:last-of-type { break-after: auto; }
  figure svg { max-height: 190mm; border-color: #8391a7; }
}`;

/**
 * The handout document: a title with the scenario's words (`title`, e.g. "Service default/web ·
 * externalTrafficPolicy: Cluster"), a Print button (hidden in print) and one `<figure>` per
 * frame with the step's count, title and sentences as its caption.
 */
export function handoutHtml(title: string, frames: readonly HandoutFrame[]): string {
  const figures = frames
    .map(({ spec, svg }) => {
      const body = svg.replace(/^<\?xml[^>]*>\s*/, '');
      return (
        `<figure data-step="${spec.index}">${body}<figcaption>` +
        `<p class="count">${esc(spec.label)}</p><h2>${esc(spec.title)}</h2><p>${esc(spec.body)}</p>` +
        `</figcaption></figure>`
      );
    })
    .join('\n');
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(`Handout: ${title}`)}</title><style>${CSS}</style></head><body>` +
    `<header><div><h1>LoadBalancer data path: ${esc(title)}</h1>` +
    `<p class="meta">${frames.length} step${frames.length === 1 ? '' : 's'}, one per page when printed.</p></div>` +
    `<button type="button" class="no-print" id="print">Print…</button></header>` +
    `<main>${figures}</main></body></html>`
  );
}
