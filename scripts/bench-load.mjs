// The "Initial load" half of `npm run bench:browser` (issue 11): the app against a bare React 19
// page (bench/baseline/), side by side in one browser, under the same CPU throttle.
//
// - Initial JS: the gzip bytes (node:zlib, level 9, as e2e/budget.spec.ts counts them) of the
//   JavaScript each page's index.html loads before any interaction: its module script tags and
//   modulepreload links. 1 KB = 1,024 bytes.
// - Ready: from navigation start (the page's `performance.timeOrigin`) to the animation frame
//   after the page's ready element first appears in the DOM (the frame that paints it). For the
//   app that is the topology drawing (`[data-node-count]`, the <svg> of the stage), for the
//   baseline its one element (`#ready`). Every load is in a fresh browser context (cold HTTP
//   cache), with `Emulation.setCPUThrottlingRate` set before navigation; app and baseline loads
//   alternate, so a slower moment of the machine weighs on both.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The app's ready element: its first drawing (src/ui/topology/Topology.tsx). */
export const APP_READY = '[data-node-count]';
/**
 * The app's interactive element: `#root` once React has hydrated the prerendered page or
 * rendered it (src/main.tsx), so its buttons answer. Reported beside "ready", with no target:
 * the first drawing is prerendered HTML (scripts/prerender.ts) and paints before the app's
 * JavaScript runs.
 */
export const APP_INTERACTIVE = '#root[data-hydration]';
/** The baseline's ready element (bench/baseline/main.tsx). */
export const BASELINE_READY = '#ready';

/**
 * Builds bench/baseline/ with Vite and the React plugin into `outDir`.
 * @param {string} outDir
 */
export async function buildBaseline(outDir) {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    root: resolve('bench', 'baseline'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
}

/**
 * The JS files a build's index.html loads up front (module scripts and modulepreloads), and their
 * gzip sizes.
 * @param {string} dist
 * @returns {{ files: string[], bytes: number }}
 */
export function initialJs(dist) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+\.js)"/g)].map((m) =>
    (m[1] ?? '').replace(/^\.?\//, ''),
  );
  const bytes = files
    .map((f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length)
    .reduce((a, b) => a + b, 0);
  return { files, bytes };
}

/**
 * One load of `url` in a fresh context at `rate`× CPU throttle; the ms from navigation start to
 * the frame after `selector` appears, and (with `interactive`) to the frame after that selector
 * matches.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @param {string} selector
 * @param {number} rate
 * @param {string} [interactive]
 * @returns {Promise<{ ready: number, interactive: number }>}
 */
export async function readyTime(browser, url, selector, rate, interactive) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error (${url}): ${e.message}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.addInitScript(
      ({ sel, inter }) => {
        const w = /** @type {any} */ (globalThis);
        const check = () => {
          if (!w.__benchSeen && w.document.querySelector(sel)) {
            w.__benchSeen = true;
            w.requestAnimationFrame(() => (w.__benchReadyAt = performance.now()));
          }
          if (!w.__benchInteractive && w.document.querySelector(inter)) {
            w.__benchInteractive = true;
            w.requestAnimationFrame(() => (w.__benchInteractiveAt = performance.now()));
          }
          if (w.__benchSeen && w.__benchInteractive) observer.disconnect();
        };
        const observer = new w.MutationObserver(check);
        observer.observe(w.document, { childList: true, subtree: true, attributes: true });
      },
      { sel: selector, inter: interactive ?? selector },
    );
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      () => {
        const w = /** @type {any} */ (globalThis);
        return w.__benchReadyAt && w.__benchInteractiveAt
          ? [w.__benchReadyAt, w.__benchInteractiveAt]
          : undefined;
      },
      null,
      { timeout: 60_000, polling: 50 },
    );
    const [ready, inter] = /** @type {[number, number]} */ (await handle.jsonValue());
    return { ready, interactive: inter };
  } finally {
    await context.close();
  }
}

/** @param {number[]} xs */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

/**
 * Measures both pages side by side and prints the two figures with their targets.
 * @param {import('@playwright/test').Browser} browser
 * @param {{ appUrl: string, appDist: string, baseUrl: string, baseDist: string, runs: number, rate: number }} o
 * @returns {Promise<{ missed: number }>}
 */
export async function measureLoad(browser, o) {
  const app = initialJs(o.appDist);
  const base = initialJs(o.baseDist);
  // One unmeasured load of each first, so both start from the same warm browser.
  await readyTime(browser, o.appUrl, APP_READY, o.rate, APP_INTERACTIVE);
  await readyTime(browser, o.baseUrl, BASELINE_READY, o.rate);
  /** @type {number[]} */ const appMs = [];
  /** @type {number[]} */ const appInteractiveMs = [];
  /** @type {number[]} */ const baseMs = [];
  for (let i = 0; i < o.runs; i++) {
    const app = await readyTime(browser, o.appUrl, APP_READY, o.rate, APP_INTERACTIVE);
    appMs.push(app.ready);
    appInteractiveMs.push(app.interactive);
    baseMs.push((await readyTime(browser, o.baseUrl, BASELINE_READY, o.rate)).ready);
    console.log(
      `load run ${i + 1} (${o.rate}× CPU throttle): app ready ${appMs[i]?.toFixed(0)} ms (interactive ${appInteractiveMs[i]?.toFixed(0)} ms), bare React ${baseMs[i]?.toFixed(0)} ms`,
    );
  }
  const kb = (/** @type {number} */ b) => `${(b / 1024).toFixed(1)} KB`;
  const a = median(appMs);
  const b = median(baseMs);
  const jsOk = app.bytes <= 120 * 1024;
  const readyOk = a <= 1.5 * b;
  console.log(`initial JS: app ${app.files.join(', ')}; bare React ${base.files.join(', ')}`);
  const rows = [
    ['figure', 'target', 'app', 'bare React', 'ratio', 'result'],
    [
      'initial JS (gzip)',
      '≤ 120 KB',
      kb(app.bytes),
      kb(base.bytes),
      `${(app.bytes / (120 * 1024)).toFixed(2)}× target; ${(app.bytes / base.bytes).toFixed(2)}× bare React`,
      jsOk ? 'PASS' : 'FAIL',
    ],
    [
      `ready at ${o.rate}× CPU throttle (median of ${o.runs})`,
      '≤ 1.5× bare React',
      `${a.toFixed(0)} ms`,
      `${b.toFixed(0)} ms`,
      `${(a / b).toFixed(2)}× bare React`,
      readyOk ? 'PASS' : 'FAIL',
    ],
    [
      `interactive at ${o.rate}× CPU throttle (median of ${o.runs})`,
      '(no target)',
      `${median(appInteractiveMs).toFixed(0)} ms`,
      `${b.toFixed(0)} ms`,
      `${(median(appInteractiveMs) / b).toFixed(2)}× bare React`,
      '',
    ],
  ];
  const w = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const [i, r] of rows.entries()) {
    console.log(
      r
        .map((c, j) => c.padEnd(w[j] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) console.log(w.map((n) => '-'.repeat(n)).join('  '));
  }
  const missed = Number(!jsOk) + Number(!readyOk);
  return { missed };
}
