/**
 * Talks (content/AUTHORING.md, "Talks"): every file in content/talks parses with no problem and
 * every beat resolves against the model with the tutorial's own resolvers; the three required
 * talks say what the model shows; the parser names the line and the field of each mistake; a
 * chapter becomes a talk with one beat per link, in reading order.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractBlocks } from './blocks';
import { parseChapter } from './chapters';
import { diskScenarioLoader } from './node';
import { resolveSceneQuery } from './sceneResolve';
import type { ResolvedScene } from './sceneResolve';
import { resolveTimeQuery } from './timeResolve';
import type { ResolvedTime } from './timeResolve';
import {
  countSentences,
  expandTalk,
  MAX_CAPTION,
  parseTalk,
  stepCaption,
  talkFromChapter,
} from './talks';
import type { Talk, TalkBeat } from './talks';

const root = process.cwd();
const loadScenario = diskScenarioLoader(root);
const dir = join(root, 'content', 'talks');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];

/** The narration of every step of the trace `query` shows, or why it does not resolve. */
const narrationFor = (query: string) => {
  const r = resolveSceneQuery(query, { loadScenario });
  return r.ok
    ? r.scene.result.trace.steps.map((s) => s.narration)
    : r.errors.map((e) => e.message).join('; ');
};

type Resolved = { kind: 'scene'; scene: ResolvedScene } | { kind: 'time'; time: ResolvedTime };

/** A beat resolved as the tutorial resolves a link, or its problems. */
function resolveBeat(beat: TalkBeat): Resolved | string {
  if (beat.show.kind === 'scene') {
    const r = resolveSceneQuery(beat.show.query, { loadScenario });
    return r.ok ? { kind: 'scene', scene: r.scene } : r.errors.map((e) => e.message).join('; ');
  }
  const r = resolveTimeQuery(beat.show.query, { loadScenario });
  return r.ok ? { kind: 'time', time: r.time } : r.errors.map((e) => e.message).join('; ');
}

const talks = new Map<string, { written: Talk; expanded: Talk }>();
for (const f of files) {
  const r = parseTalk(f.slice(0, -3), readFileSync(join(dir, f), 'utf8'));
  if (!r.ok) continue;
  const e = expandTalk(r.talk, narrationFor);
  if (e.ok) talks.set(r.talk.id, { written: r.talk, expanded: e.talk });
}

describe('talks in content/talks', () => {
  it('has the three required talks', () => {
    expect(files.sort()).toEqual(
      expect.arrayContaining([
        'cluster-vs-local.md',
        'node-failure-over-time.md',
        'nodeport-to-loadbalancer.md',
      ]),
    );
  });

  for (const f of files)
    describe(f, () => {
      const text = readFileSync(join(dir, f), 'utf8');
      const parsed = parseTalk(f.slice(0, -3), text);

      it('parses with no problem', () => {
        expect(parsed.ok ? [] : parsed.problems.map((p) => `${f}:${p.line}: ${p.message}`)).toEqual(
          [],
        );
      });

      it('has 6–12 beats, each with a caption within limits and speaker notes', () => {
        const talk = talks.get(f.slice(0, -3));
        expect(talk).toBeDefined();
        if (!talk) return;
        expect(talk.written.beats.length).toBeGreaterThanOrEqual(6);
        expect(talk.written.beats.length).toBeLessThanOrEqual(12);
        expect(talk.written.durationMs).toBeGreaterThan(0);
        for (const b of talk.written.beats)
          expect(b.notes.length, `${f}:${b.line}: notes`).toBeGreaterThan(40);
        for (const b of talk.expanded.beats) {
          expect(b.caption, `${f}:${b.line}`).not.toBe('');
          expect(b.caption.length, `${f}:${b.line}`).toBeLessThanOrEqual(MAX_CAPTION);
          expect(countSentences(b.caption), `${f}:${b.line}: ${b.caption}`).toBeLessThanOrEqual(2);
        }
      });

      it('every beat resolves with the tutorial’s resolvers', () => {
        const talk = talks.get(f.slice(0, -3));
        expect(talk).toBeDefined();
        for (const b of talk?.expanded.beats ?? []) {
          const r = resolveBeat(b);
          expect(typeof r === 'string' ? `${f}:${b.line}: ${r}` : '').toBe('');
          if (typeof r === 'string') continue;
          if (r.kind === 'scene') {
            expect(r.scene.state.step).toBeLessThan(r.scene.result.trace.steps.length);
            if (b.part) expect(r.scene.state.step).toBe(b.part.step - 1);
          } else expect(r.time.open.simMs).toBeLessThanOrEqual(r.time.horizonMs);
        }
      });
    });
});

/** The expanded beats of a required talk, resolved. */
function resolvedBeats(id: string): { beat: TalkBeat; r: Resolved }[] {
  const talk = talks.get(id);
  if (!talk) throw new Error(`talk ${id} does not parse or expand`);
  return talk.expanded.beats.map((beat) => {
    const r = resolveBeat(beat);
    if (typeof r === 'string') throw new Error(`${id}:${beat.line}: ${r}`);
    return { beat, r };
  });
}

describe('the required talks show what they say', () => {
  it('nodeport-to-loadbalancer walks story=1…5 in order, and a trace step by step', () => {
    const talk = talks.get('nodeport-to-loadbalancer')!;
    const stories = talk.written.beats.flatMap((b) => {
      const s = new URLSearchParams(b.show.query).get('story');
      return b.show.kind === 'scene' && s !== null ? [Number(s)] : [];
    });
    const firsts = [...new Set(stories)];
    expect(firsts).toEqual([1, 2, 3, 4, 5]);
    expect(stories).toEqual([...stories].sort((a, b) => a - b));
    // The story step's own beats are exactly `story=N` (its toggles and trace step).
    for (const n of [1, 2, 3, 4, 5])
      expect(talk.written.beats.some((b) => b.show.query === `story=${n}`)).toBe(true);
    const walked = talk.expanded.beats.filter((b) => b.part);
    expect(walked.map((b) => b.part!.step)).toEqual([5, 6, 7, 8, 9]);
    expect(walked[0]!.caption).toBe(
      'DNAT to 10.244.3.9:8080. KUBE-SEP-RBX5X5TOEG5GD3RO rewrites the destination to the pod’s address and target port.'.replace(
        '’',
        "'",
      ),
    );
  });

  it('cluster-vs-local: the source IP under each policy, the second hop, health checks, the drop', () => {
    const beats = resolvedBeats('cluster-vs-local');
    const scenes = beats.flatMap(({ r }) => (r.kind === 'scene' ? [r.scene] : []));
    const cluster = scenes.filter((s) => s.state.scene.externalTrafficPolicy === 'Cluster');
    const local = scenes.filter((s) => s.state.scene.externalTrafficPolicy === 'Local');
    // Under Cluster, a Pod sees node-2's address after a second hop.
    expect(
      cluster.some(
        (s) =>
          s.result.trace.steps.some((st) => st.at === 'network') &&
          s.result.trace.outcome.summary.includes('coming from 192.168.0.12'),
      ),
    ).toBe(true);
    // Under Local, the Pod sees the client itself.
    expect(local.some((s) => s.result.trace.outcome.summary.includes('198.51.100.23'))).toBe(true);
    // A direct dial to node-2's NodePort under Local is dropped.
    expect(
      local.some(
        (s) =>
          s.state.scene.dial.kind === 'NodePort' &&
          s.state.scene.dial.nodeName === 'node-2' &&
          s.result.trace.outcome.kind === 'dropped',
      ),
    ).toBe(true);
    // The health lanes under Local: node-2 never joins the rotation.
    const time = beats.flatMap(({ r }) => (r.kind === 'time' ? [r.time] : []));
    expect(time.length).toBeGreaterThan(0);
    for (const t of time) {
      expect(t.timeline.rotation.some((c) => c.node === 'node-2' && c.inRotation)).toBe(false);
      expect(t.timeline.probes.some((p) => p.node === 'node-2' && p.status === 503)).toBe(true);
    }
  });

  it('node-failure-over-time shows both windows, before and after each one closes', () => {
    const beats = resolvedBeats('node-failure-over-time');
    expect(beats.every(({ r }) => r.kind === 'time')).toBe(true);
    const cluster = beats.flatMap(({ r }) =>
      r.kind === 'time' &&
      r.time.open.view.scene.externalTrafficPolicy === 'Cluster' &&
      r.time.open.time.events.length === 1
        ? [r.time]
        : [],
    );
    const window = cluster[0]?.timeline.deadNodeWindows[0];
    expect(window?.node).toBe('node-1');
    if (!window) return;
    // The model's two windows: the balancer's (3 probes, 8 s apart) and kube-proxy's (50 s grace).
    expect(window.leftRotationAt).toBe(84_200);
    expect(window.endpointsUpdatedAt).toBe(111_000);
    const at = cluster.map((t) => t.open.simMs);
    expect(at.some((ms) => ms > window.failedAt && ms < window.leftRotationAt!)).toBe(true);
    expect(at.some((ms) => ms > window.leftRotationAt! && ms < window.endpointsUpdatedAt!)).toBe(
      true,
    );
    expect(at.some((ms) => ms > window.endpointsUpdatedAt!)).toBe(true);
    // A beat captioned "leaves the rotation" is after the balancer's window closed.
    const leaves = beats.find(({ beat }) => beat.title === 'node-1 leaves the rotation');
    expect(leaves?.r.kind === 'time' && leaves.r.time.open.simMs).toBeGreaterThan(84_200);
  });
});

describe('parseTalk', () => {
  const talk = (body: string, front = 'title: T\nsummary: S\nduration: 10m') =>
    `---\n${front}\n---\n${body}`;

  it('reads the front matter, beats, captions, notes and steps', () => {
    const r = parseTalk(
      'demo',
      talk(
        [
          'Intro for readers of the file.', // 7
          '',
          '## First beat', // 9
          '',
          'One `port` on **every** node.',
          '',
          '[▶](scene:story=1)',
          '',
          '### Notes',
          '',
          '- point at node-2', // 17
          '- ask the room',
          '',
          '## Walk it', // 20
          '',
          '[▶](scene:story=2)',
          '',
          'steps: 5-last',
          '',
          '## Later', // 26
          '',
          'Node-1 fails.',
          '',
          '[▶](time:events=fail:node-1@60s&at=85s)',
        ].join('\n'),
        'title: T\nsummary: S\nduration: 1h15m\norder: 4',
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.talk).toMatchObject({
      id: 'demo',
      title: 'T',
      summary: 'S',
      durationMs: 75 * 60_000,
      order: 4,
    });
    expect(r.talk.beats).toEqual([
      {
        title: 'First beat',
        show: { kind: 'scene', query: 'story=1' },
        caption: 'One port on every node.',
        notes: '- point at node-2\n- ask the room',
        steps: null,
        line: 9,
      },
      {
        title: 'Walk it',
        show: { kind: 'scene', query: 'story=2' },
        caption: '',
        notes: '',
        steps: { from: 5, to: 'last' },
        line: 20,
      },
      {
        title: 'Later',
        show: { kind: 'time', query: 'events=fail:node-1@60s&at=85s' },
        caption: 'Node-1 fails.',
        notes: '',
        steps: null,
        line: 26,
      },
    ]);
  });

  const problems = (text: string, id = 'demo') => {
    const r = parseTalk(id, text);
    return r.ok ? [] : r.problems.map((p) => `line ${p.line}: ${p.message}`);
  };

  it('names the line and the field of front-matter mistakes', () => {
    expect(problems('## A\n\nx.\n\n[▶](scene:story=1)')).toEqual([
      'line 1: missing front matter: the file must start with a line "---"',
    ]);
    expect(
      problems(
        talk('## A\n\nx.\n\n[▶](scene:story=1)', 'title: T\nduration: 2x\norder: 1.5\nscene: a'),
      ),
    ).toEqual([
      'line 1: summary: is required',
      'line 3: duration: "2x" is not a duration (write e.g. 20m or 1h15m)',
      'line 4: order: must be an integer',
      'line 5: unknown field "scene" (fields: title, summary, duration, order)',
    ]);
    expect(problems(talk('## A\n\nx.\n\n[▶](scene:story=1)'), 'Bad_Id')).toEqual([
      'line 1: id "Bad_Id": a talk\'s file name must be lower-case words joined by dashes, then .md',
    ]);
    expect(problems(talk('Just text.'))).toEqual([
      'line 6: the talk has no beats: write one "## Title" per beat',
    ]);
  });

  it('names the line and the beat of beat mistakes', () => {
    const text = talk(
      [
        '## Local drops it', // 6
        '',
        'A caption without a link.',
        '',
        '## Two links', // 10
        '',
        'Caption.',
        '',
        '[▶](scene:story=1)',
        '',
        '[▶](scene:story=2)', // 16
        '',
        '## Inline', // 18
        '',
        'See [this](scene:policy=Local) here.',
        '',
        '## Bad query', // 22
        '',
        'Caption.',
        '',
        '[▶](scene:policy=cluster&step=last)', // 26
        '',
        '## Too long', // 28
        '',
        `${'Word '.repeat(50).trim()}. Second. Third one.`,
        '',
        '[▶](time:at=90s)', // 32
        '',
        '## Time steps', // 34
        '',
        '[▶](time:at=90s)',
        '',
        'steps: 1-last',
        '',
        '## Step and steps', // 40
        '',
        '[▶](scene:story=1&step=3)', // 42
        '',
        'steps: 4-2', // 44
        '',
        '## A list', // 46
        '',
        '- not a caption', // 48
        '',
        '[▶](scene:story=1)',
        '',
        '### Aside', // 52
        '',
        '## Link in notes', // 54
        '',
        'Caption.',
        '',
        '[▶](scene:story=1)',
        '',
        '### Notes',
        '',
        'Also [this](time:at=1m).', // 62
      ].join('\n'),
    );
    expect(problems(text)).toEqual([
      'line 6: beat "Local drops it": no scene: or time: link (write one alone on a line, e.g. [▶](scene:story=1))',
      'line 16: beat "Two links": 2 scene:/time: links: a beat shows exactly one',
      'line 20: beat "Inline": the show link must be a paragraph of its own (not inside the caption)',
      'line 26: beat "Bad query": scene link "policy=cluster&step=last": policy=cluster: must be Cluster or Local',
      'line 28: beat "Too long": caption is 269 characters; at most 240',
      'line 28: beat "Too long": caption has 3 sentences; at most 2 (move the rest to "### Notes")',
      'line 34: beat "Time steps": steps: walks a trace, so it needs a scene: link (a time link has no steps)',
      'line 42: beat "Step and steps": a beat with steps: must not set step= in its link (steps: says which)',
      'line 44: beat "Step and steps": steps: 4-2: the last step comes before the first',
      'line 46: beat "A list": no caption: write one or two sentences above the link',
      'line 48: beat "A list": the caption must be plain paragraphs (this list belongs under "### Notes")',
      'line 52: beat "A list": "### Aside": the only sub-heading a beat may have is "### Notes"',
      'line 62: beat "Link in notes": notes must not hold scene: or time: links (the beat shows exactly one, above the notes)',
    ]);
  });

  it('does not count "e.g." or a version number as the end of a sentence', () => {
    expect(countSentences('Since 1.30, e.g. on GKE, it works. Then more.')).toBe(2);
    expect(countSentences('One! Two? Three.')).toBe(3);
    expect(countSentences('')).toBe(0);
  });
});

describe('expandTalk', () => {
  const base = (query: string, steps: TalkBeat['steps'], caption = ''): Talk => ({
    id: 't',
    title: 'T',
    summary: 'S',
    durationMs: null,
    order: null,
    beats: [{ title: 'Walk', show: { kind: 'scene', query }, caption, notes: 'n', steps, line: 7 }],
  });

  it('makes one beat per trace step, with its narration or the given caption', () => {
    const r = expandTalk(
      base('policy=Local&lbTarget=node-1', { from: 9, to: 'last' }),
      narrationFor,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.talk.beats.map((b) => [b.show.query, b.part, b.steps])).toEqual([
      ['policy=Local&lbTarget=node-1&step=9', { step: 9, index: 1, count: 3 }, null],
      ['policy=Local&lbTarget=node-1&step=10', { step: 10, index: 2, count: 3 }, null],
      ['policy=Local&lbTarget=node-1&step=11', { step: 11, index: 3, count: 3 }, null],
    ]);
    expect(r.talk.beats[1]!.caption).toBe(
      'The load balancer answers the client. The balancer sends the reply from 203.0.113.7:80, the address the client dialled: a NAT balancer is on the path both ways, so the reply comes back through it.',
    );
    const fixed = expandTalk(base('', { from: 1, to: 2 }, 'Mine.'), narrationFor);
    expect(fixed.ok && fixed.talk.beats.map((b) => [b.show.query, b.caption])).toEqual([
      ['step=1', 'Mine.'],
      ['step=2', 'Mine.'],
    ]);
  });

  it('reports a range past the trace and a query that does not resolve', () => {
    const r = expandTalk(base('policy=Local', { from: 3, to: 40 }), narrationFor);
    expect(r.ok ? [] : r.problems).toEqual([
      { line: 7, message: 'beat "Walk": steps: 3-40: the trace has 11 steps' },
    ]);
    const bad = expandTalk(base('failed=node-9', { from: 1, to: 'last' }), narrationFor);
    expect(bad.ok ? [] : bad.problems.map((p) => p.message)).toEqual([
      'beat "Walk": scene link "failed=node-9": failed=node-9: no node "node-9" in the scenario (nodes: node-1, node-2, node-3)',
    ]);
  });

  it('captions a step with its title alone when title and first sentence are too long', () => {
    expect(stepCaption({ title: 'Short', body: `${'x'.repeat(300)}.` })).toBe('Short');
    expect(stepCaption({ title: 'Short.', body: 'First one. Second one.' })).toBe(
      'Short. First one.',
    );
  });
});

describe('talkFromChapter', () => {
  const file = 'content/chapters/05-nodeport-to-loadbalancer.md';
  const chapter = parseChapter(file, readFileSync(join(root, file), 'utf8')).chapter!;
  const talk = talkFromChapter(chapter);
  const blocks = extractBlocks(chapter.body, chapter.bodyLine);

  it('has one beat per scene/time link and scene block, in reading order, after the opening scene', () => {
    const links = [
      ...blocks.sceneLinks.map((l) => ({ line: l.line, kind: 'scene', query: l.query })),
      ...blocks.timeLinks.map((l) => ({ line: l.line, kind: 'time', query: l.query })),
      ...blocks.sceneBlocks.map((b) => ({
        line: b.line,
        kind: 'scene',
        query: String((b.data as { scene: string }).scene),
      })),
    ].sort((a, b) => a.line - b.line);
    expect(talk.id).toBe('chapter:nodeport-to-loadbalancer');
    expect(talk.beats[0]).toMatchObject({
      title: chapter.title,
      show: { kind: 'scene', query: 'story=1' },
      caption: chapter.summary,
    });
    expect(talk.beats.slice(1).map((b) => ({ line: b.line, ...b.show }))).toEqual(links);
    expect(talk.beats).toHaveLength(11);
  });

  it('titles a beat with its section, captions it with the sentence around the link', () => {
    const b = talk.beats.find(
      (x) => x.show.query === 'lbTarget=node-2&endpoint=10.244.1.5:8080&step=2',
    );
    expect(b?.title).toBe('Two choices, two choosers');
    expect(b?.caption).toBe(
      'Watch a connection arrive at node-2, where crossing is the only option.',
    );
    // A link alone in its paragraph takes the prose before it; the notes are the section so far.
    const step1 = talk.beats[1]!;
    expect(step1.title).toBe('1. type: NodePort');
    expect(step1.caption).toBe(
      'No web Pod runs there, and it gets the same line as node-1 and node-3: the port belongs to the Service, so every node answers on it.',
    );
    expect(step1.notes.startsWith('**Change.** `web` starts out as `type: NodePort`.')).toBe(true);
    expect(step1.notes.endsWith('[Play from step 1](scene:story=1)')).toBe(true);
  });

  it('every beat of every chapter resolves and has a caption within limits', () => {
    const chapters = readdirSync(join(root, 'content', 'chapters')).filter((f) =>
      f.endsWith('.md'),
    );
    let beats = 0;
    for (const f of chapters) {
      const c = parseChapter(f, readFileSync(join(root, 'content', 'chapters', f), 'utf8')).chapter;
      if (!c) continue;
      for (const b of talkFromChapter(c).beats) {
        beats++;
        expect(b.caption, `${f}:${b.line}`).not.toBe('');
        expect(b.caption.length, `${f}:${b.line}`).toBeLessThanOrEqual(MAX_CAPTION);
        const r = resolveBeat(b);
        expect(typeof r === 'string' ? `${f}:${b.line}: ${r}` : '').toBe('');
      }
    }
    expect(beats).toBeGreaterThan(50);
    // Resolves every beat of the book through the model (time simulations included): 2–4 s
    // alone, past vitest's 5 s default on a loaded 2-core machine, so its budget is explicit.
  }, 30_000);
});
