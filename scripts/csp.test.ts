/**
 * scripts/csp.ts: what the build does to a page so that it runs under `script-src 'self'` and
 * `style-src 'self'` (no inline script, no inline style attribute), and the policy it writes.
 * The directive names and keywords are CSP Level 3's (https://www.w3.org/TR/CSP3/).
 */
import { describe, expect, it } from 'vitest';
import {
  APP_POLICY,
  extractInline,
  HEADER_POLICY,
  policyFor,
  STRICT_HEADER_POLICY,
  STRICT_POLICY,
} from './csp';

const page = `<!doctype html>
<html>
  <head>
    <meta charset="UTF-8" />
    <script>a()</script>
    <!-- why b runs here -->
    <script>
      b()
    </script>
    <script type="module" crossorigin src="/assets/main.js"></script>
  </head>
  <body>
    <div id="root"><div class="stage-canvas" style="min-height:370px">x</div></div>
    <script>c()</script>
  </body>
</html>`;

describe('extractInline', () => {
  const { html, files } = extractInline(page, '/', STRICT_POLICY);

  it('leaves no inline script and no style attribute', () => {
    expect(html).not.toMatch(/<script>/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).toContain('<script type="module" crossorigin src="/assets/main.js"></script>');
  });

  it('moves adjacent scripts into one file, in order, and keeps the comment between them', () => {
    const js = files.filter((f) => f.fileName.endsWith('.js'));
    expect(js.map((f) => f.source)).toEqual(['a();\nb()', 'c()']);
    for (const f of js) {
      expect(f.fileName).toMatch(/^assets\/inline-[0-9a-f]{12}\.js$/);
      expect(html).toContain(`<script src="/${f.fileName}"></script>`);
    }
    expect(html).toContain('<!-- why b runs here -->');
    // c() still runs after #root is parsed: its tag is still after the root element.
    expect(html.indexOf('id="root"')).toBeLessThan(html.indexOf(js[1]?.fileName ?? '?'));
  });

  it('turns the style attribute into a rule in a linked stylesheet', () => {
    const css = files.find((f) => f.fileName.endsWith('.css'));
    expect(css?.source).toBe('[data-csp-style="0"]{min-height:370px}\n');
    expect(html).toContain('<div class="stage-canvas" data-csp-style="0">');
    expect(html).toContain(`<link rel="stylesheet" href="/${css?.fileName ?? ''}" />`);
  });

  it('puts the policy right after <meta charset>, before any script', () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="${STRICT_POLICY}" />`;
    expect(html.indexOf(meta)).toBeGreaterThan(html.indexOf('<meta charset'));
    expect(html.indexOf(meta)).toBeLessThan(html.indexOf('<script'));
  });

  it('is pure: the same page gives the same files', () => {
    expect(extractInline(page, '/', STRICT_POLICY)).toEqual({ html, files });
  });
});

describe('the policies', () => {
  it('scripts are self only everywhere; inline styles only on the app page (mermaid)', () => {
    for (const p of [STRICT_POLICY, APP_POLICY]) {
      expect(p).toContain("script-src 'self';");
      expect(p).toContain("object-src 'none'");
      expect(p).toContain("base-uri 'none'");
      expect(p).not.toContain('unsafe-eval');
    }
    expect(STRICT_POLICY).toContain("style-src 'self';");
    expect(APP_POLICY).toContain("style-src 'self' 'unsafe-inline';");
    expect(policyFor('embed.html')).toBe(STRICT_POLICY);
    expect(policyFor('index.html')).toBe(APP_POLICY);
  });

  it('frame-ancestors only in the headers: a <meta> policy may not carry it (CSP3 §6.4.2)', () => {
    expect(STRICT_POLICY).not.toContain('frame-ancestors');
    expect(APP_POLICY).not.toContain('frame-ancestors');
    expect(HEADER_POLICY).toBe(`${APP_POLICY}; frame-ancestors *`);
    expect(STRICT_HEADER_POLICY).toBe(`${STRICT_POLICY}; frame-ancestors *`);
  });
});
