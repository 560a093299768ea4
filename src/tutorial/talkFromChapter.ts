/**
 * A tutorial chapter as a talk ({@link talkFromChapter}): one beat per place the chapter puts
 * the visualiser in a state, captioned from the chapter's own sentences.
 */
import type { Nodes, Paragraph } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Chapter } from './chapters';
import { parseMarkdown } from './markdown';
import type { Talk, TalkBeat } from './talks';
import { clip, isShowUrl, sentenceRanges, showLinksIn, showOf, squash } from './talkText';
import { isRecord, parseYaml } from './yamlLines';

/** The plain text of `node`'s children, with the `[start, end)` range of `target`'s text. */
function textWithRange(node: Nodes, target: Nodes): { text: string; range: [number, number] } {
  let text = '';
  let range: [number, number] = [0, 0];
  const visit = (n: Nodes) => {
    const start = text.length;
    if (n.type === 'text' || n.type === 'inlineCode') text += n.value;
    else if (n.type === 'break') text += ' ';
    else if ('children' in n) for (const c of n.children) visit(c);
    if (n === target) range = [start, text.length];
  };
  visit(node);
  return { text, range };
}

/** The plain text of every scene:/time: link in `p`. */
function linkTexts(p: Paragraph): string[] {
  const out: string[] = [];
  const visit = (n: Nodes) => {
    if (n.type === 'link' && isShowUrl(n.url)) out.push(squash(toString(n)));
    else if ('children' in n) for (const c of n.children) visit(c);
  };
  visit(p);
  return out;
}

/**
 * A tutorial chapter as a talk (id `chapter:<slug>`, no duration, no order): one beat per
 * place the chapter puts the visualiser in a state, in reading order —
 *
 * 1. the front-matter `scene:` when there is one: titled with the chapter's title, captioned
 *    with its summary, the notes the text before the first heading;
 * 2. every `scene:` and `time:` link (not link definitions) and every fenced `scene` block:
 *    titled with the nearest heading above (the chapter's title before the first), captioned
 *    with the sentence that holds the link — or, when the link is a paragraph of its own, the
 *    last sentence of the paragraph before it in the same section — and a block with its
 *    `caption:`; the notes are the Markdown from the previous beat in the same section (or the
 *    section's heading) to the end of the link's paragraph.
 *
 * Captions are clipped to {@link MAX_CAPTION} characters at a word ("…"). Questions are left
 * out (their scene would give the answer away). Links that do not resolve are kept: the caller
 * resolves each beat (as for a talk file).
 */
export function talkFromChapter(chapter: Chapter): Talk {
  const body = chapter.body;
  const root = parseMarkdown(body);
  const beats: TalkBeat[] = [];
  const line = (n: Nodes) => (n.position?.start.line ?? 1) + chapter.bodyLine - 1;
  const offset = (n: Nodes, end = false) =>
    (end ? n.position?.end.offset : n.position?.start.offset) ?? 0;
  const firstHeading = root.children.find((n) => n.type === 'heading');
  if (chapter.scene !== undefined)
    beats.push({
      title: chapter.title,
      show: { kind: 'scene', query: chapter.scene },
      caption: clip(chapter.summary),
      notes: body.slice(0, firstHeading ? offset(firstHeading) : body.length).trim(),
      steps: null,
      line: chapter.fieldLines.scene ?? 1,
    });
  let title = chapter.title;
  let notesFrom = firstHeading ? offset(firstHeading) : 0;
  /** The last prose sentence (not a link alone) of the paragraphs seen in this section. */
  let lastSentence = '';
  /** A paragraph's sentences, without those that are a show link's text alone. */
  const proseSentences = (p: Paragraph): string[] => {
    const { text } = textWithRange(p, p);
    const links = showLinksIn(p).length > 0 ? linkTexts(p) : [];
    return sentenceRanges(text)
      .map(([a, b]) => squash(text.slice(a, b)))
      .filter((x) => !links.includes(x.replace(/[.!?]+$/, '')));
  };
  const visit = (n: Nodes, paragraph: Paragraph | undefined, quoted: boolean) => {
    if (n.type === 'heading') {
      title = squash(toString(n));
      notesFrom = offset(n, true);
      lastSentence = '';
      return;
    }
    if (n.type === 'code' && n.lang === 'scene') {
      const y = parseYaml(n.value);
      const data = isRecord(y.data) ? y.data : {};
      const scene = typeof data.scene === 'string' ? data.scene.replace(/^scene:/, '') : '';
      const caption = typeof data.caption === 'string' ? clip(squash(data.caption)) : '';
      beats.push({
        title,
        show: { kind: 'scene', query: scene },
        caption: caption || lastSentence,
        notes: body.slice(notesFrom, offset(n)).trim(),
        steps: null,
        line: line(n),
      });
      notesFrom = offset(n, true);
      return;
    }
    if (n.type === 'link' && isShowUrl(n.url) && paragraph) {
      const { text, range } = textWithRange(paragraph, n);
      const sentences = sentenceRanges(text);
      const at = sentences.findIndex(([a, b]) => range[0] >= a && range[0] < b);
      const [a, b] = sentences[at] ?? [0, text.length];
      const sentence = squash(text.slice(a, b));
      const alone = sentence.replace(/[.!?]+$/, '') === squash(text.slice(range[0], range[1]));
      // A link alone ("[Play from step 2](…).") says nothing: the prose just before it does.
      const before = at > 0 ? sentences[at - 1] : undefined;
      const prev = before ? squash(text.slice(before[0], before[1])) : lastSentence;
      beats.push({
        title,
        show: showOf(n.url),
        caption: clip(alone && prev ? prev : sentence.replace(/^▶\s*/, '')),
        notes: body.slice(notesFrom, offset(paragraph, true)).trim(),
        steps: null,
        line: line(n),
      });
      return;
    }
    if (n.type === 'paragraph') {
      const before = beats.length;
      for (const c of n.children) visit(c, n, quoted);
      if (beats.length > before) notesFrom = offset(n, true);
      // Asides (blockquotes, alerts) are not the text a link follows on from.
      const prose = quoted ? [] : proseSentences(n);
      if (prose.length > 0) lastSentence = clip(prose[prose.length - 1]!);
      return;
    }
    if ('children' in n)
      for (const c of n.children) visit(c, paragraph, quoted || n.type === 'blockquote');
  };
  visit(root, undefined, false);
  return {
    id: `chapter:${chapter.slug}`,
    title: chapter.title,
    summary: chapter.summary,
    durationMs: null,
    order: null,
    beats,
  };
}
