import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test, expect } from '@playwright/test';

/**
 * The initial-JavaScript budget (issue 11, "Initial load"; DESIGN.md, quality bars): what
 * index.html loads before any interaction — its module scripts and modulepreloads — must stay
 * ≤ 120 KB gzip, and heavy or late modules (mermaid; framer-motion, which the packet loads after
 * the first paint) must not be among it. Reads the build that `npm run test:e2e` makes.
 */
const DIST = process.env['E2E_OUTDIR'] ?? 'dist';
const BUDGET_BYTES = 120 * 1024;

function initialScripts(): string[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map(
    (m) => m[1] ?? '',
  );
  return refs.map((r) => r.replace(/^\//, ''));
}

test('initial JavaScript is within 120 KB gzip', () => {
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

test('framer-motion is not in the initial bundle (the packet loads it after first paint)', () => {
  for (const f of initialScripts()) {
    const text = readFileSync(join(DIST, f), 'utf8');
    // framer-motion's DOM features write this attribute (optimised appear animations).
    expect(text.includes('data-framer-appear-id')).toBe(false);
  }
});
