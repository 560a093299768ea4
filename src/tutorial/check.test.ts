import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { checkContent, stepTextMismatch } from './check';
import { diskScenarioLoader } from './node';
import { resolveSceneQuery } from './sceneResolve';

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

describe('checkContent: a chapter that opens on a question’s answer', () => {
  const chapter = (scene: string, questionScene: string, ask: string, extra = '') =>
    [
      '---',
      'title: B',
      'order: 1',
      'summary: S',
      `scene: ${scene}`, // 5
      'core: true',
      '---',
      '',
      '## Check yourself',
      '',
      fence('question', `id: q-b\nscene: ${questionScene}\nask: ${ask}\nprompt: What?${extra}`),
    ].join('\n');
  const spoilers = (scene: string, questionScene: string, ask: string, extra = '') =>
    checkContent(
      { chapters: { 'content/chapters/01-b.md': chapter(scene, questionScene, ask, extra) } },
      { loadScenario },
    )
      .problems.filter((p) => p.check === 'spoiler' || p.check === 'question')
      .map(formatProblem);

  it('rejects the question’s own scene shown at its last step', () => {
    // Under Local, the balancer on node-3 delivers to node-3's own Pod with the client's
    // address; the front matter shows the same scene, pinned to node-1, at its last step,
    // where the outcome banner names that same source address.
    expect(
      spoilers(
        'policy=Local&lbTarget=node-1&step=last',
        'policy=Local&lbTarget=node-3',
        'sourceIP',
      ),
    ).toEqual([
      expect.stringMatching(
        /^content\/chapters\/01-b\.md:5: front-matter scene "policy=Local&lbTarget=node-1&step=last" shows the answer to question q-b \(step 11, revealed from step \d+\)/,
      ),
    ]);
  });

  it('rejects a scene with no steps: its narration states the outcome at once', () => {
    expect(spoilers('published=false', 'published=false', 'outcome')).toEqual([
      expect.stringContaining('(before the first step, revealed from the start)'),
    ]);
  });

  it('accepts the same scene before the first step, or a scene with another answer', () => {
    expect(
      spoilers('policy=Local&lbTarget=node-1&step=0', 'policy=Local&lbTarget=node-3', 'sourceIP'),
    ).toEqual([]);
    // Cluster masquerades (the Pod sees a node's address), Local does not: no spoiler.
    expect(
      spoilers('lbTarget=node-1&step=last', 'policy=Local&lbTarget=node-3', 'sourceIP'),
    ).toEqual([]);
  });

  it('reports options: that name neither an option nor a group', () => {
    expect(
      spoilers(
        'step=0',
        'lbTarget=node-2&endpoint=10.244.3.9:8080',
        'sourceIP',
        '\noptions: [nodes, gateways]',
      ),
    ).toEqual([
      expect.stringMatching(
        /^content\/chapters\/01-b\.md:\d+: question q-b: options "gateways" is neither an option \(ip:198\.51\.100\.23, .*\) nor a group \(client, nodes, bridges, balancer\)$/,
      ),
    ]);
    expect(
      spoilers(
        'step=0',
        'lbTarget=node-2&endpoint=10.244.3.9:8080',
        'sourceIP',
        '\noptions: [client]',
      ),
    ).toEqual([
      'content/chapters/01-b.md:14: question q-b: the answer ip:192.168.0.12 is not among the options (ip:198.51.100.23)',
      'content/chapters/01-b.md:16: question q-b: options leave 1 choice(s); offer at least two',
    ]);
  });
});

describe('stepTextMismatch', () => {
  const resolved = (query: string) => {
    const r = resolveSceneQuery(query, { loadScenario });
    if (!r.ok) throw new Error(query);
    return r.scene;
  };
  it('is quiet when the text names the step the link shows (trace step or story step)', () => {
    expect(
      stepTextMismatch('▶ step 3', 'lbTarget=node-1&step=3', resolved('lbTarget=node-1&step=3')),
    ).toBeUndefined();
    expect(stepTextMismatch('Play from step 2', 'story=2', resolved('story=2'))).toBeUndefined();
    expect(stepTextMismatch('See the draw', 'step=5', resolved('step=5'))).toBeUndefined();
  });
  it('says so when the number and the link disagree', () => {
    // The canonical trace, balancer on node-1, endpoint on node-3, has 15 steps (tutorial-check).
    const q = 'lbTarget=node-1&endpoint=10.244.3.9:8080&step=last';
    expect(stepTextMismatch('▶ step 13', q, resolved(q))).toBe(
      'scene link "▶ step 13" says step 13 but shows step 15 of 15',
    );
    expect(stepTextMismatch('Play from step 3', 'story=2', resolved('story=2'))).toBe(
      'scene link "Play from step 3" says step 3 but opens story step 2',
    );
  });
});
