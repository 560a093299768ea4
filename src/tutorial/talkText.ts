/**
 * The text of talks: sentences (for the caption's limit), captions clipped to what a
 * projector's caption line holds, and the show links (`scene:`, `time:`) in Markdown.
 */
import type { Nodes, Paragraph } from 'mdast';
import type { TalkShow } from './talks';

/** Longest caption, in characters (what a projector's caption line holds in two lines). */
export const MAX_CAPTION = 240;
/** Most sentences in a caption. */
export const MAX_CAPTION_SENTENCES = 2;

/** Words ending in a full stop that do not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf|approx|ca)\.$/i;

/** The `[start, end)` offsets of each sentence of `text` (a full stop, ! or ? then a space ends one). */
export function sentenceRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  const re = /[.!?…]+["'”’)\]]*(?=\s)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && ABBREVIATIONS.test(text.slice(start, m.index + 1))) continue;
    if (text.slice(start, end).trim() !== '') out.push([start, end]);
    start = end;
  }
  if (text.slice(start).trim() !== '') out.push([start, text.length]);
  return out.map(([a, b]) => {
    while (a < b && /\s/.test(text[a] ?? '')) a++;
    return [a, b];
  });
}

/** How many sentences `text` has ({@link sentenceRanges}). */
export function countSentences(text: string): number {
  return sentenceRanges(text).length;
}

/** `s` with runs of whitespace made one space, trimmed. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `text` cut at a word boundary to at most `max` characters, with "…" when cut. */
export function clip(text: string, max = MAX_CAPTION): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The show link of a paragraph that holds nothing else (whitespace aside), or undefined. */
export function loneLink(p: Paragraph): { url: string } | undefined {
  const kids = p.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const only = kids.length === 1 ? kids[0] : undefined;
  return only?.type === 'link' && isShowUrl(only.url) ? { url: only.url } : undefined;
}

/** Whether `url` is a show link (`scene:` or `time:`). */
export const isShowUrl = (url: string) => url.startsWith('scene:') || url.startsWith('time:');

/** Every scene:/time: link (or definition) under `node`, with its line. */
export function showLinksIn(node: Nodes): { url: string; line: number }[] {
  const out: { url: string; line: number }[] = [];
  const visit = (n: Nodes) => {
    if ((n.type === 'link' || n.type === 'definition') && isShowUrl(n.url))
      out.push({ url: n.url, line: n.position?.start.line ?? 1 });
    if ('children' in n) for (const c of n.children) visit(c);
  };
  visit(node);
  return out;
}

/** What a show link puts on screen: its kind and the query after the prefix. */
export function showOf(url: string): TalkShow {
  return url.startsWith('scene:')
    ? { kind: 'scene', query: url.slice('scene:'.length) }
    : { kind: 'time', query: url.slice('time:'.length) };
}
