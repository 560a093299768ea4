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
 *
 * This module holds the types and the expansion of `steps:` beats; the parser is ./talkParse.ts,
 * the text helpers ./talkText.ts, the chapter's talk ./talkFromChapter.ts; all are re-exported
 * here.
 */
import { clip, MAX_CAPTION, sentenceRanges, squash } from './talkText';

export { countSentences, MAX_CAPTION, MAX_CAPTION_SENTENCES, sentenceRanges } from './talkText';
export { parseTalk } from './talkParse';
export { talkFromChapter } from './talkFromChapter';

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
