/**
 * Chapters: `content/chapters/NN-slug.md` files, each with YAML front matter (content/AUTHORING.md,
 * "Front matter") and a GitHub-flavoured Markdown body.
 */
import GithubSlugger from 'github-slugger';
import { toString } from 'mdast-util-to-string';
import type { Problem } from './problem';
import { sortProblems } from './problem';
import { parseMarkdown, walk } from './markdown';
import { isRecord, parseYaml } from './yamlLines';

/** A heading of a chapter's body. */
export interface Heading {
  /** 1–6 (`#` … `######`). */
  depth: number;
  /** The heading's plain text (inline code and emphasis reduced to their text). */
  text: string;
  /**
   * The GitHub-style id (github-slugger, one slugger per chapter, duplicates get `-1`, `-2`):
   * the id rehype-slug gives the rendered heading, so `#/learn/<slug>/<id>` reaches it.
   */
  id: string;
  /** 1-based line in the chapter file. */
  line: number;
}

/** One parsed chapter. */
export interface Chapter {
  /** The file's path as given, e.g. `content/chapters/07-traffic-policy.md`. */
  file: string;
  /** The file name without `NN-` and `.md`: the chapter's deep link is `#/learn/<slug>`. */
  slug: string;
  /** `order` from the front matter: the reading order (an integer, unique in the book). */
  order: number;
  title: string;
  /** One sentence for the table of contents. */
  summary: string;
  /** The scene query (after `scene:`) the visualiser opens with, if any (not yet validated). */
  scene?: string;
  /** Whether the chapter is core (it must end with a "Check yourself" question). */
  core: boolean;
  /** The Markdown after the front matter. */
  body: string;
  /** 1-based line of the file on which `body` starts (add `line - 1` to a body line). */
  bodyLine: number;
  headings: Heading[];
  /** 1-based line of each front-matter field, for messages about its value. */
  fieldLines: Record<string, number>;
}

/** The result of parsing one chapter: the chapter when it could be read, and its problems. */
export interface ChapterResult {
  chapter?: Chapter;
  problems: Problem[];
}

const FIELDS = ['title', 'order', 'summary', 'scene', 'core'] as const;
const FILE_NAME = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** The chapter's slug from its file name (`07-traffic-policy.md` → `traffic-policy`), or undefined. */
export function slugOfFile(fileName: string): string | undefined {
  const base = fileName.split('/').pop() ?? fileName;
  return FILE_NAME.exec(base)?.[2];
}

/** The headings of a Markdown body with their GitHub-style ids. `lineOffset` is added to lines. */
export function headingsOf(body: string, lineOffset = 0): Heading[] {
  const slugger = new GithubSlugger();
  const out: Heading[] = [];
  walk(parseMarkdown(body), (n) => {
    if (n.type !== 'heading') return;
    const text = toString(n, { includeImageAlt: false });
    out.push({
      depth: n.depth,
      text,
      id: slugger.slug(text),
      line: (n.position?.start.line ?? 1) + lineOffset,
    });
  });
  return out;
}

/**
 * Parses a chapter file. Problems name the file, the field and the line, e.g.
 * `content/chapters/07-traffic-policy.md:3: order must be an integer`. Never throws.
 */
export function parseChapter(fileName: string, text: string): ChapterResult {
  const problems: Problem[] = [];
  const at = (line: number, message: string) => problems.push({ file: fileName, line, message });
  const slug = slugOfFile(fileName);
  if (slug === undefined)
    at(
      1,
      'the file name must be NN-slug.md (digits, a dash, then lower-case words joined by dashes)',
    );
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    at(1, 'missing front matter: the file must start with a line "---"');
    return { problems };
  }
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (close < 0) {
    at(1, 'the front matter is not closed: add a line "---" after it');
    return { problems };
  }
  const yaml = parseYaml(lines.slice(1, close).join('\n'));
  const fileLine = (yamlLine: number) => yamlLine + 1;
  for (const e of yaml.errors) at(fileLine(e.line), `front matter is not valid YAML: ${e.message}`);
  if (yaml.errors.length > 0) return { problems };
  const fm = yaml.data;
  if (!isRecord(fm)) {
    at(1, 'the front matter must be a mapping of fields (title, order, summary, …)');
    return { problems };
  }
  const fieldLines: Record<string, number> = {};
  for (const key of Object.keys(fm)) {
    fieldLines[key] = fileLine(yaml.lineOf([key]));
    if (!(FIELDS as readonly string[]).includes(key))
      at(fieldLines[key], `unknown field "${key}" (fields: ${FIELDS.join(', ')})`);
  }
  const lineOf = (key: string) => fieldLines[key] ?? 1;
  const text_ = (key: 'title' | 'summary'): string | undefined => {
    const v = fm[key];
    if (v === undefined || v === null) at(1, `${key} is required`);
    else if (typeof v !== 'string' || v.trim() === '')
      at(lineOf(key), `${key} must be a non-empty string`);
    else return v.trim();
    return undefined;
  };
  const title = text_('title');
  const summary = text_('summary');
  let order: number | undefined;
  if (fm.order === undefined || fm.order === null) at(1, 'order is required');
  else if (typeof fm.order !== 'number' || !Number.isSafeInteger(fm.order))
    at(lineOf('order'), 'order must be an integer');
  else order = fm.order;
  let scene: string | undefined;
  if (fm.scene !== undefined) {
    if (typeof fm.scene !== 'string' || fm.scene.trim() === '')
      at(lineOf('scene'), 'scene must be a scene query string, e.g. policy=Local&step=last');
    else scene = fm.scene.trim().replace(/^scene:/, '');
  }
  let core = false;
  if (fm.core !== undefined) {
    if (typeof fm.core !== 'boolean') at(lineOf('core'), 'core must be true or false');
    else core = fm.core;
  }
  const bodyLine = close + 2;
  const body = lines.slice(close + 1).join('\n');
  if (slug === undefined || title === undefined || summary === undefined || order === undefined)
    return { problems };
  return {
    chapter: {
      file: fileName,
      slug,
      order,
      title,
      summary,
      ...(scene !== undefined ? { scene } : {}),
      core,
      body,
      bodyLine,
      headings: headingsOf(body, bodyLine - 1),
      fieldLines,
    },
    problems,
  };
}

/** The whole book: chapters in reading order and every problem found reading them. */
export interface Book {
  chapters: Chapter[];
  problems: Problem[];
}

/**
 * Parses every chapter file (`files`: path → text; paths not ending in `.md` are ignored) and
 * checks the book as a whole: `order` and slugs unique. Chapters are sorted by `order`, then
 * by path. Never throws.
 */
export function loadBook(files: Readonly<Record<string, string>>): Book {
  const problems: Problem[] = [];
  const chapters: Chapter[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (!file.endsWith('.md')) continue;
    const r = parseChapter(file, text);
    problems.push(...r.problems);
    if (r.chapter) chapters.push(r.chapter);
  }
  chapters.sort((a, b) => a.order - b.order || (a.file < b.file ? -1 : 1));
  const byOrder = new Map<number, Chapter>();
  const bySlug = new Map<string, Chapter>();
  for (const c of chapters) {
    const o = byOrder.get(c.order);
    if (o)
      problems.push({
        file: c.file,
        line: c.fieldLines.order ?? 1,
        message: `order ${c.order} is already used by ${o.file}`,
      });
    else byOrder.set(c.order, c);
    const s = bySlug.get(c.slug);
    if (s)
      problems.push({
        file: c.file,
        line: 1,
        message: `slug "${c.slug}" is already used by ${s.file}`,
      });
    else bySlug.set(c.slug, c);
  }
  return { chapters, problems: sortProblems(problems) };
}
