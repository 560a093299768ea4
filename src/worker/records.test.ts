import { describe, expect, it } from 'vitest';
import { packRecords, recordUnpacker } from './records';

const unpackAll = (records: object[], slice = 2) => {
  const p = packRecords(records);
  if (!p) throw new Error('not packed');
  const out: Record<string, unknown>[] = [];
  const next = recordUnpacker(structuredClone(p), out);
  let tasks = 1;
  while (next(slice)) tasks++;
  return { p, out, tasks };
};

describe('records packed by column', () => {
  const records = [
    { id: 'c0', at: 0, end: null, node: 'node-1', ok: true, why: 'closed' },
    { id: 'c1', at: 1.5, end: 20, node: null, ok: false, why: 'closed' },
    { id: 'c2', at: -0, end: null, node: 'node-1', ok: true, why: 'reset' },
    { id: 'long0', at: 3, end: 1e12, node: 'node-3', ok: false, why: 'closed' },
    { id: 'c3', at: 4, end: 7, node: 'node-3', ok: true, why: 'closed' },
  ];

  it('come back equal, keys in their order, a slice at a time', () => {
    const { p, out, tasks } = unpackAll(records);
    expect(out).toEqual(records);
    expect(out.map((r) => Object.keys(r))).toEqual(records.map((r) => Object.keys(r)));
    expect(Object.is(out[2]!['at'], -0)).toBe(true);
    // 5 records, 2 a slice: 3 slices.
    expect(tasks).toBe(3);
    // ids are one string; repeated strings one table entry each.
    expect(p.columns.map((c) => c.kind)).toEqual([
      'lines',
      'number',
      'number',
      'dict',
      'bool',
      'dict',
    ]);
    const why = p.columns[5]!;
    expect(why.kind === 'dict' && why.table).toEqual(['closed', 'reset']);
  });

  it('are not packed when shapes differ or a column mixes kinds (sent as they are)', () => {
    expect(packRecords([])).toBeNull();
    expect(
      packRecords([
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBeNull();
    expect(packRecords([{ a: 1 }, { a: 1, b: 2 }])).toBeNull();
    expect(packRecords([{ a: 1 }, { a: 'x' }])).toBeNull();
    expect(packRecords([{ a: NaN }, { a: 1 }])).toBeNull();
    expect(packRecords([{ a: { nested: true } }])).toBeNull();
    expect(packRecords([{ a: undefined }])).toBeNull();
  });

  it('a column of distinct strings with a newline in one goes as a table', () => {
    const { p, out } = unpackAll([{ s: 'a\nb' }, { s: 'c' }]);
    expect(p.columns[0]!.kind).toBe('dict');
    expect(out).toEqual([{ s: 'a\nb' }, { s: 'c' }]);
  });
});
