/**
 * The input bounds (./bounds.ts) and `!!binary` as kubectl reads it (./yamlTags.ts).
 * - No manifest a cluster holds is refused: every shipped example, a 30-level CRD schema
 *   (as deep as common CRDs go), block scalars whose text is indented far, brackets in
 *   quoted strings.
 * - What is past the bounds gets one problem of ours at the opening that goes too deep, and
 *   the text is not parsed (the YAML parser's recursion overflowed at ~1,000 levels before).
 * - `!!binary`: kubectl converts YAML to JSON with sigs.k8s.io/yaml (go-yaml v2), which
 *   decodes the base64 to a string and refuses bad base64 with "!!binary value contains
 *   invalid base64 data".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_CHARS, MAX_NESTING, nestingTooDeep, outOfBounds } from './bounds';
import { validateText } from './validate';
import { loadObjects, LoadError } from './load';

const EXAMPLES = 'public/examples';

/** A CRD-style schema `levels` mappings deep, as `kubectl get crd -o yaml` indents it. */
function deepSchema(levels: number): string {
  const lines = ['apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  x:'];
  for (let i = 0; i < levels; i++) lines.push(`${'  '.repeat(i + 2)}properties:`);
  lines.push(`${'  '.repeat(levels + 2)}type: object`);
  return lines.join('\n');
}

describe('the bounds refuse nothing a cluster holds', () => {
  it('every shipped example and fixture', () => {
    const files = [
      ...readdirSync(EXAMPLES).map((f) => `${EXAMPLES}/${f}`),
      ...readdirSync('src/model/import/fixtures').map((f) => `src/model/import/fixtures/${f}`),
    ];
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(outOfBounds(readFileSync(f, 'utf8')), f).toBeUndefined();
  });

  it('a 30-level schema, in YAML and as JSON', () => {
    expect(nestingTooDeep(deepSchema(30))).toBeUndefined();
    const json = '{"a":'.repeat(30) + '1' + '}'.repeat(30);
    expect(nestingTooDeep(json)).toBeUndefined();
    expect(nestingTooDeep(JSON.stringify(JSON.parse(json), null, 4))).toBeUndefined();
  });

  it('block scalar text indented far, brackets in quotes and plain scalars, comments', () => {
    const text = [
      'kind: ConfigMap',
      'data:',
      '  script: |-',
      ...Array.from({ length: 150 }, (_, i) => `${' '.repeat(4 + i * 2)}line ${i}`),
      `  quoted: "${'['.repeat(300)}"`,
      `  single: '${'{'.repeat(300)}'`,
      `  plain: a${'['.repeat(300)}`,
      `  # ${'['.repeat(300)}`,
    ].join('\n');
    expect(nestingTooDeep(text)).toBeUndefined();
  });
});

describe('past the bounds: one problem of ours, nothing parsed', () => {
  it(`flow nesting past ${MAX_NESTING} levels is found at the opening that goes past`, () => {
    const text = `kind: Service\nspec: ${'['.repeat(MAX_NESTING + 5)}${']'.repeat(MAX_NESTING + 5)}\n`;
    // spec is level 1, so the 100th bracket (column 7 + 99) makes 101.
    expect(nestingTooDeep(text)).toEqual({ line: 2, column: 7 + MAX_NESTING - 1 });
  });

  it('block nesting past the limit, by indentation and by compact "- - x" entries', () => {
    expect(nestingTooDeep(deepSchema(MAX_NESTING + 1))?.line).toBe(6 + MAX_NESTING - 1);
    const compact = `items:\n${'- '.repeat(MAX_NESTING + 3)}x\n`;
    expect(nestingTooDeep(compact)?.line).toBe(2);
  });

  for (const [name, text] of [
    ['10,000 flow levels', `kind: Service\nspec: ${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    [
      '10,000 mapping levels',
      `kind: Service\nspec: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}`,
    ],
    ['2,000 block levels', deepSchema(2_000)],
  ] as const)
    it(`${name}: validateText answers with the one problem`, () => {
      const { problems, objects } = validateText(text);
      expect(objects).toEqual([]);
      expect(problems).toHaveLength(1);
      expect(problems[0]?.severity).toBe('error');
      expect(problems[0]?.message).toMatch(
        new RegExp(`^line \\d+, column \\d+: nested more than ${MAX_NESTING} levels deep`),
      );
      expect(problems[0]?.line).toBeGreaterThan(1);
      expect(() => loadObjects(text)).toThrow(LoadError);
    });

  it(`a text over ${MAX_INPUT_CHARS.toLocaleString('en-US')} characters is not parsed`, () => {
    const text = `kind: Service\n#${'x'.repeat(MAX_INPUT_CHARS)}`;
    const { problems } = validateText(text);
    expect(problems).toEqual([
      {
        severity: 'error',
        object: '',
        path: '',
        line: 1,
        column: 1,
        message: `the text is ${(MAX_INPUT_CHARS + 15).toLocaleString('en-US')} characters, over the limit of ${MAX_INPUT_CHARS.toLocaleString('en-US')}, so it was not read: split it into several files`,
      },
    ]);
  });
});

describe('!!binary reads as kubectl reads it', () => {
  const svc = (name: string) =>
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  ports: [{port: 80}]\n`;

  it('decodes to the string (d2Vi is "web")', () => {
    const { objects, problems } = validateText(svc('!!binary d2Vi'));
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(objects[0]).toMatchObject({ metadata: { name: 'web' } });
  });

  it("bad base64 is go-yaml's error, at its line", () => {
    const { problems } = validateText(svc('!!binary "#not base64#"'));
    expect(problems).toMatchObject([
      {
        severity: 'error',
        line: 4,
        message: expect.stringContaining('!!binary value contains invalid base64 data'),
      },
    ]);
  });

  it('bytes that are not UTF-8 become U+FFFD, as encoding/json writes them', () => {
    const { objects } = validateText(svc('!!binary /w=='));
    expect(objects[0]).toMatchObject({ metadata: { name: '\uFFFD' } });
  });
});
