import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { checkContent } from './check';
import { diskScenarioLoader } from './node';

const loadScenario = diskScenarioLoader(process.cwd());
const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;
const FILE = 'content/chapters/01-a.md';

const A = [
  '---', // 1
  'title: A',
  'order: 1',
  'summary: S',
  'scene: policy=Loca', // 5
  'core: true',
  '---',
  '',
  'Go [there](scene:step=99).', // 9
  '',
  fence('scene', 'scene: step=last'), // 11–13
  '',
  fence('mermaid', 'flowchart LR\n  A --> B'), // 15–18
  '',
  '## Check yourself', // 20
  '',
  'No question here.',
  '',
  '## Next',
  '',
  fence('question', 'id: q-random\nscene: lbTarget=node-1\nask: pod\nprompt: Which Pod?'), // 26–31
  '',
  fence('question', 'id: q-random\nscene: published=false\nask: sourceIP\nprompt: Which address?'), // 33–38
].join('\n');

describe('checkContent', () => {
  const report = checkContent(
    {
      chapters: { [FILE]: A },
      glossary: { file: 'content/glossary.yaml', text: '- term: Pod\n  definition: D\n' },
      topics: {
        file: 'content/topics.yaml',
        text: '- id: t\n  topic: T\n  chapter: a\n  heading: Check yourself\n',
      },
    },
    { loadScenario },
  );

  it('reports every problem with file, line and the check that found it', () => {
    const seedProblem = report.problems.find((p) => p.message.includes('depends on the seed'));
    const others = report.problems.filter((p) => p !== seedProblem);
    expect(others.map((p) => `${p.check} ${formatProblem(p)}`)).toEqual([
      'scene content/chapters/01-a.md:5: scene front matter "policy=Loca": policy=Loca: must be Cluster or Local',
      'scene content/chapters/01-a.md:9: scene link "step=99": step=99: the trace has 12 steps (use 1–12, last, or 0 for before the first step)',
      'scene content/chapters/01-a.md:12: scene block: caption is required (a sentence that says in words what the scene shows)',
      'mermaid content/chapters/01-a.md:15: mermaid diagram without accTitle and accDescr: add "accTitle: …" and "accDescr: …" lines',
      'check-yourself content/chapters/01-a.md:20: "## Check yourself" holds no question block',
      'question content/chapters/01-a.md:34: question id "q-random" is already used at content/chapters/01-a.md:27',
      'question content/chapters/01-a.md:36: question q-random: ask sourceIP does not apply, the connection is not delivered (No address to dial yet: EXTERNAL-IP <pending>.); ask outcome instead',
    ]);
  });

  it('reports a question whose answer depends on the seed, on its scene line', () => {
    // Under Cluster, kube-proxy on node-1 picks either endpoint at random (statistic match):
    // over 16 seeds both Pods come up, so the message names both with their seeds.
    const p = report.problems.find((x) => x.message.includes('depends on the seed'));
    expect(p && formatProblem(p)).toMatch(
      /^content\/chapters\/01-a\.md:28: question q-random: the answer depends on the seed \(pod:default\/web-6d8f9c7b5-(x2k4p|q7m9z) with seeds [\d, ]+; pod:default\/web-6d8f9c7b5-(x2k4p|q7m9z) with seeds [\d, ]+\); pin lbTarget and\/or endpoint$/,
    );
  });

  it('lists the scenes and questions it found, with the computed answers', () => {
    expect(report.scenes.map((s) => [s.line, s.kind, s.resolved !== undefined])).toEqual([
      [5, 'front matter', false],
      [9, 'link', false],
    ]);
    expect(report.questions.map((q) => [q.line, q.question.id])).toEqual([
      [26, 'q-random'],
      [33, 'q-random'],
    ]);
    // Seed 1's draw: one of the two Pods behind Service web (which one is the RNG's business).
    expect(['pod:default/web-6d8f9c7b5-x2k4p', 'pod:default/web-6d8f9c7b5-q7m9z']).toContain(
      report.questions[0]?.answer,
    );
    expect(report.questions[0]?.options.map((o) => o.id)).toEqual([
      'pod:default/web-6d8f9c7b5-x2k4p',
      'pod:default/web-6d8f9c7b5-q7m9z',
      'none',
    ]);
    // Nothing to dial: a question about the source address has no answer.
    expect(report.questions[1]?.answer).toBeNull();
  });

  it('checks the glossary and the topics alongside', () => {
    expect(report.glossary.map((g) => g.id)).toEqual(['pod']);
    expect(report.topics.map((t) => t.id)).toEqual(['t']);
    const missing = checkContent({ chapters: {} });
    expect(missing.problems.map(formatProblem)).toEqual([
      'content/glossary.yaml:1: the glossary file is missing',
      'content/topics.yaml:1: the topics file is missing',
    ]);
  });
});
