/**
 * Checks the whole tutorial: every chapter, scene, time link, question, diagram, the glossary
 * and the topics, as content/AUTHORING.md promises ("fails the tests"). Used by the content tests and
 * by `npx tsx scripts/tutorial-check.ts`.
 */
import type { Book, Chapter } from './chapters';
import { loadBook } from './chapters';
import type { YamlBlock } from './blocks';
import { extractBlocks, missingAccessibility } from './blocks';
import type { GlossaryEntry } from './glossary';
import { parseGlossary } from './glossary';
import type { Problem } from './problem';
import { sortProblems } from './problem';
import type { Question, QuestionOption } from './questions';
import {
  answerQuestion,
  answersBySeed,
  parseQuestion,
  questionOptions,
  unknownOptionNames,
} from './questions';
import type { SceneResult } from '../model';
import type { ResolveOptions, ResolvedScene } from './sceneResolve';
import { resolveSceneQuery } from './sceneResolve';
import type { ResolvedTime } from './timeResolve';
import { resolveTimeQuery } from './timeResolve';
import type { Topic } from './topics';
import { checkTopics, parseTopics } from './topics';
import { isRecord } from './yamlLines';

/** The content folder's text, by path (e.g. `content/chapters/07-traffic-policy.md`). */
export interface ContentFiles {
  chapters: Record<string, string>;
  /** `content/glossary.yaml`; absent when the file does not exist. */
  glossary?: { file: string; text: string };
  /** `content/topics.yaml`; absent when the file does not exist. */
  topics?: { file: string; text: string };
}

/** Which check found a problem. */
export type CheckKind =
  | 'chapter'
  | 'scene'
  | 'time'
  | 'question'
  | 'check-yourself'
  | 'spoiler'
  | 'mermaid'
  | 'glossary'
  | 'topics'
  | 'step-text';

/** A problem and the check that found it. */
export interface ContentProblem extends Problem {
  check: CheckKind;
}

/** A scene found in the content and what it resolved to. */
export interface SceneReport {
  file: string;
  line: number;
  kind: 'front matter' | 'link' | 'block';
  query: string;
  resolved?: ResolvedScene;
}

/** A time link found in the content and what it resolved to. */
export interface TimeReport {
  file: string;
  line: number;
  /** The part after `time:`. */
  query: string;
  /** The link's text. */
  text: string;
  resolved?: ResolvedTime;
}

/** A question found in the content, its options and its computed answer. */
export interface QuestionReport {
  file: string;
  line: number;
  question: Question;
  resolved?: ResolvedScene;
  options: QuestionOption[];
  /** The right option's id, or null when the question does not apply to the outcome. */
  answer: string | null;
  /** The answer for each seed tried (one seed when the link sets it). */
  bySeed: Map<number, string>;
}

/** Everything the check found. */
export interface ContentReport {
  book: Book;
  glossary: GlossaryEntry[];
  topics: Topic[];
  scenes: SceneReport[];
  /** Every time link, sorted by file and line. */
  times: TimeReport[];
  questions: QuestionReport[];
  /** Sorted by file and line. */
  problems: ContentProblem[];
  /**
   * Things that are probably wrong but that the tests cannot decide (sorted by file and line):
   * a scene link whose text says "step N" while the link shows another step.
   */
  warnings: ContentProblem[];
}

const CHECK_YOURSELF = 'Check yourself';
const SCENE_BLOCK_FIELDS = ['scene', 'caption'];

/** Runs every check over the content. Never throws. */
export function checkContent(files: ContentFiles, options: ResolveOptions = {}): ContentReport {
  const problems: ContentProblem[] = [];
  const warnings: ContentProblem[] = [];
  const add = (check: CheckKind, ps: readonly Problem[]) =>
    problems.push(...ps.map((p) => ({ ...p, check })));
  const book = loadBook(files.chapters);
  add('chapter', book.problems);
  const scenes: SceneReport[] = [];
  const times: TimeReport[] = [];
  const questions: QuestionReport[] = [];
  const ids = new Map<string, string>();

  const scene = (file: string, line: number, kind: SceneReport['kind'], query: string) => {
    const r = resolveSceneQuery(query, options);
    if (r.ok) scenes.push({ file, line, kind, query, resolved: r.scene });
    else {
      scenes.push({ file, line, kind, query });
      add(
        'scene',
        r.errors.map((e) => ({ file, line, message: `scene ${kind} "${query}": ${e.message}` })),
      );
    }
    return r.ok ? r.scene : undefined;
  };

  for (const c of book.chapters) {
    const front =
      c.scene !== undefined
        ? scene(c.file, c.fieldLines.scene ?? 1, 'front matter', c.scene)
        : undefined;
    const blocks = extractBlocks(c.body, c.bodyLine);
    const chapterQuestions: QuestionReport[] = [];
    for (const l of blocks.sceneLinks) {
      const resolved = scene(c.file, l.line, 'link', l.query);
      const said = resolved && stepTextMismatch(l.text, l.query, resolved);
      if (said) warnings.push({ file: c.file, line: l.line, message: said, check: 'step-text' });
    }
    for (const l of blocks.timeLinks) {
      const r = resolveTimeQuery(l.query, options);
      const base = { file: c.file, line: l.line, query: l.query, text: l.text };
      times.push(r.ok ? { ...base, resolved: r.time } : base);
      if (!r.ok)
        add(
          'time',
          r.errors.map((e) => ({
            file: c.file,
            line: l.line,
            message: `time link "${l.query}": ${e.message}`,
          })),
        );
    }
    for (const b of blocks.sceneBlocks) {
      const q = sceneBlock(b, c.file, (ps) => add('scene', ps));
      if (q !== undefined) scene(c.file, b.fieldLine('scene'), 'block', q);
    }
    for (const m of blocks.mermaid) {
      const missing = missingAccessibility(m.code);
      if (missing.length > 0)
        add('mermaid', [
          {
            file: c.file,
            line: m.line,
            message: `mermaid diagram without ${missing.join(' and ')}: add "${missing.map((k) => `${k}: …`).join('" and "')}" lines`,
          },
        ]);
    }
    for (const b of blocks.questions) {
      const { question, problems: ps } = parseQuestion(b, c.file);
      add('question', ps);
      if (!question) continue;
      const line = b.fieldLine('id');
      const other = ids.get(question.id);
      if (other)
        add('question', [
          {
            file: c.file,
            line,
            message: `question id "${question.id}" is already used at ${other}`,
          },
        ]);
      else ids.set(question.id, `${c.file}:${line}`);
      const report = checkQuestion(question, c.file, b, options, (ps2) => add('question', ps2));
      questions.push(report);
      chapterQuestions.push(report);
    }
    if (c.core) add('check-yourself', checkYourself(c, blocks.questions));
    if (front) add('spoiler', spoilers(c, front, chapterQuestions));
  }

  let glossary: GlossaryEntry[] = [];
  if (files.glossary) {
    const g = parseGlossary(files.glossary.text, files.glossary.file);
    glossary = g.entries;
    add('glossary', g.problems);
  } else
    add('glossary', [
      { file: 'content/glossary.yaml', line: 1, message: 'the glossary file is missing' },
    ]);

  let topics: Topic[] = [];
  if (files.topics) {
    const t = parseTopics(files.topics.text, files.topics.file);
    topics = t.topics;
    add('topics', [...t.problems, ...checkTopics(t.topics, book.chapters, files.topics.file)]);
  } else
    add('topics', [
      { file: 'content/topics.yaml', line: 1, message: 'the topics file is missing' },
    ]);

  return {
    book,
    glossary,
    topics,
    scenes: scenes.sort(byPlace),
    times: times.sort(byPlace),
    questions,
    problems: sortProblems(problems) as ContentProblem[],
    warnings: sortProblems(warnings) as ContentProblem[],
  };
}

function byPlace(a: { file: string; line: number }, b: { file: string; line: number }): number {
  return a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1;
}

/** The scene query of a `scene` block (`scene:` and `caption:`), or undefined after a problem. */
function sceneBlock(
  b: YamlBlock,
  file: string,
  report: (ps: Problem[]) => void,
): string | undefined {
  const ps: Problem[] = b.yamlErrors.map((e) => ({
    file,
    line: e.line,
    message: `scene block is not valid YAML: ${e.message}`,
  }));
  const d = b.data;
  if (ps.length === 0 && !isRecord(d))
    ps.push({
      file,
      line: b.line,
      message: 'scene block must be a mapping with scene: and caption:',
    });
  let query: string | undefined;
  if (ps.length === 0 && isRecord(d)) {
    for (const k of Object.keys(d))
      if (!SCENE_BLOCK_FIELDS.includes(k))
        ps.push({
          file,
          line: b.fieldLine(k),
          message: `scene block: unknown field "${k}" (fields: scene, caption)`,
        });
    for (const k of SCENE_BLOCK_FIELDS) {
      const v = d[k];
      if (typeof v !== 'string' || v.trim() === '')
        ps.push({
          file,
          line: b.fieldLine(k),
          message: `scene block: ${k} is required (${k === 'caption' ? 'a sentence that says in words what the scene shows' : 'a scene query, e.g. policy=Local&step=last'})`,
        });
    }
    if (typeof d.scene === 'string') query = d.scene.trim().replace(/^scene:/, '');
  }
  report(ps);
  return ps.length === 0 ? query : undefined;
}

function checkQuestion(
  question: Question,
  file: string,
  b: YamlBlock,
  options: ResolveOptions,
  report: (ps: Problem[]) => void,
): QuestionReport {
  const sceneLine = b.fieldLine('scene');
  const r = resolveSceneQuery(question.scene, options);
  const base = {
    file,
    line: b.line,
    question,
    options: [] as QuestionOption[],
    answer: null,
    bySeed: new Map<number, string>(),
  };
  if (!r.ok) {
    report(
      r.errors.map((e) => ({
        file,
        line: sceneLine,
        message: `question ${question.id}: scene "${question.scene}": ${e.message}`,
      })),
    );
    return base;
  }
  const result = r.scene.result;
  const options_ = questionOptions(question, result);
  const answer = answerQuestion(question, result);
  const bySeed = answersBySeed(question, options);
  const ps: Problem[] = [];
  const unknown = unknownOptionNames(question, result);
  if (unknown.length > 0)
    ps.push({
      file,
      line: b.fieldLine('options'),
      message: `question ${question.id}: options ${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} neither an option (${questionOptions(
        { ask: question.ask },
        result,
      )
        .map((o) => o.id)
        .join(
          ', ',
        )})${question.ask === 'sourceIP' ? ' nor a group (client, nodes, bridges, balancer)' : ''}`,
    });
  else if (question.options && options_.length < 2)
    ps.push({
      file,
      line: b.fieldLine('options'),
      message: `question ${question.id}: options leave ${options_.length} choice(s); offer at least two`,
    });
  if (answer === null)
    ps.push({
      file,
      line: b.fieldLine('ask'),
      message: `question ${question.id}: ask ${question.ask} does not apply, the connection is not delivered (${result.trace.outcome.summary}); ask outcome instead`,
    });
  else if (!options_.some((o) => o.id === answer))
    ps.push({
      file,
      line: b.fieldLine('ask'),
      message: `question ${question.id}: the answer ${answer} is not among the options (${options_.map((o) => o.id).join(', ')})`,
    });
  const distinct = new Set(bySeed.values());
  if (distinct.size > 1) {
    const groups = new Map<string, number[]>();
    for (const [seed, a] of bySeed) groups.set(a, [...(groups.get(a) ?? []), seed]);
    const seen = [...groups].map(([a, seeds]) => `${a} with seeds ${seeds.join(', ')}`).join('; ');
    ps.push({
      file,
      line: sceneLine,
      message: `question ${question.id}: the answer depends on the seed (${seen}); pin lbTarget and/or endpoint`,
    });
  }
  report(ps);
  return { ...base, resolved: r.scene, options: options_, answer, bySeed };
}

/** A core chapter needs a `## Check yourself` section holding at least one question. */
function checkYourself(c: Chapter, questionBlocks: readonly YamlBlock[]): Problem[] {
  const i = c.headings.findIndex((h) => h.depth === 2 && h.text === CHECK_YOURSELF);
  const h = c.headings[i];
  if (!h)
    return [
      {
        file: c.file,
        line: c.fieldLines.core ?? 1,
        message: `core chapter without a "## ${CHECK_YOURSELF}" section`,
      },
    ];
  const next = c.headings.slice(i + 1).find((x) => x.depth <= 2);
  const inside = questionBlocks.filter((b) => b.line > h.line && (!next || b.line < next.line));
  return inside.length > 0
    ? []
    : [{ file: c.file, line: h.line, message: `"## ${CHECK_YOURSELF}" holds no question block` }];
}

/** Scene options without the pins and the seed: what a learner reads off the drawing. */
function unpinned(scene: ResolvedScene['state']['scene']): string {
  const { choices: _choices, seed: _seed, ...rest } = scene;
  return JSON.stringify(rest);
}

/**
 * The index of the first trace step from which the drawing gives the question's answer away:
 * for a delivered connection, the step that sends the packet to the Pod (its DNAT) for `pod`,
 * `node`, `crossedNodes` and `outcome`, and the first step where it travels to the Pod with the
 * source the Pod will see for `sourceIP` and `snat`; for one that is not delivered, the last step
 * (which says what stopped it). -1 when the trace has no steps: the narration states the outcome
 * at once.
 */
export function revealStep(ask: Question['ask'], result: SceneResult): number {
  const steps = result.trace.steps;
  if (steps.length === 0) return -1;
  const o = result.trace.outcome;
  if (o.kind !== 'delivered') return steps.length - 1;
  const at = (ok: (p: (typeof steps)[number]['after']) => boolean) => {
    const i = steps.findIndex((s) => ok(s.after));
    return i === -1 ? steps.length - 1 : i;
  };
  if (ask === 'sourceIP' || ask === 'snat')
    return at((p) => p.dst === o.podIP && p.src === o.sourceIPSeenByPod);
  return at((p) => p.dst === o.podIP);
}

/**
 * A chapter must not open the visualiser on a question's answer (content/AUTHORING.md, "Check
 * yourself"): its front-matter scene may not be the scene of one of its questions (the same
 * scenario and toggles; pins and seed aside) with the same answer, shown at or after the step
 * that reveals it ({@link revealStep}).
 */
function spoilers(c: Chapter, front: ResolvedScene, questions: QuestionReport[]): Problem[] {
  const out: Problem[] = [];
  for (const q of questions) {
    const r = q.resolved;
    if (!r || q.answer === null) continue;
    if (JSON.stringify(r.objects) !== JSON.stringify(front.objects)) continue;
    if (unpinned(r.state.scene) !== unpinned(front.state.scene)) continue;
    if (answerQuestion(q.question, front.result) !== q.answer) continue;
    const reveal = revealStep(q.question.ask, front.result);
    if (front.state.step < reveal) continue;
    const shown =
      front.state.step === -1 ? 'before the first step' : `step ${front.state.step + 1}`;
    out.push({
      file: c.file,
      line: c.fieldLines.scene ?? 1,
      message: `front-matter scene "${c.scene ?? ''}" shows the answer to question ${q.question.id} (${shown}, revealed from ${reveal === -1 ? 'the start' : `step ${reveal + 1}`}): open the chapter on a neutral scene (e.g. step=0, or another scene)`,
    });
  }
  return out;
}

const STEP_WORDS = /\bstep\s+(\d+)\b/i;

/**
 * When a scene link's text names a step ("▶ step 3", "Step 6, the DNAT", "Play from step 2")
 * that the link does not show, why; else undefined. A link with `story=N` and no `step` shows
 * the story's step N; otherwise the number is the trace step (1-based) the link opens.
 */
export function stepTextMismatch(
  text: string,
  query: string,
  resolved: ResolvedScene,
): string | undefined {
  const m = STEP_WORDS.exec(text);
  if (!m) return undefined;
  const said = Number(m[1]);
  const params = new URLSearchParams(query.replace(/^scene:/, ''));
  const story = params.get('story');
  if (story !== null && params.get('step') === null)
    return Number(story) === said
      ? undefined
      : `scene link "${text}" says step ${said} but opens story step ${story}`;
  const shown = resolved.state.step + 1;
  return shown === said
    ? undefined
    : `scene link "${text}" says step ${said} but shows ${shown === 0 ? 'the scene before the first step' : `step ${shown}`} of ${resolved.result.trace.steps.length}`;
}
