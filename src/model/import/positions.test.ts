/** Field path → position, on YAML and JSON documents parsed with a LineCounter. */
import { describe, expect, it } from 'vitest';
import { LineCounter, parseAllDocuments } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { goQuote, notSupported, renderValue } from './field';
import { nodeAt, parsePath, positionOf } from './positions';

function locate(text: string, path: string, docIndex = 0): [number, number] | undefined {
  const lc = new LineCounter();
  const doc = parseAllDocuments(text, { lineCounter: lc })[docIndex]!;
  const pos = positionOf(doc, doc.contents as YamlNode, path, lc);
  return pos && [pos.line, pos.column];
}

describe('parsePath', () => {
  it('splits keys and indices', () => {
    expect(parsePath('spec.ports[0].nodePort')).toEqual(['spec', 'ports', 0, 'nodePort']);
    expect(parsePath('endpoints[1].addresses[2]')).toEqual(['endpoints', 1, 'addresses', 2]);
    expect(parsePath('items[3]')).toEqual(['items', 3]);
    expect(parsePath('[0][1]')).toEqual([0, 1]);
    expect(parsePath('')).toEqual([]);
  });
});

describe('positionOf', () => {
  it('finds the value of a key, in block and flow style', () => {
    const text = 'spec:\n  ports:\n    - port: 80\n      nodePort: 30080\n  selector: {app: web}\n';
    expect(locate(text, 'spec.ports[0].nodePort')).toEqual([4, 17]);
    expect(locate(text, 'spec.selector.app')).toEqual([5, 19]);
    expect(locate(text, 'spec.ports[0]')).toEqual([3, 7]);
  });

  it('falls back to the nearest present ancestor', () => {
    const text = 'spec:\n  ports:\n    - port: 80\n';
    expect(locate(text, 'spec.ports[0].name')).toEqual([3, 7]);
    expect(locate(text, 'spec.ports[5].port')).toEqual([3, 5]);
    expect(locate(text, 'status.podIP')).toEqual([1, 1]);
    const lc = new LineCounter();
    const doc = parseAllDocuments(text, { lineCounter: lc })[0]!;
    expect(nodeAt(doc, doc.contents as YamlNode, 'spec.ports[0].name').exact).toBe(false);
  });

  it('points at the key of a key with no value', () => {
    expect(locate('spec:\n  nodePort:\n  type: x\n', 'spec.nodePort')).toEqual([2, 3]);
  });

  it('works on JSON and on later documents', () => {
    const json = '{\n  "spec": {"ports": [{"port": 80}, {"port": 0}]}\n}';
    expect(locate(json, 'spec.ports[1].port')).toEqual([2, 45]);
    expect(locate('a: 1\n---\nb:\n  c: 2\n', 'b.c', 1)).toEqual([4, 6]);
  });

  it('follows an alias to its anchor', () => {
    const text = 'x: &p {port: 70000}\nspec:\n  ports: [*p]\n';
    expect(locate(text, 'spec.ports[0].port')).toEqual([1, 14]);
  });
});

describe('field.Error rendering (apimachinery errors.go)', () => {
  it('quotes strings as Go %q does and prints numbers bare', () => {
    expect(goQuote('a"b\\c\n\t\u0001é')).toBe('"a\\"b\\\\c\\n\\t\\x01é"');
    expect(renderValue(30080)).toBe('30080');
    expect(renderValue(true)).toBe('true');
    expect(renderValue({ a: 1 })).toBe('{"a":1}');
    expect(notSupported('spec.type', 'X', ['A', 'B'])).toBe(
      'spec.type: Unsupported value: "X": supported values: "A", "B"',
    );
  });
});
