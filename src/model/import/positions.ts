/**
 * Field path → line and column in the pasted text. Works on the `yaml` package's document
 * nodes (which keep source offsets) and a shared `LineCounter`, so it serves YAML and JSON
 * alike (JSON is YAML's flow style), several documents in one text, and the items of a
 * `kind: List`: the path is relative to the node of one object.
 */
import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';

/** One step of a field path: a map key or a list index. */
export type PathSegment = string | number;

/** A 1-based line and column in the original text. */
export interface Position {
  line: number;
  column: number;
}

/**
 * Splits a field path as apimachinery prints it (`spec.ports[0].nodePort`,
 * `endpoints[1].addresses[0]`) into keys and indices. `''` is the object itself.
 */
export function parsePath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const part of path.split('.')) {
    if (part === '') continue;
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

function deref(doc: Document, node: unknown): unknown {
  // An alias stands for its anchored node; its position is the anchor's.
  return isAlias(node) ? node.resolve(doc) : node;
}

function child(doc: Document, node: unknown, seg: PathSegment): YamlNode | undefined {
  const n = deref(doc, node);
  if (typeof seg === 'number') {
    if (!isSeq(n)) return undefined;
    const item = n.items[seg];
    return item === null || item === undefined ? undefined : (item as YamlNode);
  }
  if (!isMap(n)) return undefined;
  // The last pair wins, as in `toJS` (duplicate keys are a syntax error anyway).
  for (let i = n.items.length - 1; i >= 0; i--) {
    const pair = n.items[i]!;
    const key = deref(doc, pair.key);
    if (isScalar(key) && String(key.value) === seg) {
      // A key with no value (`nodePort:`, an empty null scalar) points at the key.
      const value = pair.value as YamlNode | null;
      const empty = !value || (isScalar(value) && value.range?.[0] === value.range?.[1]);
      return ((empty ? pair.key : value) as YamlNode | null) ?? undefined;
    }
  }
  return undefined;
}

/**
 * The node at `path` below `root`, or the deepest existing ancestor when the path leads to a
 * field that is absent (a `Required value` points at the object or list item that lacks it).
 */
export function nodeAt(
  doc: Document,
  root: YamlNode,
  path: string,
): { node: YamlNode; exact: boolean } {
  let node = root;
  for (const seg of parsePath(path)) {
    const next = child(doc, node, seg);
    if (!next) return { node, exact: false };
    node = next;
  }
  return { node, exact: true };
}

/** Where the value at `path` (or its nearest present ancestor) starts, 1-based. */
export function positionOf(
  doc: Document,
  root: YamlNode,
  path: string,
  lineCounter: LineCounter,
): Position | undefined {
  const { node } = nodeAt(doc, root, path);
  const offset = node.range?.[0];
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}
