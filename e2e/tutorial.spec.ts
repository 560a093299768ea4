import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openCluster } from './pages/cluster';
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
      // A link draws its own ▶: one the author wrote is not doubled ("▶ ▶ step 3").
      const linkTexts = await t.chapter
        .locator('button.scene-link, button.time-link')
        .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      for (const text of linkTexts) expect(text).not.toMatch(/▶\s*▶/);
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

    // Only chapters with questions get this test (the unit tests require them in core chapters).
    const parsed = chapterOf(file).chapter;
    const hasQuestions =
      parsed !== undefined && extractBlocks(parsed.body, parsed.bodyLine).questions.length > 0;
    if (hasQuestions)
      test(`${slug}: questions say Right for the model's answer, Not quite otherwise`, async ({
        page,
      }) => {
        const { chapter } = chapterOf(file);
        expect(chapter).toBeDefined();
        const blocks = extractBlocks(chapter!.body, chapter!.bodyLine).questions;
        expect(blocks.length).toBeGreaterThan(0);
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
            await expect(card.getByTestId('question-feedback')).toContainText(
              q.explain.slice(0, 40),
            );
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
  expect(withScene, 'no chapter names a scene').toBeDefined();
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

  // Reading to the end — the wheel over the reader, which scrolls its own box, not the window —
  // marks the chapter read: ✓ and the word "read". The end of the chapter is then on screen.
  const next = page.getByTestId('next-chapter');
  await expect(t.tocEntry(FIRST.slug)).toHaveAttribute('data-read', 'false');
  await t.wheelReaderToEnd();
  await expect(next).toBeInViewport();
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
  expect(chapter, 'no chapter has a question').toBeDefined();
  const block = extractBlocks(chapter!.body, chapter!.bodyLine).questions[0]!;
  const q = parseQuestion(block, chapter!.file).question!;
  const { state, result } = resolve(q.scene);
  const right = answerQuestion(q, result)!;
  const t = await new TutorialPage(page).goto(chapter!.slug);
  await t.expectChapter(chapter!.slug);
  // Show me waits for the learner's prediction: disabled (with a hint) until then.
  const showMe = t.question(q.id).getByRole('button', { name: /Show me/ });
  await expect(showMe).toHaveAttribute('aria-disabled', 'true');
  await expect(showMe).toHaveAccessibleDescription(/Answer first/);
  const before = await t.appState();
  // (force: Playwright itself would refuse to press a button marked aria-disabled.)
  await showMe.click({ force: true });
  expect(await t.appState()).toEqual(before);
  expect(await t.answer(q.id, right)).toBe('right');
  await expect(showMe).not.toHaveAttribute('aria-disabled', 'true');
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
  expect(chapter, 'no chapter has a live scene').toBeDefined();
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
  expect(
    state.step,
    'the first live scene must start at a step, to step back from',
  ).toBeGreaterThanOrEqual(0);
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

// FIXME (known regression, in the stage issue's closing note): since the stage sizes itself to
// its box, Back from the glossary lands ~340 px off the place read (the chapter's live scenes
// redraw to their measured width just after the place is restored). Everything else this test
// checks still holds; re-enable when the restore accounts for the late resize.
test.fixme('glossary: a term opens its definition in place; the page lists them all; Back keeps the place', async ({
  page,
}) => {
  const glossary = parseGlossary(readFileSync(join(ROOT, 'content', 'glossary.yaml'), 'utf8'));
  expect(glossary.entries.length).toBeGreaterThan(0);
  const t = await new TutorialPage(page).goto(FIRST.slug);
  await t.expectChapter(FIRST.slug);
  // A term well down the chapter, so the place to come back to is not the top.
  await t.wheelReaderToEnd();
  const term = t.chapter.locator('button.term-link').last();
  await term.scrollIntoViewIfNeeded();
  const id = (await term.getAttribute('data-term')) ?? '';
  const entry = glossary.entries.find((e) => e.id === id);
  expect(entry, id).toBeDefined();
  const tip = t.chapter.locator(`#${await term.getAttribute('aria-controls')}`);
  await expect(tip).toBeHidden();
  // Click (or Enter) shows the definition next to the word; Esc closes it, focus stays on it.
  await term.click();
  await expect(term).toHaveAttribute('aria-expanded', 'true');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(entry!.term);
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  await expect(term).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(tip).toBeVisible();
  // Its "Glossary →" link opens the page at the term.
  const { top } = await t.readerScroll();
  expect(top).toBeGreaterThan(200);
  await tip.getByRole('link', { name: /Glossary/ }).click();
  await expect(page).toHaveURL(new RegExp(`#/learn/glossary/${id}$`));
  const glossaryPage = page.getByTestId('glossary');
  await expect(glossaryPage).toHaveAttribute('data-term', id);
  await expect(page.locator(`#learn-term-${id}`)).toBeInViewport();
  await expect(page.locator(`#learn-term-${id}`)).toBeFocused();
  // The contents stay folded, so the glossary starts at the top.
  await expect(t.contents).not.toHaveAttribute('open', '');
  const terms = await glossaryPage.locator('.glossary-term').allTextContents();
  expect(terms).toHaveLength(glossary.entries.length);
  expect(terms).toEqual(
    [...terms].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
  );
  // Back: the chapter where it was read, not at its top.
  await page.goBack();
  await t.expectChapter(FIRST.slug);
  await expect.poll(async () => Math.abs((await t.readerScroll()).top - top)).toBeLessThan(40);
  // The glossary's own "Back to …" link does the same.
  await page.goForward();
  await expect(glossaryPage).toHaveAttribute('data-term', id);
  await glossaryPage.getByRole('link', { name: /Back to/ }).click();
  await t.expectChapter(FIRST.slug);
  await expect.poll(async () => Math.abs((await t.readerScroll()).top - top)).toBeLessThan(40);
});

test('glossary deep links find a term in any case; unknown terms and sections say so', async ({
  page,
}) => {
  const t = new TutorialPage(page);
  await t.goto('glossary/healthCheckNodePort');
  const glossaryPage = page.getByTestId('glossary');
  await expect(glossaryPage).toHaveAttribute('data-term', 'healthchecknodeport');
  await expect(page.locator('#learn-term-healthchecknodeport')).toBeFocused();
  await expect(page.locator('#learn-term-healthchecknodeport')).toBeInViewport();
  await expect(page.getByTestId('term-not-found')).toHaveCount(0);

  await t.goto('glossary/no-such-term');
  await expect(page.getByTestId('term-not-found')).toContainText('no-such-term');
  await expect(glossaryPage.locator('.glossary-term').first()).toBeVisible();

  await t.goto(`${FIRST.slug}/no-such-section`);
  await t.expectChapter(FIRST.slug);
  await expect(page.getByTestId('section-not-found')).toContainText('no-such-section');
  await expect(t.title).toBeFocused();
});

test('glossary links: terms written as code are linked, product names are not', async ({
  page,
}) => {
  // traffic-policy writes `spec.externalTrafficPolicy` in code; clouds names AWS's "Network Load
  // Balancer", which is a product, not the glossary's generic "load balancer".
  const t = await new TutorialPage(page).goto('traffic-policy');
  await t.expectChapter('traffic-policy');
  await expect(t.chapter.locator('button.term-link[data-term="externaltrafficpolicy"]')).toHaveText(
    'spec.externalTrafficPolicy',
  );
  await t.goto('clouds');
  await t.expectChapter('clouds');
  const lb = await t.chapter
    .locator('button.term-link[data-term="load-balancer"]')
    .evaluateAll((els) => els.map((e) => e.closest('p, td, li')?.textContent ?? ''));
  for (const context of lb) expect(context).not.toMatch(/Load Balancer/);
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

for (const size of [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
]) {
  test(`${size.width}×${size.height}: the whole reader and the stage are on screen while reading`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const t = await new TutorialPage(page).goto('traffic-policy');
    await t.expectChapter('traffic-policy');
    // The reader ends inside the window; its status line and the stage are on screen.
    const reader = await box(page, '[data-testid="reader"]');
    expect(reader.y).toBeGreaterThanOrEqual(0);
    expect(reader.y + reader.height).toBeLessThanOrEqual(size.height);
    await expect(t.stage).toBeInViewport({ ratio: 1 });
    // A scene link deep in the chapter, pressed from the keyboard: the drawing stays in view.
    const link = t.sceneLinks().nth(4);
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(t.status).toContainText('The visualiser now shows');
    await expect(t.status).toBeInViewport();
    await expect(t.stage).toBeInViewport({ ratio: 1 });
    await expect(link).toBeInViewport();
    // The end of the chapter is reachable by reading on.
    await t.wheelReaderToEnd();
    await expect(page.getByTestId('next-chapter')).toBeInViewport();
    await expect(t.stage).toBeInViewport({ ratio: 1 });
    await expect(t.reader).toHaveAttribute('data-read-count', '1');
  });
}

test('stacked (900 px): a scene link or Show me brings the drawing into view', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 900 });
  const t = await new TutorialPage(page).goto('traffic-policy');
  await t.expectChapter('traffic-policy');
  await expect(t.stage).not.toBeInViewport({ ratio: 1 });
  const link = t.sceneLinks().nth(2);
  await link.click();
  await expect(t.status).toContainText('The visualiser now shows');
  await expect(t.stage).toBeInViewport({ ratio: 1 });
  // The link pressed is still in view above it, in what shows of the reader.
  await expect(link).toBeInViewport();
  // Back to the text, then Show me after answering: the drawing comes into view again.
  await page.evaluate(() => window.scrollTo(0, 0));
  const q = t.chapter.locator('[data-testid="question"]').first();
  const id = (await q.getAttribute('data-question-id')) ?? '';
  await t.answer(id, (await q.locator('input[type="radio"]').first().getAttribute('value')) ?? '');
  await q.getByRole('button', { name: /Show me/ }).click();
  await expect(t.stage).toBeInViewport({ ratio: 1 });
});

test('stacked (900 px): a time link brings the Time & failures drawing into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 900, height: 900 });
  const t = await new TutorialPage(page).goto('health-checks');
  await t.expectChapter('health-checks');
  const link = t.chapter.locator('button.time-link[data-time-query]').first();
  await expect(link).toHaveAttribute('data-time-state', 'ok');
  await link.click();
  const stage = page.locator('main.time-layout .area-stage');
  await expect(page.getByTestId('time-view')).toHaveAttribute('data-state', 'ready', {
    timeout: 15_000,
  });
  await expect(stage).toBeInViewport({ ratio: 0.9 });
  await expect(t.status).toContainText('The Time & failures view now shows');
});

test('in the reader’s text the scrolling keys scroll it; the player’s keys wait for Esc', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const t = await new TutorialPage(page).goto('traffic-policy');
  await t.expectChapter('traffic-policy');
  const before = await t.appState();
  // Click the text (a paragraph without links), then read with the keyboard.
  await t.chapter.locator('.chapter-summary').click();
  await expect(t.reader).toBeFocused();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await t.readerScroll()).top).toBeGreaterThan(300);
  await page.keyboard.press('End');
  await expect.poll(async () => (await t.readerScroll()).atEnd).toBe(true);
  await page.keyboard.press('Home');
  await expect.poll(async () => (await t.readerScroll()).top).toBe(0);
  await page.keyboard.press('PageDown');
  await expect.poll(async () => (await t.readerScroll()).top).toBeGreaterThan(300);
  await page.keyboard.press('p');
  await page.keyboard.press('ArrowRight');
  // Nothing played, stepped or flipped.
  expect(await t.appState()).toEqual(before);
  await expect(page.locator('main.layout [data-command="play-pause"]')).toHaveAccessibleName(
    'Play',
  );
  // Esc gives the keys back to the player.
  await page.keyboard.press('Escape');
  await page.mouse.move(5, 5);
  await page.keyboard.press('p');
  await t.expectAppState({ policy: before.policy === 'Local' ? 'Cluster' : 'Local' });
  // With focus nowhere and the pointer over the text, Space still scrolls the text.
  const { top } = await t.readerScroll();
  const r = await box(page, '[data-testid="reader"]');
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await t.readerScroll()).top).toBeGreaterThan(top);
  await expect(page.locator('main.layout [data-command="play-pause"]')).toHaveAccessibleName(
    'Play',
  );
});

test('the learner’s own cluster: never replaced silently, kept, and restored', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const t = new TutorialPage(page);
  await expect(t.app).toHaveAttribute('data-step-count', /^\d+$/);
  const topology = page.locator('main.layout .stage-drawing');
  await (
    await openCluster(page)
  )
    .getByLabel('Example')
    .selectOption({ label: 'externalTrafficPolicy Local, Pods spread unevenly' });
  await expect(topology).toContainText('aks-nodepool1');
  const mine = await t.appState();

  // Opening the tutorial (on a chapter with a scene) leaves it alone and offers the scene.
  await t.toggle.click();
  await expect(t.reader).toHaveAttribute('data-state', 'ready');
  await t.expectChapter(FIRST.slug);
  await expect(topology).toContainText('aks-nodepool1');
  const held = page.getByTestId('chapter-scene-held');
  await expect(held).toBeVisible();
  await expect(t.restore).toHaveCount(0);
  await page.getByTestId('next-chapter').click();
  await t.expectChapter(SECOND.slug);
  await expect(topology).toContainText('aks-nodepool1');

  // A scene link switches (asked for), says so, and offers Restore.
  await t.sceneLinks().first().click();
  await expect(topology).not.toContainText('aks-nodepool1');
  await expect(t.status).toContainText('your cluster is kept');
  await expect(t.restore).toBeVisible();
  await t.restore.click();
  await expect(topology).toContainText('aks-nodepool1');
  await t.expectAppState(mine);
  await expect(t.restore).toHaveCount(0);

  // "Show this chapter's scene" asks for it too; Close offers the cluster back.
  await held.getByRole('button', { name: /Show this chapter/ }).click();
  await t.expectAppState(expectedState(resolve(SECOND.scene!).state));
  await expect(t.restore).toBeVisible();
  await page.getByRole('button', { name: 'Close the tutorial' }).click();
  await expect(t.reader).toHaveCount(0);
  await expect(t.toggle).toBeFocused();
  const notice = page.getByTestId('restore-notice');
  await expect(notice).toBeVisible();
  const closedOn = await page.evaluate(() => location.hash);
  await notice.getByRole('button', { name: 'Restore your cluster' }).click();
  await expect(topology).toContainText('aks-nodepool1');
  await expect(notice).toHaveCount(0);
  // Its link replaces the one Close wrote; a reload keeps the cluster.
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(closedOn);
  await page.reload();
  await expect(topology).toContainText('aks-nodepool1');
});

test('a live scene with nothing to play says why; a changed live scene can be reset', async ({
  page,
}) => {
  const t = await new TutorialPage(page).goto('bare-metal');
  await t.expectChapter('bare-metal');
  const pending = t.chapter
    .getByTestId('scene-embed')
    .filter({ has: page.getByTestId('embed-empty') })
    .first();
  await expect(pending.getByTestId('embed-empty')).toContainText('EXTERNAL-IP <pending>');
  await expect(pending).not.toContainText('Press Play');

  await t.goto('traffic-policy');
  await t.expectChapter('traffic-policy');
  const embed = t.chapter.getByTestId('scene-embed').first();
  await expect(embed).toHaveAttribute('data-scene-state', 'ok');
  await expect(embed.locator('[data-embed-command="reset"]')).toHaveCount(0);
  const drawing = embed.locator('.embed-drawing');
  const as = await drawing.textContent();
  // A node in the live drawing fails on a click: the caption no longer fits, Reset undoes it.
  // (dispatched: the packet marker drawn over node-1 would take a pointer click)
  await drawing.locator('[role="button"]').first().dispatchEvent('click');
  await expect(embed.getByTestId('embed-changed')).toBeVisible();
  await expect(drawing).not.toHaveText(as ?? '');
  await embed.locator('[data-embed-command="reset"]').click();
  await expect(embed.getByTestId('embed-changed')).toHaveCount(0);
  await expect(drawing).toHaveText(as ?? '');
});

test('a diagram can be enlarged in a dialog; Esc closes it and focus returns', async ({ page }) => {
  const t = await new TutorialPage(page).goto('full-picture');
  await t.expectChapter('full-picture');
  const figure = t.chapter.getByTestId('mermaid-diagram').first();
  await figure.scrollIntoViewIfNeeded();
  await expect(figure).toHaveAttribute('data-state', 'rendered');
  // Never drawn below 0.8 of its natural size: it scrolls sideways instead.
  const scale = await figure.locator('.mermaid-svg svg').evaluate((svg) => {
    const s = svg as SVGSVGElement;
    return s.getBoundingClientRect().width / s.viewBox.baseVal.width;
  });
  expect(scale).toBeGreaterThanOrEqual(0.79);
  const enlarge = figure.getByTestId('mermaid-enlarge');
  await enlarge.click();
  const dialog = page.getByTestId('mermaid-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  const big = await dialog.locator('svg').evaluate((svg) => {
    const s = svg as SVGSVGElement;
    return s.getBoundingClientRect().width / s.viewBox.baseVal.width;
  });
  expect(big).toBeGreaterThan(0.99);
  // Its ids are its own: none is also used outside the dialog (the figure's copy).
  const clashes = await dialog.evaluate((d) => {
    const inside = [...d.querySelectorAll('[id]')].map((e) => e.id);
    const outside = [...document.querySelectorAll('[id]')]
      .filter((e) => !d.contains(e))
      .map((e) => e.id);
    return inside.filter((id) => outside.includes(id));
  });
  expect(clashes).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(enlarge).toBeFocused();
});

test('a chapter scene is announced; the walkthrough says a link opened it', async ({ page }) => {
  const t = await new TutorialPage(page).goto(SECOND.slug);
  await t.expectChapter(SECOND.slug);
  await expect(t.status).toContainText(`the scene of “${SECOND.title}”`);
  await t.sceneLinks().first().click();
  await expect(page.getByTestId('walkthrough')).toContainText('Opened from the tutorial');
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

  test('Back out of the reader returns to the view from before, its link untouched', async ({
    page,
  }) => {
    await page.goto('/');
    const t = new TutorialPage(page);
    await expect(t.app).toHaveAttribute('data-step-count', /^\d+$/);
    // A view of the learner's own: step 3, written to the address bar.
    await page.locator('main.layout [data-command="next"]').click();
    await page.locator('main.layout [data-command="next"]').click();
    await page.locator('main.layout [data-command="next"]').click();
    await expect(t.app).toHaveAttribute('data-step-index', '2');
    const mine = await t.appState();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
    const link = await page.evaluate(() => location.hash);
    expect(decodeState(link).ok && decodeState(link)).toMatchObject({ state: { step: 2 } });

    await t.toggle.click();
    await expect(t.reader).toHaveAttribute('data-state', 'ready');
    await t.expectChapter(FIRST.slug);
    const sceneLink = t.sceneLinks().last();
    const expected = expectedState(
      resolve((await sceneLink.getAttribute('data-scene-query')) ?? '').state,
    );
    await sceneLink.click();
    await t.expectAppState(expected);
    await page.getByTestId('next-chapter').click();
    await t.expectChapter(SECOND.slug);

    // Back to the first chapter: the view that entry showed (the link's), not chapter 2's.
    await page.goBack();
    await t.expectChapter(FIRST.slug);
    await t.expectAppState(expected);
    // Back out of the tutorial: the view from before, and the same #s= link as before.
    await page.goBack();
    await expect(t.reader).toHaveCount(0);
    await t.expectAppState(mine);
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(link);
  });
});
