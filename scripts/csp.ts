/**
 * A Vite plugin for a strict Content Security Policy (issue 15 point 5). The built pages run
 * under `script-src 'self'; style-src 'self'` — no `'unsafe-inline'`, no hashes, no nonces — so
 * a host may send that header as it is (README "Security: Content-Security-Policy"):
 * - every inline `<script>` the other plugins wrote (the early model worker, the embed
 *   redirect, the prerender's keep-or-replace check) moves, unchanged and in place, to a file
 *   of its own, `assets/inline-<sha256>.js`, loaded by a classic `<script src>` (same order,
 *   same timing: a classic script blocks the parser exactly as the inline one did);
 * - every `style="…"` attribute in the prerendered markup becomes a rule in
 *   `assets/inline-<sha256>.css` keyed by a `data-csp-style` attribute (React hydrates over
 *   it: an extra attribute is not a mismatch; later updates set styles through the CSSOM,
 *   which CSP allows);
 * - the policy goes into a `<meta http-equiv>` right after `<meta charset>`.
 * `frame-ancestors` is left out of the meta (browsers ignore it there and say so in the
 * console); hosts that want it send it as a header. Build only, and not in the offline single
 * file, which is all inline by design.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/**
 * The strict policy (issue 15 point 5), for every page but the tutorial's diagrams:
 * `img-src` adds `data:` and `blob:` for the Export dialog's PNG/GIF rendering (an SVG drawn
 * through an `<img>`), `worker-src 'self'` for the model and time workers; everything else is
 * `'self'` or nothing.
 */
export const STRICT_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The app page's policy: the strict one with `style-src 'self' 'unsafe-inline'`, because the
 * tutorial (a view of the same page) draws its diagrams with mermaid 11, which sets `style`
 * attributes and writes a `<style>` element into the page while it lays a diagram out and
 * measures its text, and has no CSP nonce option. Scripts stay `'self'` only. Everything else
 * on the page (the visualiser, the time view, the editor) runs under {@link STRICT_POLICY},
 * which e2e/csp.spec.ts checks; embed.html carries the strict policy itself.
 */
export const APP_POLICY = STRICT_POLICY.replace(
  "style-src 'self'",
  "style-src 'self' 'unsafe-inline'",
);

/** The policy each built page carries, by file name (`index.html`, `embed.html`). */
export function policyFor(page: string): string {
  return page === 'embed.html' ? STRICT_POLICY : APP_POLICY;
}

/** The header we document for hosts of the app: its policy plus `frame-ancestors *`. */
export const HEADER_POLICY = `${APP_POLICY}; frame-ancestors *`;

/** The header for hosts of the embeds only (embed.html, the web component). */
export const STRICT_HEADER_POLICY = `${STRICT_POLICY}; frame-ancestors *`;

/** One file {@link extractInline} took out of a page. */
export interface ExtractedFile {
  /** Relative to the output directory, e.g. `assets/inline-1a2b3c4d.js`. */
  fileName: string;
  source: string;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * `html` with its inline scripts and style attributes moved to files, and `policy` added as
 * a `<meta>`; `base` is the public base path (`/`). Pure: the same page gives the same files.
 * A `<script>` with attributes other than none (e.g. `type="module"` with `src`) is left.
 */
export function extractInline(
  html: string,
  base = '/',
  policy = STRICT_POLICY,
): { html: string; files: ExtractedFile[] } {
  const files: ExtractedFile[] = [];
  // Inline scripts with only white space or comments between them run one after the other:
  // one file for them (one request, and one gzip stream in the initial-JS budget).
  const merged = html.replace(
    /<\/script>((?:\s|<!--[\s\S]*?-->)*)<script>/g,
    (_, between: string) => `\n;</script-join>${between}`,
  );
  let out = merged.replace(/<script>([\s\S]*?)<\/script>/g, (_, code: string) => {
    const parts = code.split(/\n;<\/script-join>((?:\s|<!--[\s\S]*?-->)*)/);
    // split keeps the captured in-between text at odd indices: code at even, markup at odd.
    code = parts
      .filter((_p, i) => i % 2 === 0)
      .map((c) => c.trim())
      .join(';\n');
    const kept = parts.filter((_p, i) => i % 2 === 1).join('');
    const fileName = `assets/inline-${hash(code)}.js`;
    if (!files.some((f) => f.fileName === fileName)) files.push({ fileName, source: code });
    return `<script src="${base}${fileName}"></script>${kept}`;
  });
  const rules: string[] = [];
  out = out.replace(/(<[a-zA-Z][^<>]*?)\sstyle="([^"]*)"/g, (_, tag: string, css: string) => {
    const id = rules.length;
    rules.push(`[data-csp-style="${id}"]{${css.replace(/&quot;/g, '"').replace(/&amp;/g, '&')}}`);
    return `${tag} data-csp-style="${id}"`;
  });
  if (rules.length > 0) {
    const css = `${rules.join('\n')}\n`;
    const fileName = `assets/inline-${hash(css)}.css`;
    files.push({ fileName, source: css });
    out = out.replace(
      /<\/head>/i,
      `  <link rel="stylesheet" href="${base}${fileName}" />\n  </head>`,
    );
  }
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(out);
  out = charset
    ? `${out.slice(0, charset.index + charset[0].length)}\n    ${meta}${out.slice(charset.index + charset[0].length)}`
    : out.replace(/<head>/i, `<head>\n    ${meta}`);
  return { html: out, files };
}

/** The plugin: rewrites every built HTML page last, once all the others have written theirs. */
export function strictCsp(): Plugin {
  let base = '/';
  return {
    name: 'lb-strict-csp',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue;
          const html =
            typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
          const { html: rewritten, files } = extractInline(html, base, policyFor(file.fileName));
          file.source = rewritten;
          for (const f of files)
            if (!(f.fileName in bundle))
              this.emitFile({ type: 'asset', fileName: f.fileName, source: f.source });
        }
      },
    },
  };
}

/**
 * CodeMirror's style injector (style-mod's `StyleSet`) uses a constructed stylesheet
 * (`adoptedStyleSheets`, which CSP does not govern) only in a shadow root, and a `<style>`
 * element in a document, which `style-src 'self'` blocks (the editor then measures an
 * unstyled DOM and throws). This rewrites its one condition so a document that supports
 * `adoptedStyleSheets` gets the constructed sheet too; browsers without it keep the `<style>`
 * path. The plugin fails the build if the condition is not found, so a style-mod update that
 * changes it cannot slip through unnoticed.
 */
export function styleModAdoptedSheets(): Plugin {
  const condition = '!root.head && root.adoptedStyleSheets && win.CSSStyleSheet';
  return {
    name: 'lb-style-mod-adopted-sheets',
    transform(code, id) {
      if (!/[\\/]style-mod[\\/]/.test(id)) return null;
      if (!code.includes(condition))
        throw new Error(`style-mod changed: "${condition}" not found in ${id} (scripts/csp.ts)`);
      return {
        code: code.replace(condition, 'root.adoptedStyleSheets && win.CSSStyleSheet'),
        map: null,
      };
    },
  };
}
