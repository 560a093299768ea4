import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * Diagrams in the tutorial reader (src/ui/tutorial/MermaidDiagram.tsx): mermaid loads only when
 * a diagram comes near the visible area, every ```mermaid block of every chapter draws to an
 * accessible SVG, a broken diagram shows its error and source (and mermaid's own error drawing
 * never reaches the page), and changing the app's theme draws the diagrams again in it.
 * Reads content/chapters/*.md itself, so new chapters and diagrams are covered as they come.
 */

const CHAPTERS = 'content/chapters';
const OUTDIR = process.env['E2E_OUTDIR'] ?? 'dist';

interface Block {
  source: string;
  title: string;
  description: string;
}
interface ChapterFile {
  file: string;
  slug: string;
  blocks: Block[];
}

/** Every chapter with its mermaid blocks and their accTitle/accDescr (AUTHORING.md, Diagrams). */
function chapterFiles(): ChapterFile[] {
  return readdirSync(CHAPTERS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(CHAPTERS, file), 'utf8');
      const blocks = [...text.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map(
        ([, source = '']) => ({
          source,
          title: /^\s*accTitle:\s*(.+?)\s*$/m.exec(source)?.[1] ?? '',
          description: /^\s*accDescr:\s*(.+?)\s*$/m.exec(source)?.[1] ?? '',
        }),
      );
      return { file, slug: file.replace(/^\d+-/, '').replace(/\.md$/, ''), blocks };
    });
}

const withDiagrams = chapterFiles().filter((c) => c.blocks.length > 0);
const firstWithDiagram = withDiagrams[0];

async function openChapter(page: Page, slug: string): Promise<Locator> {
  await page.goto(`/#/learn/${slug}`);
  const chapter = page.locator(`[data-testid="chapter"][data-chapter="${slug}"]`);
  await expect(chapter).toBeVisible();
  return chapter;
}

/** Checks a drawn diagram's text alternative: mermaid's <title>/<desc> and our caption. */
async function expectAccessible(figure: Locator, block: Block): Promise<string> {
  const svg = figure.locator('svg').first();
  await expect(svg).toHaveAttribute('aria-labelledby', /.+/);
  await expect(svg).toHaveAttribute('aria-describedby', /.+/);
  const titleId = (await svg.getAttribute('aria-labelledby')) ?? '';
  const descId = (await svg.getAttribute('aria-describedby')) ?? '';
  await expect(svg.locator(`title[id="${titleId}"]`)).toHaveText(block.title);
  await expect(svg.locator(`desc[id="${descId}"]`)).toHaveText(block.description);
  await expect(svg).toHaveAccessibleName(block.title);
  await expect(figure.locator('figcaption')).toContainText(block.title);
  const details = figure.locator('figcaption details');
  await expect(details.locator('summary')).toHaveText('Text description');
  await details.locator('summary').click();
  await expect(details.locator('p')).toHaveText(block.description);
  return (await svg.getAttribute('aria-roledescription')) ?? '';
}

/** Nothing of mermaid's scratch work or error drawing is left in the page. */
async function expectNoMermaidLeftovers(page: Page): Promise<void> {
  await expect(page.locator('body > div[id^="dmermaid-"], body > svg[id^="mermaid-"]')).toHaveCount(
    0,
  );
  await expect(page.getByText('Syntax error in text')).toHaveCount(0);
}

test.describe('mermaid diagrams in the tutorial', () => {
  test('the book has mermaid diagrams to test', () => {
    expect(firstWithDiagram, 'no chapter has a mermaid diagram').toBeDefined();
  });

  test('mermaid loads only when a diagram comes near the visible area', async ({ page }) => {
    // A controllable IntersectionObserver: nothing intersects until the test says so.
    await page.addInitScript(() => {
      type Observer = {
        callback: IntersectionObserverCallback;
        options: IntersectionObserverInit | undefined;
        targets: Set<Element>;
      };
      const observers: Observer[] = [];
      class FakeIntersectionObserver {
        private readonly o: Observer;
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          this.o = { callback, options, targets: new Set() };
          observers.push(this.o);
        }
        observe(t: Element) {
          this.o.targets.add(t);
        }
        unobserve(t: Element) {
          this.o.targets.delete(t);
        }
        disconnect() {
          this.o.targets.clear();
        }
        takeRecords() {
          return [];
        }
      }
      Object.assign(window, {
        IntersectionObserver: FakeIntersectionObserver,
        __diagramObservers: () =>
          observers
            .filter((o) => [...o.targets].some((t) => t.matches('[data-testid="mermaid-diagram"]')))
            .map((o) => ({
              rootMargin: o.options?.rootMargin ?? '',
              root: o.options?.root instanceof Element ? o.options.root.className : null,
            })),
        __revealDiagrams: () => {
          for (const o of observers) {
            const hits = [...o.targets].filter((t) => t.matches('[data-testid="mermaid-diagram"]'));
            if (hits.length)
              o.callback(
                hits.map(
                  (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
                ),
                o as unknown as IntersectionObserver,
              );
          }
        },
      });
    });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });

    // Before the reader opens: no mermaid (e2e/budget.spec.ts checks the built files too).
    await page.goto('/');
    await expect(page.getByTestId('app')).toBeVisible();
    expect(scripts.filter((s) => /mermaid/.test(s))).toEqual([]);

    const chapter = await openChapter(page, firstWithDiagram!.slug);
    const figure = chapter.getByTestId('mermaid-diagram').first();
    await expect(figure).toHaveAttribute('data-state', 'loading');
    await expect(figure).toHaveAttribute('aria-busy', 'true');
    await expect(figure).toContainText('Loading diagram…');
    // The placeholder holds a diagram's worth of room, so text does not jump when it arrives.
    expect((await figure.locator('.mermaid-placeholder').boundingBox())?.height).toBeGreaterThan(
      150,
    );
    const observers = (await page.evaluate('window.__diagramObservers()')) as {
      rootMargin: string;
      root: string | null;
    }[];
    expect(observers.length).toBeGreaterThan(0);
    // Observed against the reader's own scroll box, with a margin so it loads before it shows.
    expect(observers[0]).toEqual({
      rootMargin: '400px 0px',
      root: expect.stringMatching(/reader/),
    });
    const beforeReveal = scripts.length;
    expect(scripts.filter((s) => /mermaid/.test(s))).toEqual([]);

    await page.evaluate('window.__revealDiagrams()');
    await expect(figure).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    await expect(figure).toHaveAttribute('aria-busy', 'false');
    const loaded = scripts.slice(beforeReveal);
    expect(loaded.some((s) => /mermaid\.esm/.test(s))).toBe(true);

    // For the record: what the first diagram cost, gzip -9 of the files it fetched.
    const sizes = loaded.map((s) => {
      const bytes = gzipSync(readFileSync(join(OUTDIR, s)), { level: 9 }).length;
      return `${basename(s)} ${bytes}`;
    });
    const total = loaded.reduce(
      (sum, s) => sum + gzipSync(readFileSync(join(OUTDIR, s)), { level: 9 }).length,
      0,
    );
    test.info().annotations.push({ type: 'mermaid-js-gzip-bytes', description: String(total) });
    console.log(
      `first diagram loaded ${loaded.length} scripts, ${total} bytes gzip:\n  ${sizes.join('\n  ')}`,
    );
  });

  test('draws at once where IntersectionObserver is missing', async ({ page }) => {
    await page.addInitScript(() => {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    });
    const chapter = await openChapter(page, firstWithDiagram!.slug);
    const figure = chapter.getByTestId('mermaid-diagram').first();
    await expect(figure).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    await expect(figure.locator('svg').first()).toBeVisible();
  });

  test('every mermaid block in every chapter draws an accessible SVG', async ({ page }) => {
    test.setTimeout(30_000 + 15_000 * withDiagrams.length);
    const kinds = new Set<string>();
    for (const { slug, blocks } of withDiagrams) {
      const chapter = await openChapter(page, slug);
      const figures = chapter.getByTestId('mermaid-diagram');
      await expect(figures, slug).toHaveCount(blocks.length);
      for (const [i, block] of blocks.entries()) {
        const figure = figures.nth(i);
        await figure.scrollIntoViewIfNeeded();
        await expect(figure, `${slug} diagram ${i + 1}`).toHaveAttribute('data-state', 'rendered', {
          timeout: 15_000,
        });
        await expect(figure.locator('svg').first()).toBeVisible();
        kinds.add(await expectAccessible(figure, block));
      }
      await expectNoMermaidLeftovers(page);
    }
    test.info().annotations.push({ type: 'diagram-kinds', description: [...kinds].join(', ') });
  });

  test('a broken diagram shows its error and source; a sequence diagram is accessible', async ({
    page,
  }) => {
    const { file, slug, blocks } = firstWithDiagram!;
    const broken = [
      'flowchart LR',
      '  accTitle: A diagram with a mistake',
      '  accDescr: Two boxes joined by an arrow that points nowhere.',
      '  A[Client] --> --> B[Balancer]',
    ].join('\n');
    const sequence: Block = {
      source: [
        'sequenceDiagram',
        '  accTitle: A SYN through DNAT',
        '  accDescr: The client sends a SYN to the load balancer; the node rewrites it to a Pod.',
        '  participant C as Client',
        '  participant N as node-1',
        '  C->>N: SYN to 203.0.113.7:80',
        '  N->>N: DNAT to 10.244.1.5:8080',
      ].join('\n'),
      title: 'A SYN through DNAT',
      description: 'The client sends a SYN to the load balancer; the node rewrites it to a Pod.',
    };
    const extra = `\`\`\`mermaid\n${broken}\n\`\`\`\n\n\`\`\`mermaid\n${sequence.source}\n\`\`\`\n\n`;
    // Put two more blocks in front of the chapter's first diagram, in its built text chunk.
    let patchedChunks = 0;
    await page.route(`**/assets/${basename(file, '.md')}-*.js`, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      const template = '\\`\\`\\`mermaid'; // the chunk is a template literal: `…\`\`\`mermaid…`
      const json = '```mermaid\\n'; // or a JSON-style string: "…```mermaid\n…"
      let patched: string;
      if (body.includes(template))
        patched = body.replace(template, extra.replace(/`/g, '\\`') + template);
      else if (body.includes(json))
        patched = body.replace(json, extra.replace(/\n/g, '\\n') + json);
      else throw new Error(`cannot find the mermaid block in the chunk of ${file}`);
      patchedChunks += 1;
      await route.fulfill({ response, body: patched });
    });

    const chapter = await openChapter(page, slug);
    expect(patchedChunks, `the chapter's text chunk (assets/${basename(file, '.md')}-*.js)`).toBe(
      1,
    );
    const figures = chapter.getByTestId('mermaid-diagram');
    await expect(figures).toHaveCount(blocks.length + 2);

    const bad = figures.nth(0);
    await bad.scrollIntoViewIfNeeded();
    await expect(bad).toHaveAttribute('data-state', 'error', { timeout: 15_000 });
    await expect(bad).toHaveAttribute('aria-busy', 'false');
    const box = bad.getByRole('region', { name: 'This diagram could not be drawn' });
    await expect(box).toBeVisible();
    await expect(
      box.getByRole('heading', { name: 'This diagram could not be drawn' }),
    ).toBeVisible();
    await expect(box.locator('.mermaid-error-message')).toContainText(/Parse error on line 4/);
    await expect(box.locator('pre code')).toHaveText(broken);
    await expect(bad.locator('svg')).toHaveCount(0);
    // Not an alert: the reader is not interrupted.
    await expect(bad.getByRole('alert')).toHaveCount(0);
    // Its text alternative is still offered.
    await expect(bad.locator('figcaption')).toContainText('A diagram with a mistake');

    const seq = figures.nth(1);
    await seq.scrollIntoViewIfNeeded();
    await expect(seq).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    expect(await expectAccessible(seq, sequence)).toBe('sequence');

    const flow = figures.nth(2);
    await flow.scrollIntoViewIfNeeded();
    await expect(flow).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    expect(await expectAccessible(flow, blocks[0]!)).toBe('flowchart-v2');
    await expectNoMermaidLeftovers(page);
  });

  test("switching the app's theme draws the diagrams again in it", async ({ page }) => {
    const { slug } = firstWithDiagram!;
    await page.goto('/');
    await page.getByLabel('Theme').selectOption('light');
    const chapter = await openChapter(page, slug);
    const figure = chapter.getByTestId('mermaid-diagram').first();
    await figure.scrollIntoViewIfNeeded();
    await expect(figure).toHaveAttribute('data-state', 'rendered', { timeout: 15_000 });
    await expect(figure).toHaveAttribute('data-theme', 'light');
    const lightId = await figure.locator('svg').first().getAttribute('id');
    // mermaid's "default" theme fills nodes #ECECFF; its "dark" theme uses #1f2020.
    await expect(figure.locator('svg style').first()).toContainText(/#ECECFF/i);

    await page.getByLabel('Theme').selectOption('dark');
    await expect(figure).toHaveAttribute('data-theme', 'dark', { timeout: 15_000 });
    await expect(figure).toHaveAttribute('data-state', 'rendered');
    const svg = figure.locator('svg').first();
    expect(await svg.getAttribute('id')).not.toBe(lightId);
    await expect(figure.locator('svg style').first()).toContainText(/#1f2020/i);
    await expect(figure.locator('svg style').first()).not.toContainText(/#ECECFF/i);

    // "System" follows the browser's colour scheme.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Theme').selectOption('system');
    await expect(figure).toHaveAttribute('data-theme', 'light', { timeout: 15_000 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(figure).toHaveAttribute('data-theme', 'dark', { timeout: 15_000 });
    await expectNoMermaidLeftovers(page);
  });
});
