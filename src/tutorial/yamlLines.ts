/**
 * YAML with line numbers: the `yaml` package's document, plus the line of any value by its
 * path, so a message can point at the exact line of a field in a content file.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node as YamlNode } from 'yaml';

/** A parsed YAML text. Lines are 1-based, relative to the YAML text itself. */
export interface YamlText {
  /** The plain value (undefined for an empty text or when there were syntax errors). */
  data: unknown;
  /** Syntax errors with their line, in the `yaml` package's words (first line only). */
  errors: { line: number; message: string }[];
  /**
   * The line of the value at `path` (map keys and sequence indexes), or of the nearest
   * ancestor that exists; for a map entry, the line of its key. 1 for the empty path.
   */
  lineOf(path: readonly (string | number)[]): number;
}

/** Parses one YAML document, keeping positions. Never throws. */
export function parseYaml(text: string): YamlText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number) => Math.max(1, lineCounter.linePos(offset).line);
  const errors = doc.errors.map((e) => ({
    line: lineAt(e.pos[0]),
    message: (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, ''),
  }));
  const lineOf = (path: readonly (string | number)[]): number => {
    let node: unknown = doc.contents;
    let line = node && (node as YamlNode).range ? lineAt((node as YamlNode).range![0]) : 1;
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg),
        );
        if (!pair) return line;
        if (isScalar(pair.key) && pair.key.range) line = lineAt(pair.key.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item: unknown = node.items[seg];
        if (!item) return line;
        const range = (item as YamlNode).range;
        if (range) line = lineAt(range[0]);
        node = item;
      } else return line;
    }
    return line;
  };
  if (errors.length > 0) return { data: undefined, errors, lineOf };
  return { data: doc.toJS() as unknown, errors, lineOf };
}

/** Whether `v` is a plain mapping (not a list, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
