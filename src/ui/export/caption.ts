/**
 * The caption band an exported frame carries above the drawing: the step's count, its
 * narration title and sentences, wrapped to the frame's width. A GIF or a PNG shown alone has
 * no narration beside it, so the frame says what happens in it. Pure (widths are estimated
 * with the stage's own text metrics, `topology/text.ts`).
 */
import { lineHeight, textWidth } from '../topology/text';

/** One caption line: its text, size (px), weight and baseline y (px from the band's top). */
export interface CaptionLine {
  text: string;
  size: number;
  bold: boolean;
  muted: boolean;
  y: number;
}

/** Left and right padding of the caption, px. */
export const CAPTION_PAD = 12;

/** Splits `text` into lines no wider than `width` px at `size` px (a long word gets its own line). */
export function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The caption's lines for a frame `width` px wide, and the band's height (px): the label
 * (12 px, muted), the title (15 px, bold) and the body (13 px), at most `maxBody` body lines
 * (the last ends in "…" when cut). Nothing is under 12 px, as on the stage.
 */
export function captionLines(
  f: { label: string; title: string; body: string },
  width: number,
  maxBody = 4,
): { lines: CaptionLine[]; height: number } {
  const w = Math.max(120, width - 2 * CAPTION_PAD);
  const lines: CaptionLine[] = [];
  let y = 8;
  const add = (text: string, size: number, bold: boolean, muted: boolean) => {
    const h = lineHeight(size);
    lines.push({ text, size, bold, muted, y: y + Math.round(size * 0.95) });
    y += h;
  };
  add(f.label, 12, false, true);
  for (const t of wrap(f.title, w, 15, true)) add(t, 15, true, false);
  const body = wrap(f.body, w, 13);
  const shown = body.slice(0, maxBody);
  if (body.length > maxBody) shown[maxBody - 1] = `${shown[maxBody - 1]!.replace(/\S*$/, '')}…`;
  for (const t of shown) add(t, 13, false, false);
  return { lines, height: y + 8 };
}
