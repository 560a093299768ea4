/**
 * The real content folder, as content/AUTHORING.md promises: chapters parse with unique
 * orders, questions are computed by the model and fair (same answer for every seed), core
 * chapters end with a "Check yourself" question, diagrams carry a text alternative, no chapter
 * opens on a question's answer, scene links that name a step show it, the glossary is valid. Scene links: scenes.test.ts; topics: topics.test.ts.
 * Failures name the file and line (`file:line: message`).
 */
import { describe, expect, it } from 'vitest';
import { runScene } from '../model';
import { formatProblem } from './problem';
import type { CheckKind } from './check';
import { checkContent } from './check';
import { answerQuestion, isDeterministic, questionOptions } from './questions';
import { diskScenarioLoader, readContent } from './node';

const root = process.cwd();
const files = readContent(root);
const loadScenario = diskScenarioLoader(root);
const report = checkContent(files, { loadScenario });
const problems = (check: CheckKind, file?: string) =>
  report.problems
    .filter((p) => p.check === check && (file === undefined || p.file === file))
    .map(formatProblem);

describe('content/chapters', () => {
  it('has chapters', () => {
    expect(Object.keys(files.chapters).length).toBeGreaterThan(0);
  });

  for (const file of Object.keys(files.chapters)) {
    describe(file, () => {
      it('parses (front matter, file name, unique order and slug)', () => {
        expect(problems('chapter', file)).toEqual([]);
      });
      it('questions are valid, unique, computed by the model and fair', () => {
        expect(problems('question', file)).toEqual([]);
      });
      it('a core chapter has a "## Check yourself" section with a question', () => {
        expect(problems('check-yourself', file)).toEqual([]);
      });
      it('every mermaid diagram has accTitle and accDescr', () => {
        expect(problems('mermaid', file)).toEqual([]);
      });
      it('its front-matter scene does not show a question’s answer', () => {
        expect(problems('spoiler', file)).toEqual([]);
      });
      it('no scene link names another step in its text than it shows', () => {
        expect(
          report.warnings
            .filter((w) => w.file === file && w.check === 'step-text')
            .map(formatProblem),
        ).toEqual([]);
      });
    });
  }
});

describe('questions', () => {
  for (const q of report.questions)
    it(`${q.file}:${q.line}: ${q.question.id} has one answer, the model's`, () => {
      expect(q.resolved, `${q.file}:${q.line}: the scene does not resolve`).toBeDefined();
      if (!q.resolved) return;
      // Recomputed independently from the objects and the scene the link resolved to.
      const result = runScene(q.resolved.objects, q.resolved.state.scene);
      const answer = answerQuestion(q.question, result);
      expect(
        answer,
        `${q.file}:${q.line}: ${q.question.id} does not apply to its outcome`,
      ).not.toBeNull();
      expect(answer).toBe(q.answer);
      expect(questionOptions(q.question, result).map((o) => o.id)).toContain(answer);
      expect(
        isDeterministic(q.question, { loadScenario }),
        `${q.file}:${q.line}: ${q.question.id} depends on the seed`,
      ).toBe(true);
    });
});

describe('content/glossary.yaml', () => {
  it('is valid: terms and aliases unique (case-insensitive), definitions present', () => {
    expect(problems('glossary')).toEqual([]);
    expect(report.glossary.length).toBeGreaterThan(0);
  });
});
