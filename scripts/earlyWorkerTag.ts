/**
 * A Vite plugin: starts the model worker from the HTML, before the app's JavaScript has
 * loaded. The built index.html gets a one-line inline script at the top of `<head>` that
 * creates the worker (`src/worker/model.worker.ts`, by its built file name) and leaves it on
 * `window` under {@link EARLY_WORKER_GLOBAL}; `src/worker/earlyWorker.ts` takes it from there.
 *
 * Why: a module script runs only after its whole static import graph has downloaded and
 * compiled, so a worker started from the app's first module began ~0.3-0.9 s after navigation
 * at 4× CPU throttle, and the page's first render then waited ~0.15-0.25 s for its first
 * answer. From the HTML, the worker's script downloads and compiles alongside the app's.
 * Build only (the dev server has no built worker file; there the app starts it itself).
 */
import type { Plugin } from 'vite';

/** Where the inline script leaves the worker (read once by `src/worker/earlyWorker.ts`). */
export const EARLY_WORKER_GLOBAL = '__lbModelWorker';

/** The built model worker's file name in `bundle` (e.g. `assets/model.worker-abc123.js`). */
export function workerFile(bundle: Record<string, { fileName: string }>): string | undefined {
  return Object.values(bundle)
    .map((o) => o.fileName)
    .find((f) => /(^|\/)model\.worker-[\w-]+\.js$/.test(f));
}

/** The inline script that starts the worker at `url` (failures leave it to the app). */
export function earlyWorkerScript(url: string): string {
  return `try{window.${EARLY_WORKER_GLOBAL}=new Worker(${JSON.stringify(url)},{type:"module"})}catch(e){}`;
}

/**
 * `html` with the worker's inline script right after `<meta charset>` (which must come
 * first), else at the top of `<head>`: before the stylesheet, which an inline script after it
 * would wait for.
 */
export function withEarlyWorker(html: string, url: string): string {
  const tag = `<script>${earlyWorkerScript(url)}</script>`;
  const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(html);
  if (charset) {
    const at = charset.index + charset[0].length;
    return `${html.slice(0, at)}\n    ${tag}${html.slice(at)}`;
  }
  return html.replace(/<head>/i, `<head>\n    ${tag}`);
}

/** The plugin. */
export function earlyWorkerTag(): Plugin {
  let base = '/';
  return {
    name: 'lb-early-worker-tag',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const file = ctx.bundle && workerFile(ctx.bundle);
        return file ? withEarlyWorker(html, `${base}${file}`) : html;
      },
    },
  };
}
