import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { TutorialPage } from './pages/tutorial';
import type { AppSceneState } from './pages/tutorial';
import {
  answerQuestion,
  extractBlocks,
  parseChapter,
  parseGlossary,
  parseQuestion,
  questionOptions,
  resolveSceneQuery,
} from '../src/tutorial';
import type { Chapter, ResolvedScene } from '../src/tutorial';
import { diskScenarioLoader } from '../src/tutorial/node';
import { decodeState } from '../src/store/share/link';
import type { SharedState } from '../src/store/share/link';

/**
 * The tutorial reader, as a learner uses it: every chapter in content/chapters opens at its deep
 * link and renders; every scene link puts the visualiser in exactly the state that the
 * tutorial's own resolver computes for it; questions say "Right" for the model's answer and
 * "Not quite" otherwise; deep links, contents, previous/next, progress and the layout work; the
 * address bar shows the reader's place while the share link stays the visualiser's.
 */
test.use({ reducedMotion: 'reduce' });

const ROOT = process.cwd();
const CHAPTER_DIR = join(ROOT, 'content', 'chapters');
const loadScenario = diskScenarioLoader(ROOT);

/** Every chapter file, read from the folder (not from a list that could go stale). */
const FILES = readdirSync(CHAPTER_DIR)
  .filter((f) => f.endsWith('.md'))
  .sort();

function chapterOf(file: string): { chapter?: Chapter; problems: string[] } {
  const r = parseChapter(`content/chapters/${file}`, readFileSync(join(CHAPTER_DIR, file), 'utf8'));
  return {
    ...(r.chapter ? { chapter: r.chapter } : {}),
    problems: r.problems.map((p) => p.message),
  };
}

const CHAPTERS = FILES.map((f) => chapterOf(f).chapter).filter((c): c is Chapter => !!c);
CHAPTERS.sort((a, b) => a.order - b.order);

/** The resolver's answer for a scene query (what the app must show after the link). */
function resolve(query: string): ResolvedScene {
  const r = resolveSceneQuery(query, { loadScenario });
  if (!r.ok) throw new Error(`scene:${query} does not resolve: ${JSON.stringify(r.errors)}`);
  return r.scene;
}

/** A resolved view as the app root's data-* attributes show it. */
function expectedState(view: SharedState): AppSceneState {
  const { scene } = view;
  return {
    step: String(view.step),
    policy: scene.externalTrafficPolicy,
    ipMode: scene.ipMode,
    delivery: scene.delivery,
    published: String(scene.published),
    failedNodes: scene.failedNodes.join(','),
    client: scene.client,
    dial: scene.dial.kind === 'NodePort' ? `NodePort:${scene.dial.nodeName}` : scene.dial.kind,
    proxyMode: scene.proxyMode ?? '',
    seed: String(scene.seed),
    lbTarget: scene.choices.lbTarget ?? '',
    endpoint: scene.choices.endpoint ?? '',
  };
}

test.describe('every chapter', () => {
  test('the folder holds chapters and each one parses', () => {
    expect(FILES.length).toBeGreaterThan(0);
    for (const f of FILES) expect(chapterOf(f).problems, f).toEqual([]);
  });

  for (const file of FILES) {
    const slug = file.replace(/^\d+-/, '').replace(/\.md$/, '');

    test(`${slug}: opens at #/learn/${slug} with its title, nothing broken`, async ({ page }) => {
      const { chapter } = chapterOf(file);
      expect(chapter, `${file} parses`).toBeDefined();
      const t = await new TutorialPage(page).goto(slug);
      await t.expectChapter(slug);
      await expect(t.title).toHaveText(chapter!.title);
      await expect(t.title).toBeFocused();
      await expect(page).toHaveURL(new RegExp(`#/learn/${slug}$`));
      await expect(t.chapter.locator('[data-scene-state="error"]')).toHaveCount(0);
      await expect(t.chapter.locator('.question.broken, .embed-broken')).toHaveCount(0);
      // Every heading of the chapter has its id (GitHub-style, as the tutorial computes it).
      for (const h of chapter!.headings.filter((x) => x.depth >= 2))
        await expect(t.chapter.locator(`#learn-${h.id}`)).toHaveText(new RegExp(escape(h.text)));
    });

    test(`${slug}: every scene link opens the state it names`, async ({ page }) => {
      const { chapter } = chapterOf(file);
      expect(chapter).toBeDefined();
      const t = await new TutorialPage(page).goto(slug);
      await t.expectChapter(slug);
      const links = t.sceneLinks();
      const queries = await links.evaluateAll((els) =>
        els.map((e) => e.getAttribute('data-scene-query') ?? ''),
      );
      // Every scene link of the Markdown is on the page as a button.
      const written = extractBlocks(chapter!.body, chapter!.bodyLine)
        .sceneLinks.filter((l) => l.text !== '')
        .map((l) => l.query);
      for (const q of written) expect(queries, `scene:${q} is rendered`).toContain(q);
      for (const [i, query] of queries.entries()) {
        const expected = expectedState(resolve(query).state);
        await links.nth(i).click();
        await t.expectAppState(expected);
        await expect(t.status).toContainText('The visualiser now shows');
      }
    });

    test(`${slug}: questions say Right for the model's answer, Not quite otherwise`, async ({
      page,
    }) => {
      const { chapter } = chapterOf(file);
      expect(chapter).toBeDefined();
      const blocks = extractBlocks(chapter!.body, chapter!.bodyLine).questions;
      test.skip(blocks.length === 0, 'this chapter has no question');
      const t = await new TutorialPage(page).goto(slug);
      await t.expectChapter(slug);
      for (const block of blocks) {
        const { question } = parseQuestion(block, chapter!.file);
        expect(question).toBeDefined();
        const q = question!;
        const { result } = resolve(q.scene);
        const options = questionOptions(q, result);
        const right = answerQuestion(q, result);
        expect(right, `${q.id} has an answer`).not.toBeNull();
        const card = t.question(q.id);
        await expect(card).toHaveAttribute('data-answer-state', 'unanswered');
        await expect(card.locator('input[type="radio"]')).toHaveCount(options.length);
        const wrong = options.find((o) => o.id !== right)!;
        expect(await t.answer(q.id, wrong.id)).toBe('wrong');
        const label = options.find((o) => o.id === right)!.label;
        await expect(card.getByTestId('question-feedback')).toContainText('Not quite');
        await expect(card.getByTestId('question-feedback')).toContainText(label);
        expect(await t.answer(q.id, right!)).toBe('right');
        await expect(card.getByTestId('question-feedback')).toContainText('Right');
        if (q.explain)
          await expect(card.getByTestId('question-feedback')).toContainText(q.explain.slice(0, 40));
      }
    });
  }
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const FIRST = CHAPTERS[0]!;
const SECOND = CHAPTERS[1]!;

test('a chapter opened from its link sets the visualiser to its front-matter scene', async ({
  page,
}) => {
  const withScene = CHAPTERS.find((c) => c.scene !== undefined);
  test.skip(!withScene, 'no chapter names a scene');
  const t = await new TutorialPage(page).goto(withScene!.slug);
  await t.expectChapter(withScene!.slug);
  await t.expectAppState(expectedState(resolve(withScene!.scene!).state));
});

test('deep link to a section scrolls it into view and focuses it', async ({ page }) => {
  const chapter = [...CHAPTERS].sort((a, b) => b.headings.length - a.headings.length)[0]!;
  const section = chapter.headings.filter((h) => h.depth >= 2).at(-1)!;
  const t = await new TutorialPage(page).goto(`${chapter.slug}/${section.id}`);
  await t.expectChapter(chapter.slug);
  const heading = page.locator(`#learn-${section.id}`);
  await expect(heading).toBeInViewport();
  await expect(heading).toBeFocused();
  // Its permalink is the same deep link.
  await expect(heading.locator('a.permalink')).toHaveAttribute(
    'href',
    `#/learn/${chapter.slug}/${section.id}`,
  );
});

test('contents, previous/next, Back and progress survive a reload', async ({ page }) => {
  const t = await new TutorialPage(page).goto();
  // #/learn opens the first chapter (no progress yet) and says so in the address bar.
  await t.expectChapter(FIRST.slug);
  await expect(page).toHaveURL(new RegExp(`#/learn/${FIRST.slug}$`));
  await expect(t.progress).toHaveText(`0 of ${CHAPTERS.length} read`);
  await t.openContents();
  await expect(t.toc.locator('a')).toHaveCount(CHAPTERS.length);
  await expect(t.tocEntry(FIRST.slug).locator('a')).toHaveAttribute('aria-current', 'page');

  // Reading to the end marks the chapter read: ✓ and the word "read".
  const next = page.getByTestId('next-chapter');
  await next.scrollIntoViewIfNeeded();
  await expect(t.tocEntry(FIRST.slug)).toHaveAttribute('data-read', 'true');
  await expect(t.tocEntry(FIRST.slug)).toContainText('✓ read');
  await expect(t.progress).toHaveText(`1 of ${CHAPTERS.length} read`);
  await expect(page.getByTestId('prev-chapter')).toHaveCount(0);

  await next.click();
  await t.expectChapter(SECOND.slug);
  await expect(t.title).toBeFocused();
  await expect(page.getByTestId('prev-chapter')).toContainText(FIRST.title);
  await t.openContents();
  await expect(t.tocEntry(SECOND.slug).locator('a')).toHaveAttribute('aria-current', 'page');

  // Back and forward move between chapters.
  await page.goBack();
  await t.expectChapter(FIRST.slug);
  await page.goForward();
  await t.expectChapter(SECOND.slug);

  await page.reload();
  await expect(t.reader).toHaveAttribute('data-state', 'ready');
  await t.expectChapter(SECOND.slug);
  await expect(t.progress).toHaveText(`1 of ${CHAPTERS.length} read`);
  await t.openContents();
  await expect(t.tocEntry(FIRST.slug)).toContainText('✓ read');
  await expect(t.tocEntry(SECOND.slug)).toHaveAttribute('data-read', 'false');

  // Closing gives the address bar back to the visualiser; reopening resumes where it was.
  await t.toggle.click();
  await expect(t.reader).toHaveCount(0);
  await expect(t.app).toHaveAttribute('data-reading', 'false');
  await expect.poll(() => page.evaluate(() => location.hash)).not.toMatch(/^#\/learn/);
  await t.toggle.focus();
  await page.keyboard.press('Enter');
  await expect(t.reader).toHaveAttribute('data-state', 'ready');
  await t.expectChapter(SECOND.slug);
  await expect(page).toHaveURL(new RegExp(`#/learn/${SECOND.slug}$`));
});

test('a bad chapter link says so and offers the contents', async ({ page }) => {
  const t = await new TutorialPage(page).goto('no-such-chapter');
  const missing = page.getByTestId('chapter-not-found');
  await expect(missing).toContainText('No such chapter');
  await expect(missing).toContainText('no-such-chapter');
  await expect(t.toc).toBeVisible();
  await expect(t.toc.locator('a')).toHaveCount(CHAPTERS.length);
  await t.toc.locator('a').first().click();
  await t.expectChapter(FIRST.slug);
});

test('answers are remembered, and Show me plays the scene in the visualiser', async ({ page }) => {
  const chapter = CHAPTERS.find((c) => extractBlocks(c.body).questions.length > 0);
  test.skip(!chapter, 'no chapter has a question');
  const block = extractBlocks(chapter!.body, chapter!.bodyLine).questions[0]!;
  const q = parseQuestion(block, chapter!.file).question!;
  const { state, result } = resolve(q.scene);
  const right = answerQuestion(q, result)!;
  const t = await new TutorialPage(page).goto(chapter!.slug);
  await t.expectChapter(chapter!.slug);
  expect(await t.answer(q.id, right)).toBe('right');
  await page.reload();
  await t.expectChapter(chapter!.slug);
  await expect(t.question(q.id)).toHaveAttribute('data-answer-state', 'right');
  await expect(t.question(q.id).locator(`input[value="${right}"]`)).toBeChecked();

  await t
    .question(q.id)
    .getByRole('button', { name: /Show me/ })
    .click();
  const { step: _step, ...scene } = expectedState(state);
  await t.expectAppState(scene);
  // It plays from the first step on.
  await expect(page.locator('main.layout [data-command="play-pause"]')).toHaveAccessibleName(
    'Pause',
  );
  expect(result.trace.steps.length).toBeGreaterThan(1);
  await expect(t.app).toHaveAttribute('data-step-index', '1');
});

test('a live scene steps on its own, keeps its keys, and opens in the visualiser', async ({
  page,
}) => {
  const chapter = CHAPTERS.find((c) => extractBlocks(c.body).sceneBlocks.length > 0);
  test.skip(!chapter, 'no chapter has a live scene');
  const t = await new TutorialPage(page).goto(chapter!.slug);
  await t.expectChapter(chapter!.slug);
  const embed = t.chapter.getByTestId('scene-embed').first();
  await expect(embed).toHaveAttribute('data-scene-state', 'ok');
  const query = (await embed.getAttribute('data-scene-query')) ?? '';
  const { state } = resolve(query);
  const player = embed.locator('.embed-player');
  await expect(player).toHaveAttribute('data-step-index', String(state.step));
  const mainStep = await t.app.getAttribute('data-step-index');

  const prev = embed.locator('[data-embed-command="prev"]');
  test.skip(state.step < 0, 'the live scene starts before its first step');
  await prev.click();
  await expect(player).toHaveAttribute('data-step-index', String(state.step - 1));
  // The arrow keys step the live scene, not the page's visualiser.
  await embed.locator('.embed-drawing').focus();
  await page.keyboard.press('ArrowRight');
  await expect(player).toHaveAttribute('data-step-index', String(state.step));
  await page.keyboard.press('Home');
  await expect(player).toHaveAttribute('data-step-index', '-1');
  await expect(t.app).toHaveAttribute('data-step-index', mainStep ?? '');

  await embed.locator('[data-embed-command="open"]').click();
  await t.expectAppState({ ...expectedState(state), step: '-1' });
});

test('glossary: terms link to their entry, the page lists them all alphabetically', async ({
  page,
}) => {
  const glossary = parseGlossary(readFileSync(join(ROOT, 'content', 'glossary.yaml'), 'utf8'));
  expect(glossary.entries.length).toBeGreaterThan(0);
  const t = await new TutorialPage(page).goto(FIRST.slug);
  await t.expectChapter(FIRST.slug);
  const term = t.chapter.locator('a.term-link').first();
  await expect(term).toHaveAttribute('title', /\S/);
  const id = (await term.getAttribute('data-term')) ?? '';
  // Keyboard focus shows the definition as a popover that describes the link.
  await term.focus();
  await expect(t.chapter.locator('.term-tip:visible')).toHaveCount(1);
  await term.click();
  await expect(page).toHaveURL(new RegExp(`#/learn/glossary/${id}$`));
  const glossaryPage = page.getByTestId('glossary');
  await expect(glossaryPage).toHaveAttribute('data-term', id);
  await expect(page.locator(`#learn-term-${id}`)).toBeInViewport();
  const terms = await glossaryPage.locator('.glossary-term').allTextContents();
  expect(terms).toHaveLength(glossary.entries.length);
  expect(terms).toEqual(
    [...terms].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
  );
  await page.goBack();
  await t.expectChapter(FIRST.slug);
});

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).boundingBox();
  expect(b, selector).not.toBeNull();
  return b!;
}

test('wide screens: reader left, visualiser right; narrow: stacked; closed: full width', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const t = await new TutorialPage(page).goto(FIRST.slug);
  await t.expectChapter(FIRST.slug);
  let reader = await box(page, '[data-testid="reader"]');
  let vis = await box(page, 'main.layout');
  expect(reader.x + reader.width).toBeLessThanOrEqual(vis.x);
  const share = reader.width / (reader.width + vis.width);
  expect(share).toBeGreaterThan(0.35);
  expect(share).toBeLessThan(0.45);
  // The reader scrolls on its own; the visualiser stays usable beside it.
  expect(await t.reader.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await expect(page.locator('main.layout [data-command="next"]')).toBeInViewport();

  await page.setViewportSize({ width: 900, height: 900 });
  reader = await box(page, '[data-testid="reader"]');
  vis = await box(page, 'main.layout');
  expect(reader.y + reader.height).toBeLessThanOrEqual(vis.y);
  expect(Math.abs(reader.width - vis.width)).toBeLessThan(2);

  await page.setViewportSize({ width: 1440, height: 900 });
  await t.toggle.click();
  await expect(t.reader).toHaveCount(0);
  vis = await box(page, 'main.layout');
  const header = await box(page, 'header.app-header');
  expect(vis.width).toBeGreaterThan(header.width - 2);
});

test.describe('the address bar and the share link', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('the reader keeps #/learn in the address bar; Copy link is the visualiser’s', async ({
    page,
  }) => {
    const t = await new TutorialPage(page).goto(FIRST.slug);
    await t.expectChapter(FIRST.slug);
    const link = t.sceneLinks().last();
    const query = (await link.getAttribute('data-scene-query')) ?? '';
    const expected = resolve(query).state;
    await link.click();
    await t.expectAppState(expectedState(expected));
    // The view is still saved (debounced) …
    await expect
      .poll(() =>
        page.evaluate(() => {
          const saved = JSON.parse(localStorage.getItem('lbpath.v1.state') ?? 'null') as {
            step?: number;
            scene?: { externalTrafficPolicy?: string; seed?: number };
          } | null;
          return saved && [saved.step, saved.scene?.externalTrafficPolicy, saved.scene?.seed];
        }),
      )
      .toEqual([expected.step, expected.scene.externalTrafficPolicy, expected.scene.seed]);
    // … but the address bar keeps the reader's place.
    expect(await page.evaluate(() => location.hash)).toBe(`#/learn/${FIRST.slug}`);

    await page.getByRole('button', { name: 'Copy link to this view' }).click();
    await expect(page.getByTestId('share-status')).toHaveText('Link copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const decoded = decodeState(new URL(copied).hash);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(decoded.state.scene).toEqual(expected.scene);
      expect(decoded.state.step).toBe(expected.step);
    }

    // Closing the reader puts the visualiser's link in the address bar.
    await page.getByRole('button', { name: 'Close the tutorial' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
  });

  test('Back out of the reader keeps the scene a link opened', async ({ page }) => {
    await page.goto('/');
    const t = new TutorialPage(page);
    await expect(t.app).toHaveAttribute('data-step-count', /^\d+$/);
    await t.toggle.click();
    await expect(t.reader).toHaveAttribute('data-state', 'ready');
    await t.expectChapter(FIRST.slug);
    const link = t.sceneLinks().last();
    const expected = expectedState(
      resolve((await link.getAttribute('data-scene-query')) ?? '').state,
    );
    await link.click();
    await t.expectAppState(expected);
    await page.goBack();
    await expect(t.reader).toHaveCount(0);
    await t.expectAppState(expected);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
    const decoded = decodeState(await page.evaluate(() => location.hash));
    expect(decoded.ok && String(decoded.state.step)).toBe(expected.step);
  });
});
