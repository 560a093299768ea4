/**
 * A Vite plugin: puts the default view, rendered to HTML, into the built index.html's
 * `<div id="root">` (src/prerender/renderDefault.tsx), so a first visit paints the
 * walkthrough's first step — the drawing, the player, the narration — as soon as the HTML and
 * the stylesheet have arrived, before the app's JavaScript has loaded. `src/main.tsx` then
 * hydrates it (React keeps the DOM and attaches the handlers).
 *
 * Why: at 4× CPU throttle a client-rendered first frame came ~190 ms after the scripts had
 * evaluated (one render, the page's first style and layout, and its paint) and ~2.4× later
 * than a bare React page (docs/benchmarks.md).
 *
 * The HTML is the default view only. A visit that opens something else — a link or tutorial
 * route in the URL fragment, or a view saved in this browser — must not flash the default
 * first: an inline script right after `#root` (it runs before the first paint) empties it
 * then, and the app renders on the client as before ({@link keepPrerenderScript}).
 * Build only: the dev server renders on the client.
 */
import react from '@vitejs/plugin-react';
import { createServer } from 'vite';
import type { Plugin } from 'vite';

/** The attribute on `#root` that says it holds the prerendered default view. */
export const PRERENDERED_ATTR = 'data-prerendered';

/** What the keep-or-empty script checks. */
export interface KeepRule {
  /**
   * localStorage keys whose presence means this visit is not a plain first visit: the saved
   * view (src/store/share/persist.ts) and the kept theme (src/store/themePref.ts).
   */
  storageKeys: string[];
  /** The narrowest `.stage-canvas` the prerendered drawing is right for, px (src/prerender/keepWidth.ts). */
  minStageWidth: number;
}

/**
 * The inline script that empties a prerendered `#root` when this visit will not show what it
 * holds: a URL fragment (a `#s=` link, a `#learn/…` route), a query (`?embed=1` and any option
 * the app may read from it), a saved view or a kept theme, or a stage narrower
 * than the prerendered drawing's layout (a phone: its drawing is vertical). Unreadable storage
 * counts as "maybe saved". It runs after the stylesheet has loaded (a classic inline script
 * waits for it), so the stage's width is the real one.
 */
export function keepPrerenderScript(rule: KeepRule): string {
  return (
    `(function(){var r=document.getElementById("root");try{var h=location.hash,` +
    `c=r.querySelector(".stage-canvas");` +
    `if(!(h&&h!=="#")&&!location.search&&${JSON.stringify(rule.storageKeys)}.every(function(k){return localStorage.getItem(k)===null})&&` +
    `c&&c.getBoundingClientRect().width>=${rule.minStageWidth})return}catch(e){}` +
    `r.removeAttribute("${PRERENDERED_ATTR}");r.replaceChildren()})()`
  );
}

/**
 * `html` with `body` inside its `<div id="root"></div>` (marked {@link PRERENDERED_ATTR}) and
 * the keep-or-empty script after it.
 * @throws {Error} when `html` has no empty `<div id="root"></div>`.
 */
export function withPrerendered(html: string, body: string, rule: KeepRule): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error(`prerender: index.html has no empty ${root}`);
  return html.replace(
    root,
    () =>
      `<div id="root" ${PRERENDERED_ATTR}>${body}</div>\n    <script>${keepPrerenderScript(rule)}</script>`,
  );
}

/**
 * Renders the default view in Node through a Vite server in middleware mode (the app's modules
 * as the dev server would serve them, CSS imports ignored), and closes the server.
 * @returns the HTML of `<App>` (not including `#root`) and what the inline script checks.
 */
export async function renderDefaultHtml(root: string): Promise<{ html: string } & KeepRule> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const mod = (await server.ssrLoadModule('/src/prerender/renderDefault.tsx')) as {
      renderDefault: () => Promise<{ html: string; minStageWidth: number }>;
      STORAGE_KEY: string;
      THEME_KEY: string;
    };
    return { ...(await mod.renderDefault()), storageKeys: [mod.STORAGE_KEY, mod.THEME_KEY] };
  } finally {
    await server.close();
  }
}

/** The plugin. */
export function prerender(): Plugin {
  let root = process.cwd();
  return {
    name: 'lb-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        // index.html only: embed.html is the embed's own page (src/embed/).
        if (!ctx.path.endsWith('/index.html')) return html;
        const page = await renderDefaultHtml(root);
        return withPrerendered(html, page.html, page);
      },
    },
  };
}
