/**
 * Time links in the content: every `time:` link in content/chapters resolves (content/AUTHORING.md,
 * "Time links": a bad one fails the tests), and checkContent reports a bad one with its file,
 * line, key and value.
 */
import { describe, expect, it } from 'vitest';
import { checkContent } from './check';
import { diskScenarioLoader, readContent } from './node';
import { formatProblem } from './problem';

const root = process.cwd();
const loadScenario = diskScenarioLoader(root);
const files = readContent(root);
const report = checkContent(files, { loadScenario });

describe('time links in content/chapters', () => {
  for (const file of Object.keys(files.chapters))
    it(`${file}: every time link resolves`, () => {
      const problems = report.problems.filter((p) => p.check === 'time' && p.file === file);
      expect(problems.map(formatProblem)).toEqual([]);
      for (const t of report.times.filter((x) => x.file === file)) {
        expect(t.resolved, `${file}:${t.line}`).toBeDefined();
        expect(t.text, `${file}:${t.line}: a time link needs text`).not.toBe('');
        if (t.resolved) expect(t.resolved.open.simMs).toBeLessThanOrEqual(t.resolved.horizonMs);
      }
    });
});

describe('checkContent and time links', () => {
  const FILE = 'content/chapters/01-a.md';
  const chapter = [
    '---', // 1
    'title: A',
    'order: 1',
    'summary: S',
    '---', // 5
    '',
    'Fine: [watch](time:events=fail:node-1@60s&at=90s).', // 7
    '',
    'Bad: [this](time:events=fail:node-7@60s&at=90s) and [that](time:at=1h&controller=aws).', // 9
  ].join('\n');
  const r = checkContent({ chapters: { [FILE]: chapter } }, { loadScenario });

  it('reports each problem with the file, the line, the key and the value', () => {
    expect(r.problems.filter((p) => p.check === 'time').map(formatProblem)).toEqual([
      `${FILE}:9: time link "events=fail:node-7@60s&at=90s": events: fail:node-7@1m: no node "node-7" in the scenario (nodes: node-1, node-2, node-3)`,
      `${FILE}:9: time link "at=1h&controller=aws": controller=aws: must be cloud, none or metallb-l2`,
    ]);
  });

  it('lists every time link, resolved or not', () => {
    expect(r.times.map((t) => [t.line, t.text, t.resolved !== undefined])).toEqual([
      [7, 'watch', true],
      [9, 'this', false],
      [9, 'that', false],
    ]);
  });

  it('an `at` past the end of the run is reported once the link is otherwise right', () => {
    const late = checkContent(
      { chapters: { [FILE]: chapter.split('\n').slice(0, 6).join('\n') + '\n[x](time:at=1h)' } },
      { loadScenario },
    );
    // No events: the run ends when the workload does, 41 s + 60 s = 1 m 41 s.
    expect(late.problems.filter((p) => p.check === 'time').map((p) => p.message)).toEqual([
      'time link "at=1h": at=1h: beyond the end of the run (1m41s); use at most 1m41s',
    ]);
  });
});
