import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inlineWorkerCalls, svgDataUrl, withInlineFavicon } from './offline';

describe('inlineWorkerCalls', () => {
  it("turns each of the app's worker calls into an inline worker, options kept", () => {
    const code = [
      "const a = new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module' });",
      'const b = new Worker(new URL("../ui/import/analyse.worker.ts", import.meta.url));',
    ].join('\n');
    expect(inlineWorkerCalls(code)).toBe(
      [
        'import __lbInlineWorker0 from "./model.worker.ts?worker&inline";',
        'import __lbInlineWorker1 from "../ui/import/analyse.worker.ts?worker&inline";',
        "const a = new __lbInlineWorker0({ type: 'module' });",
        'const b = new __lbInlineWorker1();',
      ].join('\n'),
    );
  });

  it('reads a call formatted over several lines, with a trailing comma', () => {
    const code = `return new Worker(\n  new URL('./timeline.worker.ts', import.meta.url),\n  { type: 'module', name: 't' },\n);`;
    expect(inlineWorkerCalls(code)).toBe(
      `import __lbInlineWorker0 from "./timeline.worker.ts?worker&inline";\n` +
        `return new __lbInlineWorker0({ type: 'module', name: 't' });`,
    );
  });

  it('leaves code that starts no bundled worker alone (null)', () => {
    expect(inlineWorkerCalls("if (typeof Worker !== 'function') return undefined;")).toBeNull();
    // A worker from a run-time URL is not one Vite bundles: not rewritten.
    expect(inlineWorkerCalls('new Worker(url, { type: "module" })')).toBeNull();
  });

  it('matches every worker the app starts (src/), so none is left to load by URL', () => {
    for (const file of [
      'src/worker/earlyWorker.ts',
      'src/worker/timelineClient.ts',
      'src/ui/import/analyseClient.ts',
    ]) {
      const out = inlineWorkerCalls(readFileSync(file, 'utf8'));
      expect(out, file).not.toBeNull();
      expect(out, file).not.toMatch(/new\s+Worker\(\s*new\s+URL\(/);
    }
  });
});

describe('the favicon', () => {
  const html =
    '<head>\n<link rel="icon" type="image/svg+xml" href="/favicon.svg" />\n<title>t</title>';

  it('is a data: URL of the SVG, which decodes back to it', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n';
    const url = svgDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml,')).toBe(true);
    expect(url).not.toMatch(/[<>"#\s]/);
    expect(decodeURIComponent(url.slice('data:image/svg+xml,'.length))).toBe(svg.trim());
  });

  it("replaces the link's href, and only it", () => {
    expect(withInlineFavicon(html, 'data:image/svg+xml,X')).toBe(
      '<head>\n<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,X" />\n<title>t</title>',
    );
  });

  it('throws when index.html links no /favicon.svg', () => {
    expect(() => withInlineFavicon('<head></head>', 'data:,')).toThrow(/no \/favicon\.svg/);
  });
});
