/**
 * Parsing a talk file ({@link parseTalk}, content/AUTHORING.md, "Talks"): the front matter,
 * then each `##` beat — its one show link, its caption, an optional `steps:` line and
 * `### Notes` — every problem with its file line.
 */
import type { Nodes, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseDuration } from '../model/time';
import { parseMarkdown } from './markdown';
import { parseSceneQuery } from './sceneLink';
import { parseTimeQuery } from './timeLink';
import type { ParseTalkResult, TalkBeat, TalkProblem, TalkSteps } from './talks';
import {
  countSentences,
  loneLink,
  MAX_CAPTION,
  MAX_CAPTION_SENTENCES,
  showLinksIn,
  showOf,
  squash,
} from './talkText';
import { isRecord, parseYaml } from './yamlLines';

const FIELDS = ['title', 'summary', 'duration', 'order'] as const;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const STEPS = /^steps:\s*(\d+)\s*[-–]\s*(\d+|last)$/;
const NOTES = /^notes$/i;
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

/** The front matter's fields, as far as they are valid. */
interface FrontMatter {
  title: string | undefined;
  summary: string | undefined;
  durationMs: number | null;
  order: number | null;
}

/** Checks and reads the front matter's fields, reporting each problem through `at`. */
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

/** What every beat's checks share: the problem sink and the body's place in the file. */
interface BeatContext {
  /** Reports a problem at a file line. */
  at: (line: number, message: string) => void;
  /** The file line of a node of the body. */
  fileLine: (n: Nodes | undefined) => number;
  /** The file line of the body's first line. */
  bodyLine: number;
  /** The body's Markdown. */
  body: string;
}

/** A `##` section of the body: the heading and the nodes under it. */
interface Section {
  heading: RootContent;
  nodes: RootContent[];
}

/** A show link found in a beat, and whether it is a paragraph of its own. */
interface FoundLink {
  url: string;
  line: number;
  alone: boolean;
}

const isNotesHeading = (n: RootContent) =>
  n.type === 'heading' && n.depth === 3 && NOTES.test(squash(toString(n)));

/** The body's `##` sections; a `#` heading is a problem, text before the first beat ignored. */
function sectionsOf(root: Root, ctx: BeatContext): Section[] {
  const sections: Section[] = [];
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth === 1)
      ctx.at(
        ctx.fileLine(node),
        'a "#" heading is not part of a talk: the title is in the front matter',
      );
    else if (node.type === 'heading' && node.depth === 2)
      sections.push({ heading: node, nodes: [] });
    else sections[sections.length - 1]?.nodes.push(node);
    // Text before the first beat is for readers of the file; it is not shown.
  }
  return sections;
}

/**
 * A `steps: A-B` line (`m`, the {@link STEPS} match of `text`): the range, or a problem.
 * @returns the range, or null when it is not valid.
 */
function readSteps(
  m: RegExpExecArray,
  text: string,
  l: number,
  bad: (l: number, message: string) => void,
): TalkSteps | null {
  const from = Number(m[1]);
  const to = m[2] === 'last' ? ('last' as const) : Number(m[2]);
  if (from < 1) bad(l, `steps: ${text.slice(6).trim()}: the first step is 1`);
  else if (to !== 'last' && to < from)
    bad(l, `steps: ${from}-${to}: the last step comes before the first`);
  else return { from, to };
  return null;
}

/**
 * The beat's part above `### Notes`: its show links, its caption paragraphs and its `steps:`
 * line; anything else there is a problem.
 */
function readMain(
  main: RootContent[],
  ctx: BeatContext,
  bad: (l: number, message: string) => void,
): { links: FoundLink[]; caption: string[]; steps: TalkSteps | null; stepsGiven: boolean } {
  const links: FoundLink[] = [];
  const caption: string[] = [];
  let steps: TalkSteps | null = null;
  /** Whether a `steps:` line was written (valid or not), for the checks that depend on it. */
  let stepsGiven = false;
  for (const n of main) {
    const l = ctx.fileLine(n);
    if (n.type === 'paragraph') {
      const lone = loneLink(n);
      const text = squash(toString(n));
      const m = STEPS.exec(text);
      if (lone) links.push({ url: lone.url, line: l, alone: true });
      else if (m) {
        if (stepsGiven) bad(l, 'steps: is given more than once');
        stepsGiven = true;
        steps = readSteps(m, text, l, bad) ?? steps;
      } else if (/^steps\s*:/i.test(text))
        bad(l, `"${text}": write steps: A-B (numbers, B may be last), e.g. steps: 1-last`);
      else {
        for (const s of showLinksIn(n))
          links.push({ ...s, line: s.line + ctx.bodyLine - 1, alone: false });
        caption.push(text);
      }
    } else if (n.type === 'heading')
      bad(
        l,
        `"${'#'.repeat(n.depth)} ${squash(toString(n))}": the only sub-heading a beat may have is "### Notes"`,
      );
    else if (n.type === 'html' && n.value.trimStart().startsWith('<!--')) continue;
    else bad(l, `the caption must be plain paragraphs (this ${n.type} belongs under "### Notes")`);
  }
  return { links, caption, steps, stepsGiven };
}

/** The notes may hold no heading up to `###` and no show link; `### Notes` only once. */
function checkNotes(
  nodes: RootContent[],
  notesNodes: RootContent[],
  line: number,
  ctx: BeatContext,
  bad: (l: number, message: string) => void,
): void {
  for (const n of notesNodes) {
    if (n.type === 'heading' && n.depth <= 3)
      bad(
        ctx.fileLine(n),
        `"${squash(toString(n))}": after "### Notes" the beat ends at the next "##"`,
      );
    for (const s of showLinksIn(n))
      bad(
        s.line + ctx.bodyLine - 1,
        'notes must not hold scene: or time: links (the beat shows exactly one, above the notes)',
      );
  }
  if (nodes.filter(isNotesHeading).length > 1) bad(line, '"### Notes" is given more than once');
}

/**
 * The beat's show link: exactly one, a paragraph of its own, its query one the tutorial's
 * parsers accept; `steps:` only with a scene link that sets no `step`.
 * @returns what the link shows, or undefined without a link.
 */
function checkShow(
  links: FoundLink[],
  stepsGiven: boolean,
  line: number,
  bad: (l: number, message: string) => void,
): TalkBeat['show'] | undefined {
  if (links.length === 0)
    bad(line, 'no scene: or time: link (write one alone on a line, e.g. [▶](scene:story=1))');
  else if (links.length > 1)
    bad(links[1]!.line, `${links.length} scene:/time: links: a beat shows exactly one`);
  const link = links[0];
  if (link && !link.alone)
    bad(link.line, 'the show link must be a paragraph of its own (not inside the caption)');
  const show = link ? showOf(link.url) : undefined;
  if (link && show) {
    const parsed = show.kind === 'scene' ? parseSceneQuery(show.query) : parseTimeQuery(show.query);
    for (const e of parsed.errors)
      bad(link.line, `${show.kind} link "${show.query}": ${e.message}`);
    if (stepsGiven && show.kind === 'time')
      bad(line, 'steps: walks a trace, so it needs a scene: link (a time link has no steps)');
    if (stepsGiven && show.kind === 'scene' && new URLSearchParams(show.query).has('step'))
      bad(link.line, 'a beat with steps: must not set step= in its link (steps: says which)');
  }
  return show;
}

/** The caption: required unless `steps:` is given; at most 240 characters and 2 sentences. */
function checkCaption(
  text: string,
  stepsGiven: boolean,
  line: number,
  bad: (l: number, message: string) => void,
): void {
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
}

/** One `##` section as a beat, every problem reported; undefined when it has no show link. */
function parseBeat({ heading, nodes }: Section, ctx: BeatContext): TalkBeat | undefined {
  const title = squash(toString(heading));
  const line = ctx.fileLine(heading);
  const bad = (l: number, message: string) => ctx.at(l, `beat "${title}": ${message}`);
  if (title === '') bad(line, 'the heading is empty');
  const notesAt = nodes.findIndex(isNotesHeading);
  const main = notesAt < 0 ? nodes : nodes.slice(0, notesAt);
  const notesNodes = notesAt < 0 ? [] : nodes.slice(notesAt + 1);
  const { links, caption, steps, stepsGiven } = readMain(main, ctx, bad);
  checkNotes(nodes, notesNodes, line, ctx, bad);
  const show = checkShow(links, stepsGiven, line, bad);
  const text = caption.join(' ');
  checkCaption(text, stepsGiven, line, bad);
  const first = notesNodes[0];
  const last = notesNodes[notesNodes.length - 1];
  const notes =
    first?.position && last?.position
      ? ctx.body.slice(first.position.start.offset, last.position.end.offset).trim()
      : '';
  return show ? { title, show, caption: text, notes, steps, line } : undefined;
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
  const ctx: BeatContext = {
    at,
    fileLine: (n) => (n?.position?.start.line ?? 1) + bodyLine - 1,
    bodyLine,
    body,
  };
  const sections = sectionsOf(parseMarkdown(body), ctx);
  if (sections.length === 0) at(bodyLine, 'the talk has no beats: write one "## Title" per beat');
  const beats: TalkBeat[] = [];
  for (const section of sections) {
    const beat = parseBeat(section, ctx);
    if (beat) beats.push(beat);
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
