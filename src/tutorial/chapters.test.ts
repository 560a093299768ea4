import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { headingsOf, loadBook, parseChapter, slugOfFile } from './chapters';

const F = 'content/chapters/07-traffic-policy.md';
const chapter = (fm: string, body = '\nText.\n') => `---\n${fm}\n---\n${body}`;
const GOOD = 'title: externalTrafficPolicy — Cluster or Local\norder: 7\nsummary: One sentence.';
const errors = (fm: string, file = F) =>
  parseChapter(file, chapter(fm)).problems.map(formatProblem);

describe('parseChapter', () => {
  it('reads the front matter and the body', () => {
    const r = parseChapter(
      F,
      chapter(
        `${GOOD}\nscene: policy=Local&step=last\ncore: true`,
        '\n# Title\n\n## Cluster and Local\n',
      ),
    );
    expect(r.problems).toEqual([]);
    expect(r.chapter).toMatchObject({
      slug: 'traffic-policy',
      order: 7,
      title: 'externalTrafficPolicy — Cluster or Local',
      summary: 'One sentence.',
      scene: 'policy=Local&step=last',
      core: true,
      body: '\n# Title\n\n## Cluster and Local\n',
      bodyLine: 8,
    });
    // Lines are file lines: the front matter takes lines 1–7, the body starts on line 8.
    expect(r.chapter?.headings).toEqual([
      { depth: 1, text: 'Title', id: 'title', line: 9 },
      { depth: 2, text: 'Cluster and Local', id: 'cluster-and-local', line: 11 },
    ]);
  });

  it('defaults core to false and leaves scene out', () => {
    const c = parseChapter(F, chapter(GOOD)).chapter;
    expect(c?.core).toBe(false);
    expect(c && 'scene' in c).toBe(false);
  });

  it('names the file, the line and the field of a bad value', () => {
    expect(errors('title: T\norder: seven\nsummary: S')).toEqual([
      'content/chapters/07-traffic-policy.md:3: order must be an integer',
    ]);
    expect(errors('title: T\norder: 7.5\nsummary: S')).toEqual([
      'content/chapters/07-traffic-policy.md:3: order must be an integer',
    ]);
    expect(errors('title: T\norder: 7\nsummary: S\ncore: yes please')).toEqual([
      'content/chapters/07-traffic-policy.md:5: core must be true or false',
    ]);
    expect(errors('title: ""\norder: 7\nsummary: S')).toEqual([
      'content/chapters/07-traffic-policy.md:2: title must be a non-empty string',
    ]);
    expect(errors('title: T\norder: 7\nsummary: [a, b]')).toEqual([
      'content/chapters/07-traffic-policy.md:4: summary must be a non-empty string',
    ]);
    expect(errors('title: T\norder: 7\nsummary: S\nscene: 3')).toEqual([
      'content/chapters/07-traffic-policy.md:5: scene must be a scene query string, e.g. policy=Local&step=last',
    ]);
  });

  it('reports missing and unknown fields', () => {
    expect(errors('title: T\nsumary: S')).toEqual([
      'content/chapters/07-traffic-policy.md:3: unknown field "sumary" (fields: title, order, summary, scene, core)',
      'content/chapters/07-traffic-policy.md:1: summary is required',
      'content/chapters/07-traffic-policy.md:1: order is required',
    ]);
  });

  it('reports YAML syntax errors on their line', () => {
    const p = errors('title: T\norder: 7\nsummary: "unclosed');
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(
      /^content\/chapters\/07-traffic-policy\.md:4: front matter is not valid YAML: /,
    );
  });

  it('reports a missing or unclosed front matter and a bad file name', () => {
    expect(parseChapter(F, '# No front matter\n').problems.map(formatProblem)).toEqual([
      'content/chapters/07-traffic-policy.md:1: missing front matter: the file must start with a line "---"',
    ]);
    expect(parseChapter(F, '---\ntitle: T\n').problems.map(formatProblem)).toEqual([
      'content/chapters/07-traffic-policy.md:1: the front matter is not closed: add a line "---" after it',
    ]);
    expect(errors(GOOD, 'content/chapters/traffic.md')).toEqual([
      'content/chapters/traffic.md:1: the file name must be NN-slug.md (digits, a dash, then lower-case words joined by dashes)',
    ]);
  });
});

describe('slugOfFile', () => {
  it('drops NN- and .md', () => {
    expect(slugOfFile('content/chapters/07-traffic-policy.md')).toBe('traffic-policy');
    expect(slugOfFile('01-why-services.md')).toBe('why-services');
    expect(slugOfFile('why-services.md')).toBeUndefined();
    expect(slugOfFile('01-Why.md')).toBeUndefined();
  });
});

describe('headingsOf', () => {
  it('gives the ids GitHub (and rehype-slug) give, duplicates numbered', () => {
    // github-slugger's rules: lower-case, punctuation dropped, spaces → dashes, repeats get -1, -2.
    const h = headingsOf(
      '## Cluster and Local\n\n## Cluster and Local\n\n### `ipMode`: VIP *and* Proxy\n\n## When there is no NodePort: allocateLoadBalancerNodePorts: false\n',
    );
    expect(h.map((x) => x.id)).toEqual([
      'cluster-and-local',
      'cluster-and-local-1',
      'ipmode-vip-and-proxy',
      'when-there-is-no-nodeport-allocateloadbalancernodeports-false',
    ]);
    expect(h[2]?.text).toBe('ipMode: VIP and Proxy');
  });

  it('ignores # lines inside code blocks', () => {
    expect(headingsOf('```bash\n# not a heading\n```\n\n## Real\n')).toEqual([
      { depth: 2, text: 'Real', id: 'real', line: 5 },
    ]);
  });
});

describe('loadBook', () => {
  const fm = (order: number, title = 'T') =>
    chapter(`title: ${title}\norder: ${order}\nsummary: S`);
  it('sorts by order and ignores files that are not .md', () => {
    const b = loadBook({
      'content/chapters/02-b.md': fm(1),
      'content/chapters/01-a.md': fm(2),
      'content/chapters/notes.txt': 'x',
    });
    expect(b.problems).toEqual([]);
    expect(b.chapters.map((c) => c.slug)).toEqual(['b', 'a']);
  });

  it('reports duplicate orders and slugs against the first file', () => {
    const b = loadBook({
      'content/chapters/01-a.md': fm(1),
      'content/chapters/02-a.md': fm(2),
      'content/chapters/03-c.md': fm(1),
    });
    expect(b.problems.map(formatProblem)).toEqual([
      'content/chapters/02-a.md:1: slug "a" is already used by content/chapters/01-a.md',
      'content/chapters/03-c.md:3: order 1 is already used by content/chapters/01-a.md',
    ]);
  });
});
