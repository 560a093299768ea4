/**
 * The topics the tutorial must cover (`content/topics.yaml`): each names the chapter (by slug)
 * and the exact text of the `##`/`###` heading of the section that covers it.
 */
import type { Chapter } from './chapters';
import type { Problem } from './problem';
import { isRecord, parseYaml } from './yamlLines';

/** One topic and where it is covered. */
export interface Topic {
  id: string;
  topic: string;
  /** A chapter slug (file name without `NN-` and `.md`). */
  chapter: string;
  /** The exact text of a `##` or `###` heading in that chapter. */
  heading: string;
  /** 1-based line of the entry in topics.yaml. */
  line: number;
}

const FIELDS = ['id', 'topic', 'chapter', 'heading'] as const;

/** Reads topics.yaml: a list of `{ id, topic, chapter, heading }`, ids unique. Never throws. */
export function parseTopics(
  text: string,
  file = 'content/topics.yaml',
): { topics: Topic[]; problems: Problem[] } {
  const y = parseYaml(text);
  const problems: Problem[] = y.errors.map((e) => ({
    file,
    line: e.line,
    message: `not valid YAML: ${e.message}`,
  }));
  const topics: Topic[] = [];
  if (problems.length > 0) return { topics, problems };
  if (!Array.isArray(y.data)) {
    problems.push({
      file,
      line: 1,
      message: 'topics must be a list of { id, topic, chapter, heading }',
    });
    return { topics, problems };
  }
  const ids = new Set<string>();
  y.data.forEach((item: unknown, i) => {
    const at = (path: (string | number)[], message: string) =>
      problems.push({ file, line: y.lineOf([i, ...path]), message });
    if (!isRecord(item))
      return at([], `entry ${i + 1} must be a mapping { id, topic, chapter, heading }`);
    for (const k of Object.keys(item))
      if (!(FIELDS as readonly string[]).includes(k))
        at([k], `unknown field "${k}" (fields: ${FIELDS.join(', ')})`);
    const values: Partial<Record<(typeof FIELDS)[number], string>> = {};
    for (const k of FIELDS) {
      const v = item[k];
      if (typeof v === 'string' && v.trim() !== '') values[k] = v.trim();
      else at(v === undefined ? [] : [k], `entry ${i + 1}: ${k} must be a non-empty string`);
    }
    const { id, topic, chapter, heading } = values;
    if (id !== undefined) {
      if (ids.has(id)) at(['id'], `topic id "${id}" is used twice`);
      ids.add(id);
    }
    if (id && topic && chapter && heading)
      topics.push({ id, topic, chapter, heading, line: y.lineOf([i]) });
  });
  return { topics, problems };
}

/**
 * Checks that each topic's chapter exists and has a `##` or `###` heading whose text equals
 * `heading` exactly. Problems point at the topic's line in topics.yaml.
 */
export function checkTopics(
  topics: readonly Topic[],
  chapters: readonly Chapter[],
  file = 'content/topics.yaml',
): Problem[] {
  const problems: Problem[] = [];
  for (const t of topics) {
    const chapter = chapters.find((c) => c.slug === t.chapter);
    if (!chapter) {
      problems.push({
        file,
        line: t.line,
        message: `${t.id}: no chapter "${t.chapter}" (no content/chapters/NN-${t.chapter}.md)`,
      });
      continue;
    }
    const ok = chapter.headings.some(
      (h) => (h.depth === 2 || h.depth === 3) && h.text === t.heading,
    );
    if (!ok)
      problems.push({
        file,
        line: t.line,
        message: `${t.id}: ${chapter.file} has no ##/### heading "${t.heading}"`,
      });
  }
  return problems;
}
