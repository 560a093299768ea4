/**
 * validateText never throws and always answers with objects and well-formed problems, for
 * random text and for random mutations of the shipped canonical manifest (lines deleted,
 * duplicated, swapped, re-indented, numbers and values changed) in YAML and in JSON.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { validateText } from './validate';

const CANONICAL = readFileSync('public/examples/canonical.yaml', 'utf8');
/** Each run parses a 240-line manifest twice; the YAML parser takes a few ms per parse. */
const SLOW = { timeout: 60_000 };

/** The invariants every answer must satisfy. */
function wellFormed(text: string): void {
  const r = validateText(text);
  expect(Array.isArray(r.objects)).toBe(true);
  expect(Array.isArray(r.problems)).toBe(true);
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const p of r.problems) {
    expect(['error', 'warning']).toContain(p.severity);
    expect(typeof p.object).toBe('string');
    expect(typeof p.path).toBe('string');
    expect(p.message.length).toBeGreaterThan(0);
    // The catch-all in validateText must never be needed.
    expect(p.message).not.toMatch(/^internal error while validating/);
    expect(p.line === undefined).toBe(p.column === undefined);
    if (p.line !== undefined && p.column !== undefined) {
      expect(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines + 1).toBe(true);
      expect(Number.isInteger(p.column) && p.column >= 1).toBe(true);
    }
  }
  // Pure: the same text gives the same answer.
  expect(validateText(text)).toEqual(r);
}

const TOKENS = [
  '',
  '[',
  ']',
  '{',
  '}',
  '"x',
  "'",
  '*a',
  '&a x',
  '!!int x',
  'null',
  '~',
  '-1',
  '0',
  '1e400',
  '99999999999999999999',
  '3.5',
  'true',
  'Local',
  'Proxy',
  'NodePort',
  '[1, 2]',
  '{a: 1}',
  '- x',
  ': :',
  '---',
  '#',
  '|',
  '>-',
  '? a',
  '<<: *a',
];

type Mutation =
  | { op: 'delete' | 'duplicate' | 'indent'; at: number; n: number }
  | { op: 'swap'; at: number; n: number }
  | { op: 'number'; at: number; n: number }
  | { op: 'value' | 'insert'; at: number; token: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constantFrom(
      'delete' as const,
      'duplicate' as const,
      'indent' as const,
      'swap' as const,
    ),
    at: fc.nat(),
    n: fc.integer({ min: -8, max: 8 }),
  }),
  fc.record({
    op: fc.constant('number' as const),
    at: fc.nat(),
    n: fc.oneof(fc.integer(), fc.constantFrom(0, 65535, 65536, 29999, 30000, 32767, 32768, -1)),
  }),
  fc.record({
    op: fc.constantFrom('value' as const, 'insert' as const),
    at: fc.nat(),
    token: fc.constantFrom(...TOKENS),
  }),
);

/** Every path (keys and indices) into a JSON value, the root excluded. */
function paths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== 'object' || v === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : Object.entries(v);
  return entries.flatMap(([k, x]) => [[...prefix, k], ...paths(x, [...prefix, k])]);
}

/** A deep copy of `root` with the value at `path` replaced (or deleted when `value` is undefined). */
function replaceAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy: unknown = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value ?? null;
  return copy;
}

function mutate(lines: string[], m: Mutation): string[] {
  if (lines.length === 0) return lines;
  const out = [...lines];
  const i = m.at % out.length;
  const line = out[i]!;
  switch (m.op) {
    case 'delete':
      out.splice(i, 1);
      break;
    case 'duplicate':
      out.splice(i, 0, line);
      break;
    case 'swap': {
      const j = (i + Math.abs(m.n) + 1) % out.length;
      out[i] = out[j]!;
      out[j] = line;
      break;
    }
    case 'indent': {
      const body = line.trimStart();
      const indent = Math.max(0, line.length - body.length + m.n);
      out[i] = ' '.repeat(indent) + body;
      break;
    }
    case 'number':
      out[i] = line.replace(/\d+/, String(m.n));
      break;
    case 'value':
      out[i] = line.includes(':') ? `${line.slice(0, line.indexOf(':') + 1)} ${m.token}` : m.token;
      break;
    case 'insert':
      out.splice(i, 0, m.token);
      break;
  }
  return out;
}

describe('validateText (fuzz)', () => {
  it('never throws on random strings', SLOW, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          fc.string({ unit: fc.constantFrom(...':-[]{}"\'&*!#|>?,.\n\t ak1'), maxLength: 200 }),
        ),
        (text) => wellFormed(text),
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on mutations of the canonical manifest', SLOW, () => {
    const lines = CANONICAL.split('\n');
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 8 }), (ms) => {
        wellFormed(ms.reduce(mutate, lines).join('\n'));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on mutations of the canonical manifest as a JSON kind: List', SLOW, () => {
    const objects = validateText(CANONICAL).objects;
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, 1);
    const lines = json.split('\n');
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (ms) => {
        wellFormed(ms.reduce(mutate, lines).join('\n'));
      }),
      { numRuns: 200 },
    );
  });

  it('random values at random fields of the canonical objects, as YAML and as JSON', SLOW, () => {
    const objects: unknown = validateText(CANONICAL).objects;
    const all = paths(objects);
    const edit = fc.record({
      at: fc.nat({ max: all.length - 1 }),
      value: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), fc.boolean(), (edits, json) => {
        let doc = objects;
        for (const e of edits) {
          const path = all[e.at]!;
          // Earlier edits may have removed or replaced the parents of this path.
          if (paths(doc).some((p) => p.join('\0') === path.join('\0'))) {
            doc = replaceAt(doc, path, e.value);
          }
        }
        const list = { apiVersion: 'v1', kind: 'List', items: doc };
        wellFormed(json ? JSON.stringify(list, null, 2) : stringify(list));
      }),
      { numRuns: 200 },
    );
  });

  it('single-character edits anywhere in the canonical manifest', SLOW, () => {
    fc.assert(
      fc.property(
        fc.nat({ max: CANONICAL.length - 1 }),
        fc.constantFrom('', ' ', '\n', ':', '-', '"', '[', '9', '\t'),
        (at, ch) => wellFormed(CANONICAL.slice(0, at) + ch + CANONICAL.slice(at + 1)),
      ),
      { numRuns: 300 },
    );
  });
});
