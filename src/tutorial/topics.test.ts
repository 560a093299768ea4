import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { loadBook } from './chapters';
import { checkTopics, parseTopics } from './topics';
import { diskScenarioLoader, readContent } from './node';
import { checkContent } from './check';

const TOPICS = `# comment
- id: etp
  topic: externalTrafficPolicy Cluster vs Local
  chapter: traffic-policy
  heading: Cluster and Local
- id: hc
  topic: healthCheckNodePort
  chapter: traffic-policy
  heading: healthCheckNodePort
- id: tls
  topic: TLS
  chapter: tls
  heading: Where TLS ends
`;

describe('parseTopics / checkTopics', () => {
  it('reads topics and checks chapter and ##/### heading text exactly', () => {
    const t = parseTopics(TOPICS);
    expect(t.problems).toEqual([]);
    expect(t.topics.map((x) => [x.id, x.line])).toEqual([
      ['etp', 2],
      ['hc', 6],
      ['tls', 10],
    ]);
    const book = loadBook({
      'content/chapters/07-traffic-policy.md':
        '---\ntitle: T\norder: 7\nsummary: S\n---\n\n## Cluster and Local\n\n#### healthCheckNodePort\n',
    });
    expect(checkTopics(t.topics, book.chapters).map(formatProblem)).toEqual([
      'content/topics.yaml:6: hc: content/chapters/07-traffic-policy.md has no ##/### heading "healthCheckNodePort"',
      'content/topics.yaml:10: tls: no chapter "tls" (no content/chapters/NN-tls.md)',
    ]);
  });

  it('reports bad entries with their lines', () => {
    const t = parseTopics(
      '- id: a\n  topic: A\n  chapter: c\n- id: a\n  topic: B\n  chapter: c\n  heading: H\n  extra: 1\n',
    );
    expect(t.problems.map(formatProblem)).toEqual([
      'content/topics.yaml:1: entry 1: heading must be a non-empty string',
      'content/topics.yaml:8: unknown field "extra" (fields: id, topic, chapter, heading)',
      'content/topics.yaml:4: topic id "a" is used twice',
    ]);
  });
});

// The real content: every topic in content/topics.yaml is covered by the section it names.
describe('content/topics.yaml', () => {
  const report = checkContent(readContent(process.cwd()), {
    loadScenario: diskScenarioLoader(process.cwd()),
  });
  it('every topic is covered by its chapter and heading', () => {
    expect(report.problems.filter((p) => p.check === 'topics').map(formatProblem)).toEqual([]);
  });
});
