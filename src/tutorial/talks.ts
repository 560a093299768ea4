/**
 * Talks: a presenter's sequence of beats, written as Markdown in `content/talks/<id>.md`
 * (content/AUTHORING.md, "Talks"). Each `##` section is one beat: a caption for the screen, one
 * show link (`scene:` or `time:`, exactly as in the tutorial) in a paragraph of its own, an
 * optional `steps: A-B` line that walks the scene's trace one step per beat, and an optional
 * `### Notes` sub-section for the presenter only.
 *
 * Pure: no React, no DOM, no model run. {@link parseTalk} checks the format and the link
 * syntax; resolving a link against the model is the caller's (the tutorial's resolvers), and so
 * is expanding `steps:` ({@link expandTalk}, given the trace's narration). A tutorial chapter
 * becomes a talk with {@link talkFromChapter}.
 */
import type { Nodes, Paragraph, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseDuration } from '../model/time';
import type { Chapter } from './chapters';
import { parseMarkdown } from './markdown';
import { parseSceneQuery } from './sceneLink';
import { parseTimeQuery } from './timeLink';
import { isRecord, parseYaml } from './yamlLines';

/** What a beat puts on screen: a scene link's or a time link's query (the part after the prefix). */
export interface TalkShow {
  /** `scene`: the visualiser's trace view; `time`: the Time & failures view. */
  kind: 'scene' | 'time';
  /** The query after `scene:` or `time:`, e.g. `story=1` or `events=fail:node-1@60s&at=85s`. */
  query: string;
}

/**
 * The trace steps a beat walks (`steps: 1-last`), 1-based and inclusive; `to: 'last'` is the
 * trace's last step. Only on scene beats.
 */
export interface TalkSteps {
  from: number;
  to: number | 'last';
}

/** One beat of a talk: one thing on screen, its caption and the presenter's notes. */
export interface TalkBeat {
  /** The section's `##` heading, as plain text. */
  title: string;
  /** The beat's one show link. */
  show: TalkShow;
  /**
   * The on-screen caption, plain text (inline Markdown reduced to its text): at most 2
   * sentences and {@link MAX_CAPTION} characters. Empty only on a `steps:` beat before
   * {@link expandTalk}, which then captions each step with its own narration.
   */
  caption: string;
  /** The presenter's notes, Markdown (the `### Notes` sub-section's source); '' when none. */
  notes: string;
  /** The trace steps this beat walks, one beat per step once expanded; null for a single beat. */
  steps: TalkSteps | null;
  /**
   * Set on the beats {@link expandTalk} makes from a `steps:` beat: the trace step shown
   * (1-based), and this beat's place among them (`index` 1…`count`).
   */
  part?: { step: number; index: number; count: number };
  /** 1-based line of the beat's heading in the talk file (of the link, for a chapter's beats). */
  line: number;
}

/** A talk, parsed. */
export interface Talk {
  /** The file name without `.md` (`cluster-vs-local`); `chapter:<slug>` for a chapter. */
  id: string;
  title: string;
  /** One sentence for the list of talks. */
  summary: string;
  /** `duration` from the front matter, ms; null when not given. */
  durationMs: number | null;
  /** `order` from the front matter (the list's order), null when not given (listed after). */
  order: number | null;
  beats: TalkBeat[];
}

/** A problem in a talk file: the 1-based line and what is wrong, naming the field or beat. */
export interface TalkProblem {
  line: number;
  message: string;
}

/** The result of {@link parseTalk}. */
export type ParseTalkResult = { ok: true; talk: Talk } | { ok: false; problems: TalkProblem[] };

/** Longest caption, in characters (what a projector's caption line holds in two lines). */
export const MAX_CAPTION = 240;
/** Most sentences in a caption. */
export const MAX_CAPTION_SENTENCES = 2;

const FIELDS = ['title', 'summary', 'duration', 'order'] as const;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const STEPS = /^steps:\s*(\d+)\s*[-–]\s*(\d+|last)$/;
const NOTES = /^notes$/i;
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

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `text` cut at a word boundary to at most `max` characters, with "…" when cut. */
function clip(text: string, max = MAX_CAPTION): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The show link of a paragraph that holds nothing else (whitespace aside), or undefined. */
function loneLink(p: Paragraph): { url: string } | undefined {
  const kids = p.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const only = kids.length === 1 ? kids[0] : undefined;
  return only?.type === 'link' && isShowUrl(only.url) ? { url: only.url } : undefined;
}

const isShowUrl = (url: string) => url.startsWith('scene:') || url.startsWith('time:');

/** Every scene:/time: link (or definition) under `node`, with its line. */
function showLinksIn(node: Nodes): { url: string; line: number }[] {
  const out: { url: string; line: number }[] = [];
  const visit = (n: Nodes) => {
    if ((n.type === 'link' || n.type === 'definition') && isShowUrl(n.url))
      out.push({ url: n.url, line: n.position?.start.line ?? 1 });
    if ('children' in n) for (const c of n.children) visit(c);
  };
  visit(node);
  return out;
}

function showOf(url: string): TalkShow {
  return url.startsWith('scene:')
    ? { kind: 'scene', query: url.slice('scene:'.length) }
    : { kind: 'time', query: url.slice('time:'.length) };
}

/** The front matter's lines and the body, or a problem. */
function splitFrontMatter(
  text: string,
):
  | { ok: true; yamlLines: string[]; body: string; bodyLine: number }
  | { ok: false; problem: TalkProblem } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    return {
      ok: false,
      problem: { line: 1, message: 'missing front matter: the file must start with a line "---"' },
    };
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (close < 0)
    return {
      ok: false,
      problem: { line: 1, message: 'the front matter is not closed: add a line "---" after it' },
    };
  return {
    ok: true,
    yamlLines: lines.slice(1, close),
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
  };
}

interface FrontMatter {
  title: string | undefined;
  summary: string | undefined;
  durationMs: number | null;
  order: number | null;
}

function readFrontMatter(
  yamlLines: string[],
  at: (line: number, message: string) => void,
): FrontMatter | undefined {
  const yaml = parseYaml(yamlLines.join('\n'));
  const fileLine = (l: number) => l + 1;
  for (const e of yaml.errors) at(fileLine(e.line), `front matter is not valid YAML: ${e.message}`);
  if (yaml.errors.length > 0) return undefined;
  const fm = yaml.data;
  if (!isRecord(fm)) {
    at(1, 'the front matter must be a mapping of fields (title, summary, duration, order)');
    return undefined;
  }
  const lineOf = (key: string) => fileLine(yaml.lineOf([key]));
  for (const key of Object.keys(fm))
    if (!(FIELDS as readonly string[]).includes(key))
      at(lineOf(key), `unknown field "${key}" (fields: ${FIELDS.join(', ')})`);
  const text = (key: 'title' | 'summary'): string | undefined => {
    const v = fm[key];
    if (v === undefined || v === null) at(1, `${key}: is required`);
    else if (typeof v !== 'string' || v.trim() === '')
      at(lineOf(key), `${key}: must be a non-empty string`);
    else return squash(v);
    return undefined;
  };
  const out: FrontMatter = {
    title: text('title'),
    summary: text('summary'),
    durationMs: null,
    order: null,
  };
  if (fm.duration !== undefined && fm.duration !== null) {
    const v = fm.duration;
    let ms: number | undefined;
    try {
      ms = typeof v === 'string' ? parseDuration(v) : undefined;
    } catch (_) {
      ms = undefined;
    }
    if (ms === undefined || ms <= 0)
      at(
        lineOf('duration'),
        `duration: ${JSON.stringify(v)} is not a duration (write e.g. 20m or 1h15m)`,
      );
    else out.durationMs = ms;
  }
  if (fm.order !== undefined && fm.order !== null) {
    if (typeof fm.order !== 'number' || !Number.isSafeInteger(fm.order))
      at(lineOf('order'), 'order: must be an integer');
    else out.order = fm.order;
  }
  return out;
}

/**
 * Parses a talk file (content/AUTHORING.md, "Talks"). `id` is the file name without `.md`.
 * Checks the front matter (`title` and `summary` required; `duration` a Go-style duration;
 * `order` an integer), then each `##` beat: exactly one show link, in a paragraph of its own,
 * whose query the tutorial's parsers accept (`parseSceneQuery`/`parseTimeQuery`: keys and
 * values, not the scenario); a caption of plain paragraphs, at most 2 sentences and 240
 * characters (required unless the beat has `steps:`); `steps: A-B` only on a scene beat whose
 * link sets no `step`; no other sub-heading than `### Notes`. Every problem has the file line
 * and names the field or the beat (`beat "Local drops it": no scene: or time: link`). Never
 * throws.
 */
export function parseTalk(id: string, markdown: string): ParseTalkResult {
  const problems: TalkProblem[] = [];
  const at = (line: number, message: string) => problems.push({ line, message });
  if (!ID.test(id))
    at(1, `id "${id}": a talk's file name must be lower-case words joined by dashes, then .md`);
  const split = splitFrontMatter(markdown);
  if (!split.ok) return { ok: false, problems: [split.problem] };
  const fm = readFrontMatter(split.yamlLines, at);
  const { body, bodyLine } = split;
  const fileLine = (n: Nodes | undefined) => (n?.position?.start.line ?? 1) + bodyLine - 1;

  const root: Root = parseMarkdown(body);
  const sections: { heading: RootContent; nodes: RootContent[] }[] = [];
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth === 1)
      at(fileLine(node), 'a "#" heading is not part of a talk: the title is in the front matter');
    else if (node.type === 'heading' && node.depth === 2)
      sections.push({ heading: node, nodes: [] });
    else sections[sections.length - 1]?.nodes.push(node);
    // Text before the first beat is for readers of the file; it is not shown.
  }
  if (sections.length === 0) at(bodyLine, 'the talk has no beats: write one "## Title" per beat');

  const beats: TalkBeat[] = [];
  for (const { heading, nodes } of sections) {
    const title = squash(toString(heading));
    const line = fileLine(heading);
    const bad = (l: number, message: string) => at(l, `beat "${title}": ${message}`);
    if (title === '') bad(line, 'the heading is empty');
    const notesAt = nodes.findIndex(
      (n) => n.type === 'heading' && n.depth === 3 && NOTES.test(squash(toString(n))),
    );
    const main = notesAt < 0 ? nodes : nodes.slice(0, notesAt);
    const notesNodes = notesAt < 0 ? [] : nodes.slice(notesAt + 1);
    const links: { url: string; line: number; alone: boolean }[] = [];
    const caption: string[] = [];
    let steps: TalkSteps | null = null;
    /** Whether a `steps:` line was written (valid or not), for the checks that depend on it. */
    let stepsGiven = false;
    for (const n of main) {
      const l = fileLine(n);
      if (n.type === 'paragraph') {
        const lone = loneLink(n);
        const text = squash(toString(n));
        const m = STEPS.exec(text);
        if (lone) links.push({ url: lone.url, line: l, alone: true });
        else if (m) {
          if (stepsGiven) bad(l, 'steps: is given more than once');
          stepsGiven = true;
          const from = Number(m[1]);
          const to = m[2] === 'last' ? ('last' as const) : Number(m[2]);
          if (from < 1) bad(l, `steps: ${text.slice(6).trim()}: the first step is 1`);
          else if (to !== 'last' && to < from)
            bad(l, `steps: ${from}-${to}: the last step comes before the first`);
          else steps = { from, to };
        } else if (/^steps\s*:/i.test(text))
          bad(l, `"${text}": write steps: A-B (numbers, B may be last), e.g. steps: 1-last`);
        else {
          for (const s of showLinksIn(n))
            links.push({ ...s, line: s.line + bodyLine - 1, alone: false });
          caption.push(text);
        }
      } else if (n.type === 'heading')
        bad(
          l,
          `"${'#'.repeat(n.depth)} ${squash(toString(n))}": the only sub-heading a beat may have is "### Notes"`,
        );
      else if (n.type === 'html' && n.value.trimStart().startsWith('<!--')) continue;
      else
        bad(l, `the caption must be plain paragraphs (this ${n.type} belongs under "### Notes")`);
    }
    for (const n of notesNodes) {
      if (n.type === 'heading' && n.depth <= 3)
        bad(
          fileLine(n),
          `"${squash(toString(n))}": after "### Notes" the beat ends at the next "##"`,
        );
      for (const s of showLinksIn(n))
        bad(
          s.line + bodyLine - 1,
          'notes must not hold scene: or time: links (the beat shows exactly one, above the notes)',
        );
    }
    if (
      nodes.filter((n) => n.type === 'heading' && n.depth === 3 && NOTES.test(squash(toString(n))))
        .length > 1
    )
      bad(line, '"### Notes" is given more than once');

    if (links.length === 0)
      bad(line, 'no scene: or time: link (write one alone on a line, e.g. [▶](scene:story=1))');
    else if (links.length > 1)
      bad(links[1]!.line, `${links.length} scene:/time: links: a beat shows exactly one`);
    const link = links[0];
    if (link && !link.alone)
      bad(link.line, 'the show link must be a paragraph of its own (not inside the caption)');
    const show = link ? showOf(link.url) : undefined;
    if (link && show) {
      const parsed =
        show.kind === 'scene' ? parseSceneQuery(show.query) : parseTimeQuery(show.query);
      for (const e of parsed.errors)
        bad(link.line, `${show.kind} link "${show.query}": ${e.message}`);
      if (stepsGiven && show.kind === 'time')
        bad(line, 'steps: walks a trace, so it needs a scene: link (a time link has no steps)');
      if (stepsGiven && show.kind === 'scene' && new URLSearchParams(show.query).has('step'))
        bad(link.line, 'a beat with steps: must not set step= in its link (steps: says which)');
    }
    const text = caption.join(' ');
    if (text === '' && !stepsGiven)
      bad(line, 'no caption: write one or two sentences above the link');
    if (text.length > MAX_CAPTION)
      bad(line, `caption is ${text.length} characters; at most ${MAX_CAPTION}`);
    const n = countSentences(text);
    if (n > MAX_CAPTION_SENTENCES)
      bad(
        line,
        `caption has ${n} sentences; at most ${MAX_CAPTION_SENTENCES} (move the rest to "### Notes")`,
      );
    const first = notesNodes[0];
    const last = notesNodes[notesNodes.length - 1];
    const notes =
      first?.position && last?.position
        ? body.slice(first.position.start.offset, last.position.end.offset).trim()
        : '';
    if (show) beats.push({ title, show, caption: text, notes, steps, line });
  }
  if (problems.length > 0 || !fm?.title || !fm.summary)
    return { ok: false, problems: problems.sort((a, b) => a.line - b.line) };
  return {
    ok: true,
    talk: {
      id,
      title: fm.title,
      summary: fm.summary,
      durationMs: fm.durationMs,
      order: fm.order,
      beats,
    },
  };
}

/**
 * The scene query that shows trace step `step` (1-based) of a `steps:` beat's query: the query
 * with `step=<step>` added (such a query sets no `step` itself; parseTalk checks it).
 */
export function stepQuery(query: string, step: number): string {
  return query ? `${query}&step=${step}` : `step=${step}`;
}

/** A trace step's narration, as the model writes it (`TraceStep.narration`). */
export interface StepNarration {
  title: string;
  body: string;
}

/**
 * The caption of one expanded trace step: the narration's title, then the first sentence of
 * its body when both fit {@link MAX_CAPTION}; otherwise the title alone (clipped).
 */
export function stepCaption(n: StepNarration): string {
  const title = squash(n.title).replace(/[.:]$/, '');
  const body = squash(n.body);
  const first = sentenceRanges(body)[0];
  const sentence = first ? body.slice(first[0], first[1]) : '';
  const both = sentence ? `${title}. ${sentence}` : title;
  return both.length <= MAX_CAPTION ? both : clip(title);
}

/**
 * Expands every `steps:` beat into one beat per trace step, in order, so each beat is one
 * keypress. `narrationFor(query)` gives the narration of every step of the trace the scene
 * query shows (the model's `trace.steps[i].narration`, i = 0 … length − 1), or a message when
 * the query does not resolve. An expanded beat keeps the title and notes, shows
 * `<query>&step=N`, takes the section's caption when it has one and else {@link stepCaption} of
 * step N, and carries `part`. Other beats are kept as they are. Problems: a query that does not
 * resolve, a range past the trace's end. Never throws (unless `narrationFor` does).
 */
export function expandTalk(
  talk: Talk,
  narrationFor: (query: string) => readonly StepNarration[] | string,
): { ok: true; talk: Talk } | { ok: false; problems: TalkProblem[] } {
  const problems: TalkProblem[] = [];
  const beats: TalkBeat[] = [];
  for (const beat of talk.beats) {
    if (!beat.steps || beat.show.kind !== 'scene') {
      beats.push(beat);
      continue;
    }
    const steps = narrationFor(beat.show.query);
    const at = (message: string) =>
      problems.push({ line: beat.line, message: `beat "${beat.title}": ${message}` });
    if (typeof steps === 'string') {
      at(`scene link "${beat.show.query}": ${steps}`);
      continue;
    }
    const { from } = beat.steps;
    const to = beat.steps.to === 'last' ? steps.length : beat.steps.to;
    if (steps.length === 0 || from > steps.length || to > steps.length) {
      at(
        `steps: ${from}-${beat.steps.to}: the trace has ${steps.length} step${steps.length === 1 ? '' : 's'}`,
      );
      continue;
    }
    const count = to - from + 1;
    for (let step = from; step <= to; step++)
      beats.push({
        ...beat,
        show: { kind: 'scene', query: stepQuery(beat.show.query, step) },
        caption: beat.caption || stepCaption(steps[step - 1]!),
        steps: null,
        part: { step, index: step - from + 1, count },
      });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, talk: { ...talk, beats } };
}

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
