/**
 * The tutorial's special Markdown, found in a chapter body by parsing it (unified +
 * remark-parse + remark-gfm), never by pattern matching: scene links, time links, and fenced
 * `scene`, `question` and `mermaid` blocks (content/AUTHORING.md).
 */
import { toString } from 'mdast-util-to-string';
import { parseMarkdown, walk } from './markdown';
import { isRecord, parseYaml } from './yamlLines';

/** A link (or link reference definition) whose target starts with `scene:`. */
export interface SceneLinkRef {
  /** The target as written, e.g. `scene:policy=Local&step=last`. */
  url: string;
  /** The part after `scene:`. */
  query: string;
  /** The link's text (empty for a definition). */
  text: string;
  /** 1-based line in the chapter file. */
  line: number;
}

/**
 * A link (or link reference definition) whose target starts with `time:`: the same shape as a
 * scene link, `query` being the part after `time:`.
 */
export type TimeLinkRef = SceneLinkRef;

/** A fenced block whose YAML was read, with the line of each of its fields. */
export interface YamlBlock {
  /** 1-based line of the opening fence in the chapter file. */
  line: number;
  /** The block's text. */
  raw: string;
  /** The parsed YAML (undefined when it is not valid YAML). */
  data: unknown;
  /** YAML syntax problems, with file lines. */
  yamlErrors: { line: number; message: string }[];
  /** The file line of a top-level field (the fence's next line when absent). */
  fieldLine(field: string): number;
}

/** A fenced `mermaid` block. */
export interface MermaidBlock {
  line: number;
  code: string;
}

/** Everything special in one chapter body. */
export interface ChapterBlocks {
  sceneLinks: SceneLinkRef[];
  /** Links that open the "Time & failures" view (`time:`). */
  timeLinks: TimeLinkRef[];
  /** Fenced `scene` blocks (`scene:`, `caption:`). */
  sceneBlocks: YamlBlock[];
  /** Fenced `question` blocks. */
  questions: YamlBlock[];
  mermaid: MermaidBlock[];
}

function yamlBlock(raw: string, fenceLine: number): YamlBlock {
  const y = parseYaml(raw);
  const toFile = (l: number) => fenceLine + l;
  return {
    line: fenceLine,
    raw,
    data: y.data,
    yamlErrors: y.errors.map((e) => ({ line: toFile(e.line), message: e.message })),
    fieldLine: (field) =>
      isRecord(y.data) && field in y.data ? toFile(y.lineOf([field])) : fenceLine + 1,
  };
}

/**
 * Lists the scene links, the time links and the `scene`, `question` and `mermaid` blocks of a chapter body.
 * `bodyLine` is the file line the body starts on (1 for a whole file), so lines are file lines.
 */
export function extractBlocks(body: string, bodyLine = 1): ChapterBlocks {
  const out: ChapterBlocks = {
    sceneLinks: [],
    timeLinks: [],
    sceneBlocks: [],
    questions: [],
    mermaid: [],
  };
  const fileLine = (l: number | undefined) => (l ?? 1) + bodyLine - 1;
  walk(parseMarkdown(body), (n) => {
    if ((n.type === 'link' || n.type === 'definition') && n.url.startsWith('scene:')) {
      out.sceneLinks.push({
        url: n.url,
        query: n.url.slice('scene:'.length),
        text: n.type === 'link' ? toString(n) : '',
        line: fileLine(n.position?.start.line),
      });
    } else if ((n.type === 'link' || n.type === 'definition') && n.url.startsWith('time:')) {
      out.timeLinks.push({
        url: n.url,
        query: n.url.slice('time:'.length),
        text: n.type === 'link' ? toString(n) : '',
        line: fileLine(n.position?.start.line),
      });
    } else if (n.type === 'code') {
      const line = fileLine(n.position?.start.line);
      if (n.lang === 'scene') out.sceneBlocks.push(yamlBlock(n.value, line));
      else if (n.lang === 'question') out.questions.push(yamlBlock(n.value, line));
      else if (n.lang === 'mermaid') out.mermaid.push({ line, code: n.value });
    }
  });
  return out;
}

/**
 * Whether a mermaid diagram carries its text alternative: an `accTitle:` line and an
 * `accDescr:` line (or an `accDescr { … }` block), mermaid's accessibility keywords.
 * @returns the missing keywords (empty when both are there).
 */
export function missingAccessibility(code: string): ('accTitle' | 'accDescr')[] {
  const lines = code.split('\n').map((l) => l.trim());
  const missing: ('accTitle' | 'accDescr')[] = [];
  if (!lines.some((l) => /^accTitle\s*:\s*\S/.test(l))) missing.push('accTitle');
  if (!lines.some((l) => /^accDescr\s*(:\s*\S|\{)/.test(l))) missing.push('accDescr');
  return missing;
}
