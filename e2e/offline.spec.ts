import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { openCluster } from './pages/cluster';
import { TimelinePage } from './pages/timeline';

/**
 * The offline single file (issue 12, scope 6; `npm run build:offline`, vite.offline.config.ts):
 * one index.html, opened from `file://` with every http(s) request aborted, draws the stage,
 * plays, opens the tutorial and draws a chapter's mermaid diagram, opens an example cluster from
 * "Your cluster" (bundled, not fetched) with the import checker's worker, and computes the
 * "Time & failures" view in its worker. All three of the app's workers run from `blob:` URLs
 * (scripts/offline.ts): Chromium refuses a worker script from `file://`.
 *
 * E2E_OFFLINE_DIR is the build's folder (default dist-offline, what `npm run test:e2e` builds).
 */

const OFFLINE_DIR = process.env['E2E_OFFLINE_DIR'] ?? 'dist-offline';
const FILE = resolve(OFFLINE_DIR, 'index.html');
const PAGE_URL = pathToFileURL(FILE).href;

/** The first chapter with a ```mermaid block (content/chapters, as the reader routes it). */
function chapterWithDiagram(): string | undefined {
  const file = readdirSync('content/chapters')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .find((f) => /^```mermaid$/m.test(readFileSync(join('content/chapters', f), 'utf8')));
  return file?.replace(/^\d+-/, '').replace(/\.md$/, '');
}

/**
 * The URLs that `html`'s markup (outside inline scripts and styles) would load or go to that do
 * not work from a single file: every `src`/`href` that is not a `data:` URL or a `#` fragment,
 * except a link (`<a href>`) to an absolute http(s) or mailto address, which loads nothing.
 */
function externalRefs(html: string): string[] {
  const markup = html
    .replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/gi, '$1</script>')
    .replace(/(<style\b[^>]*>)[\s\S]*?<\/style>/gi, '$1</style>');
  const refs: string[] = [];
  for (const [, tag = '', attrs = ''] of markup.matchAll(/<([a-z][\w-]*)\b([^>]*)>/gi)) {
    for (const [, name = '', url = ''] of attrs.matchAll(/\b(src|href|srcset)\s*=\s*"([^"]*)"/gi)) {
      if (/^(data:|#)/.test(url)) continue;
      if (tag.toLowerCase() === 'a' && /^(https?:|mailto:)/.test(url)) continue;
      refs.push(`<${tag} ${name}="${url}">`);
    }
  }
  return refs;
}

/** The URLs of the page's dedicated workers now. */
const workerUrls = (page: Page): string[] => page.workers().map((w) => w.url());

test.describe('the offline single file from file:// with no network', () => {
  /** Every http(s) request the page made (each was aborted); a test ends with none. */
  let requested: string[] = [];

  test.beforeAll(() => {
    if (!existsSync(FILE))
      throw new Error(
        `${FILE} is missing: build the offline file first (npm run build:offline, or ` +
          `npx vite build --config vite.offline.config.ts --outDir ${OFFLINE_DIR})`,
      );
  });

  test.beforeEach(async ({ context }) => {
    requested = [];
    await context.route(/^https?:/, (route) => {
      requested.push(route.request().url());
      return route.abort();
    });
  });

  test.afterEach(() => {
    expect(requested, 'the offline page asked the network for these').toEqual([]);
  });

  test('is one file, whose markup loads nothing by URL', () => {
    expect(readdirSync(OFFLINE_DIR), `${OFFLINE_DIR} holds more than index.html`).toEqual([
      'index.html',
    ]);
    const html = readFileSync(FILE);
    expect(externalRefs(html.toString('utf8'))).toEqual([]);
    test.info().annotations.push({
      type: 'size',
      description: `${html.length} bytes, ${gzipSync(html).length} gzip`,
    });
  });

  test('draws the stage, plays, and opens the tutorial with a mermaid diagram', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto(PAGE_URL);
    await expect(page.locator('svg[data-node-count="3"]')).toBeVisible();
    // The model answers from its worker, started from a blob: URL (not the in-thread fallback).
    expect(workerUrls(page)).toEqual([expect.stringMatching(/^blob:/)]);

    await app.next();
    await app.play();
    await expect
      .poll(() => app.stepIndex(), { message: 'playing advances the step' })
      .toBeGreaterThan(0);
    await app.pause();

    await page.getByTestId('tutorial-toggle').click();
    const reader = page.getByTestId('reader');
    await expect(reader).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('chapter')).toBeVisible();

    const slug = chapterWithDiagram();
    expect(slug, 'no chapter has a mermaid diagram').toBeDefined();
    await page.goto(`${PAGE_URL}#/learn/${slug}`);
    await expect(page.getByTestId('chapter')).toHaveAttribute('data-chapter', slug ?? '');
    const figure = page.getByTestId('mermaid-diagram').first();
    await figure.scrollIntoViewIfNeeded();
    await expect(figure).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    await expect(figure.locator('svg').first()).toBeVisible();
    expect(await figure.locator('svg g').count()).toBeGreaterThan(0);
  });

  test('a share link (#s=…) to the file opens the same view, in a fresh browser', async ({
    page,
    browser,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const app = await new AppPage(page).goto(PAGE_URL);
    await app.setPolicy('Local');
    await app.goToStep(2);
    const link = await app.copyLink();
    expect(link.startsWith(`${PAGE_URL}#s=`), link).toBe(true);

    // No saved view, no network: only the link says what to show.
    const fresh = await browser.newContext();
    const blocked: string[] = [];
    await fresh.route(/^https?:/, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
    const other = await fresh.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(e.message));
    other.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    const opened = await new AppPage(other).goto(link);
    await opened.expectStep(2);
    await expect(other.locator('fieldset[data-group="policy"] input[value="Local"]')).toBeChecked();
    await fresh.close();
    expect({ blocked, errors }).toEqual({ blocked: [], errors: [] });
  });

  test('opens an example cluster from "Your cluster", checked in its worker', async ({ page }) => {
    await new AppPage(page).goto(PAGE_URL);
    const dialog = await openCluster(page);
    const select = dialog.getByLabel('Example');
    await expect(select).toBeEnabled();
    await select.selectOption({ label: 'Two ports with named targetPorts' });
    await expect(page.getByTestId('import-notice')).toContainText(
      'Applied Two ports with named targetPorts',
    );
    await expect(page.getByTestId('dial-select')).toContainText(
      'gke-web-prod-pool-1-1a7c3e90-8wq1',
    );

    // The editor shows the example's text, which the import checker (its own worker) passes.
    await openCluster(page);
    const editor = page.getByTestId('manifest-editor');
    const content = editor.locator('.cm-content');
    if (!(await content.isVisible()))
      await dialog.getByRole('button', { name: 'Paste or edit manifests' }).click();
    await expect(content).toContainText('# A GKE-style cluster: Service web/frontend');
    await expect(editor.locator('.import-summary')).toHaveAttribute('data-errors', '0');
    await expect.poll(() => workerUrls(page).length).toBe(2);
    expect(workerUrls(page).every((u) => u.startsWith('blob:'))).toBe(true);
  });

  test('computes the "Time & failures" view in its worker', async ({ page }) => {
    await new AppPage(page).goto(PAGE_URL);
    const time = new TimelinePage(page);
    await time.open();
    await expect(time.kubectl).toBeVisible();
    await time.send(1000);
    await expect.poll(() => workerUrls(page).length).toBe(2);
    expect(workerUrls(page).every((u) => u.startsWith('blob:'))).toBe(true);
  });
});
