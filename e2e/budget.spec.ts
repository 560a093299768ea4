import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test, expect } from '@playwright/test';

/**
 * The initial-JavaScript budget (DESIGN.md, quality bars): what index.html loads before any
 * interaction — its module scripts and modulepreloads — must stay ≤ 170 KB gzip, and heavy
 * modules (mermaid) must not be among it. Reads the build that `npm run test:e2e` makes.
 */
const DIST = process.env['E2E_OUTDIR'] ?? 'dist';
const BUDGET_BYTES = 170 * 1024;

function initialScripts(): string[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map(
    (m) => m[1] ?? '',
  );
  return refs.map((r) => r.replace(/^\//, ''));
}

test('initial JavaScript is within 170 KB gzip', () => {
  const files = initialScripts();
  expect(files.length).toBeGreaterThan(0);
  const sizes = files.map((f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  test.info().annotations.push({ type: 'initial-js-gzip-bytes', description: String(total) });
  console.log(`initial JS: ${files.join(', ')} = ${total} bytes gzip`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});

test('mermaid is not in the initial bundle', () => {
  for (const f of initialScripts()) {
    const text = readFileSync(join(DIST, f), 'utf8');
    // mermaid's own bundle registers diagrams under these identifiers.
    expect(text.includes('flowchart-v2') || text.includes('mermaidAPI')).toBe(false);
  }
});
