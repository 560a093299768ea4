/**
 * Vite plugins for the offline build (`vite.offline.config.ts`, `npm run build:offline`): one
 * self-contained `index.html` that works opened from `file://` with no network.
 *
 * Two things in the normal build cannot work from a file:
 * - a Web Worker started from a script file: Chromium refuses `new Worker('file:///…')` (a
 *   file page's origin is opaque). {@link inlineWorkers} turns each worker into an inline one
 *   (Vite's `?worker&inline`: its code is in the page, started from a `blob:` URL);
 * - a file of `public/` (the favicon) linked by URL: {@link inlineFavicon} puts it in a
 *   `data:` URL. The example clusters, also in `public/`, are read by `src/ui/import/examples.ts`
 *   from the bundle in this build (`import.meta.env.MODE === 'offline'`).
 * Everything else (scripts, styles, lazy chunks such as the tutorial's chapters and mermaid)
 * is inlined by `vite-plugin-singlefile`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The build mode of the offline build (`import.meta.env.MODE` in the app). */
export const OFFLINE_MODE = 'offline';

/**
 * `new Worker(new URL('<literal>', import.meta.url)[, options])`: the form Vite bundles a
 * worker from (the only one the app uses). Groups: 2 the worker's path, 3 the options.
 */
const WORKER_CALL =
  /new\s+Worker\(\s*new\s+URL\(\s*(['"`])([^'"`]+)\1\s*,\s*import\.meta\.url\s*\)\s*(?:,\s*(\{[^{}]*\})\s*)?,?\s*\)/g;

/**
 * `code` with each `new Worker(new URL('./x.worker.ts', import.meta.url), options)` replaced by
 * an inline worker: `new __lbInlineWorker0(options)`, with
 * `import __lbInlineWorker0 from './x.worker.ts?worker&inline'` at the top. (Vite's inline
 * worker reads only `options.name`; its type follows the config's `worker.format`.)
 * @returns the new code, or null when `code` starts no worker.
 */
export function inlineWorkerCalls(code: string): string | null {
  const imports: string[] = [];
  const out = code.replace(WORKER_CALL, (_all, _quote: string, path: string, options?: string) => {
    const name = `__lbInlineWorker${imports.length}`;
    imports.push(`import ${name} from ${JSON.stringify(`${path}?worker&inline`)};`);
    return `new ${name}(${options ?? ''})`;
  });
  return imports.length === 0 ? null : `${imports.join('\n')}\n${out}`;
}

/** The plugin: every worker of the app's own modules becomes an inline one. */
export function inlineWorkers(): Plugin {
  return {
    name: 'lb-offline-inline-workers',
    apply: 'build',
    // Before Vite's own worker plugin, which would emit the worker as a file of its own.
    enforce: 'pre',
    transform: {
      filter: { id: /\/src\/.*\.tsx?$/, code: /new\s+Worker\(/ },
      handler(code) {
        const out = inlineWorkerCalls(code);
        return out === null ? null : { code: out, map: null };
      },
    },
  };
}

/** `svg` (an SVG file's text) as a `data:` URL. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg.trim())}`;
}

/**
 * `html` with its `<link rel="icon" … href="/favicon.svg">` pointing at `dataUrl` instead.
 * @throws {Error} when `html` links no `/favicon.svg` (the page would ask for one by URL).
 */
export function withInlineFavicon(html: string, dataUrl: string): string {
  const link = /(<link\b[^>]*\brel="icon"[^>]*\bhref=")\/favicon\.svg(")/;
  if (!link.test(html)) throw new Error('offline: index.html links no /favicon.svg');
  return html.replace(link, (_all, before: string, after: string) => `${before}${dataUrl}${after}`);
}

/** The plugin: the favicon (`public/favicon.svg`) inlined into index.html. */
export function inlineFavicon(root: string): Plugin {
  return {
    name: 'lb-offline-inline-favicon',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const svg = readFileSync(resolve(root, 'public/favicon.svg'), 'utf8');
        return withInlineFavicon(html, svgDataUrl(svg));
      },
    },
  };
}
