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

function initialScripts(page = 'index.html'): string[] {
  const html = readFileSync(join(DIST, page), 'utf8');
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

const gzipBytes = (files: string[]) =>
  files
    .map((f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length)
    .reduce((a, b) => a + b, 0);

test('the embed view loads no more initial JavaScript than the app (issue 12)', () => {
  const app = gzipBytes(initialScripts());
  const embed = gzipBytes(initialScripts('embed.html'));
  test.info().annotations.push({ type: 'embed-initial-js-gzip-bytes', description: String(embed) });
  console.log(`initial JS: embed.html ${embed} bytes gzip, index.html ${app}`);
  expect(embed).toBeGreaterThan(0);
  expect(embed).toBeLessThanOrEqual(app);
});

test('the <lb-datapath> element is one ES module with its styles inside', () => {
  const file = join(DIST, 'embed', 'lb-datapath.js');
  const text = readFileSync(file, 'utf8');
  const gz = gzipBytes([join('embed', 'lb-datapath.js')]);
  console.log(`embed/lb-datapath.js: ${text.length} bytes, ${gz} bytes gzip`);
  test.info().annotations.push({ type: 'element-gzip-bytes', description: String(gz) });
  // One file: it imports nothing (no chunks) and starts no worker file.
  expect(text).not.toMatch(/\bimport\s*\(|\bfrom\s*["']\.|new Worker\(/);
  // Its stylesheet is inside, written for a shadow root.
  expect(text).toContain(':host');
  expect(text).not.toContain('__LB_DATAPATH_CSS__');
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
