import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIndex } from './examples';
import { inlinedExample } from './examplesInline';

describe('the examples bundled for the offline file', () => {
  it('are every file of public/examples/, as on disk', () => {
    const files = readdirSync('public/examples');
    expect(files.length).toBeGreaterThan(1);
    for (const f of files)
      expect(inlinedExample(f), f).toBe(readFileSync(`public/examples/${f}`, 'utf8'));
  });

  it('include every example that index.json lists', () => {
    const list = parseIndex(JSON.parse(inlinedExample('index.json')));
    expect(list.map((e) => e.file)).toContain('canonical.yaml');
    for (const e of list) expect(inlinedExample(e.file)).toMatch(/kind:/);
  });

  it('say so when a file is not in them', () => {
    expect(() => inlinedExample('nope.yaml')).toThrow('nope.yaml could not be loaded');
    expect(() => inlinedExample('toString')).toThrow(/could not be loaded/);
  });
});
