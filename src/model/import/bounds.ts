/**
 * The bounds every input is held to before it is parsed (issue 14 point 8, issue 15 point 10):
 * a text too large, or nested too deeply, gets one clear problem at its line instead of being
 * handed to the YAML parser, whose recursion (and ours, over the parsed values) would overflow
 * the stack — in Node that can be a fatal V8 error no `catch` sees.
 *
 * The nesting scan reads the text once, without parsing it: block nesting by indentation (and
 * compact `- - x` / `? ? x` entries), flow nesting by `[` and `{`, skipping quoted scalars,
 * comments and the content of block scalars (`|`, `>`). It errs towards counting less than
 * the parser would, never more, so no manifest a cluster can hold is refused: real objects
 * nest about 10 levels (a CRD's openAPIV3Schema, the deepest in common use, about 30).
 *
 * The wording is ours (the API server never sees such a text; kubectl's YAML reader,
 * go-yaml, stops at 10,000 levels with "exceeded max depth").
 */

/** The most characters one input may hold: 10,000,000 (about 10 MB of ASCII). */
export const MAX_INPUT_CHARS = 10_000_000;

/** The deepest nesting accepted, in levels (a mapping or a list inside another is one level). */
export const MAX_NESTING = 100;

/** Why a text is not parsed, and where. `line`/`column` are 1-based. */
export interface OutOfBounds {
  message: string;
  line: number;
  column: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The block-scalar header at the end of a line (`key: |`, `- >-`, `|2+`), after a comment is cut. */
const BLOCK_SCALAR = /(?:^|[\s:-])[|>][-+0-9]*\s*$/;

interface ScanState {
  /** Indentations of the open block collections. */
  indents: number[];
  /** Open `[` / `{`. */
  flow: number;
  /** Inside a quoted scalar that continues on the next line. */
  quote: '' | '"' | "'";
  /** Inside a block scalar's content: lines indented more than this are text. */
  blockScalarIndent: number;
}

/**
 * Scans one line, updating `s`; returns the column (0-based) where the nesting first passes
 * {@link MAX_NESTING}, or -1.
 */
function scanLine(line: string, s: ScanState): number {
  let i = 0;
  if (s.quote === '' && s.flow === 0) {
    while (i < line.length && line[i] === ' ') i++;
    const rest = line.slice(i);
    if (s.blockScalarIndent >= 0) {
      if (rest === '' || i > s.blockScalarIndent) return -1;
      s.blockScalarIndent = -1;
    }
    if (rest === '' || rest.startsWith('#')) return -1;
    if (i === 0 && /^(?:---|\.\.\.)(?:\s|$)/.test(rest)) {
      s.indents = [];
      return -1;
    }
    while (s.indents.length > 0 && (s.indents.at(-1) ?? 0) >= i) s.indents.pop();
    s.indents.push(i);
    // Compact nested entries on one line: `- - x`, `? - x`: each indicator opens a level.
    while (/^[-?](?: |$)/.test(line.slice(i, i + 2))) {
      i += 2;
      while (i < line.length && line[i] === ' ') i++;
      s.indents.push(i);
      if (s.indents.length > MAX_NESTING) return i;
    }
    if (s.indents.length > MAX_NESTING) return i;
  }
  let valueStart = true;
  for (; i < line.length; i++) {
    const ch = line[i];
    if (s.quote !== '') {
      if (ch === '\\' && s.quote === '"') i++;
      else if (ch === s.quote) {
        if (s.quote === "'" && line[i + 1] === "'") i++;
        else s.quote = '';
      }
      continue;
    }
    if (ch === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) break;
    if ((ch === '"' || ch === "'") && (valueStart || s.flow > 0)) {
      s.quote = ch;
      continue;
    }
    if ((ch === '[' || ch === '{') && (valueStart || s.flow > 0)) {
      s.flow++;
      if (s.indents.length + s.flow > MAX_NESTING) return i;
      valueStart = true;
      continue;
    }
    if ((ch === ']' || ch === '}') && s.flow > 0) s.flow--;
    if (ch === ' ' || ch === '\t') continue;
    // A value starts after `: `, `- `, `, ` and the openers; anything else is inside a scalar.
    const spaced = (line[i + 1] ?? ' ') === ' ';
    valueStart = ch === ',' || ((ch === ':' || ch === '-' || ch === '?') && spaced);
  }
  if (s.quote === '' && s.flow === 0) {
    const code = line.replace(/(^|\s)#.*$/, '');
    if (BLOCK_SCALAR.test(code)) s.blockScalarIndent = s.indents.at(-1) ?? 0;
  }
  return -1;
}

/**
 * Where `text` passes {@link MAX_NESTING} levels, or undefined when it does not. Linear in the
 * text's length; never throws.
 */
export function nestingTooDeep(text: string): { line: number; column: number } | undefined {
  const s: ScanState = { indents: [], flow: 0, quote: '', blockScalarIndent: -1 };
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const col = scanLine(lines[n] ?? '', s);
    if (col >= 0) return { line: n + 1, column: col + 1 };
  }
  return undefined;
}

/**
 * The first bound `text` breaks, or undefined when it may be parsed: over
 * {@link MAX_INPUT_CHARS} characters (at line 1), or nested past {@link MAX_NESTING} levels
 * (at the opening that goes past). Never throws.
 */
export function outOfBounds(text: string): OutOfBounds | undefined {
  if (text.length > MAX_INPUT_CHARS)
    return {
      line: 1,
      column: 1,
      message: `the text is ${fmt(text.length)} characters, over the limit of ${fmt(MAX_INPUT_CHARS)}, so it was not read: split it into several files`,
    };
  const deep = nestingTooDeep(text);
  if (deep)
    return {
      ...deep,
      message: `line ${deep.line}, column ${deep.column}: nested more than ${MAX_NESTING} levels deep, so the text was not read (Kubernetes objects nest about 10 levels; this is not a manifest)`,
    };
  return undefined;
}

/**
 * What an already parsed value breaks, when aliases (`*a`) expand it past what the text
 * shows: `cycle` for an anchor whose value holds itself (`&a {x: *a}`: go-yaml refuses it with
 * "anchor 'a' value contains itself"), `deep` for nesting past 2 × {@link MAX_NESTING} levels
 * (aliases of deep anchors inside each other). Iterative, so it cannot overflow the stack
 * itself; never throws.
 */
export function expandedOutOfBounds(value: unknown): 'cycle' | 'deep' | undefined {
  const limit = 2 * MAX_NESTING;
  // Each entry: a value, its depth, and whether its children were pushed (for the path set).
  const stack: [unknown, number, boolean][] = [[value, 0, false]];
  const onPath = new Set<unknown>();
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (!top) break;
    const [v, depth, expanded] = top;
    if (expanded || typeof v !== 'object' || v === null) {
      stack.pop();
      onPath.delete(v);
      continue;
    }
    if (onPath.has(v)) return 'cycle';
    if (depth > limit) return 'deep';
    top[2] = true;
    onPath.add(v);
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1, false]);
  }
  return undefined;
}
