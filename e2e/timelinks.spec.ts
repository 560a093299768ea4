import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { TutorialPage } from './pages/tutorial';
import { TimelinePage } from './pages/timeline';
import { extractBlocks, formatTimeEvents, parseChapter, resolveTimeQuery } from '../src/tutorial';
import type { Chapter, ResolvedTime } from '../src/tutorial';
import { diskScenarioLoader } from '../src/tutorial/node';

/**
 * Time links (content/AUTHORING.md, "Time links"): every `time:` link in every chapter, clicked,
 * opens the "Time & failures" view beside the reader with the scenario, policy, controller,
 * events, health-check settings, connections and clock that the tutorial's own resolver computes
 * for it (read back from the view's data-* attributes). Also: the layout with the reader open on a
 * wide screen, the keyboard, and a scene link taking the learner back to the trace view.
 */
test.use({ reducedMotion: 'reduce' });

const ROOT = process.cwd();
const CHAPTER_DIR = join(ROOT, 'content', 'chapters');
const loadScenario = diskScenarioLoader(ROOT);

/** Screenshots for people to look at (not compared): set TIMELINK_SHOTS to a folder. */
const SHOTS = process.env['TIMELINK_SHOTS'];
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/timelink-${name}.png` });
};

const CHAPTERS = readdirSync(CHAPTER_DIR)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => parseChapter(`content/chapters/${f}`, readFileSync(join(CHAPTER_DIR, f), 'utf8')))
  .flatMap((r) => (r.chapter ? [r.chapter] : []));

const timeQueries = (c: Chapter) =>
  extractBlocks(c.body, c.bodyLine)
    .timeLinks.filter((l) => l.text !== '')
    .map((l) => l.query);

const WITH_TIME_LINKS = CHAPTERS.filter((c) => timeQueries(c).length > 0);

/** The resolver's answer for a time query (what the view must show after the link). */
function resolve(query: string): ResolvedTime {
  const r = resolveTimeQuery(query, { loadScenario });
  if (!r.ok) throw new Error(`time:${query} does not resolve: ${JSON.stringify(r.errors)}`);
  return r.time;
}

/** The view's data-* attributes the link must set, from the resolved link. */
function expectedAttributes(t: ResolvedTime): Record<string, string> {
  const hc = t.timeline.settings.healthCheck;
  const nodes = t.objects.filter((o) => o.kind === 'Node').map((o) => o.metadata?.name ?? '');
  return {
    'data-state': 'ready',
    'data-sim-time': String(t.open.simMs),
    'data-horizon': String(t.horizonMs),
    'data-controller': t.open.time.controller,
    'data-policy': t.open.view.scene.externalTrafficPolicy,
    'data-nodes': nodes.join(','),
    'data-events': formatTimeEvents(t.open.time.events),
    'data-connections': String(t.open.time.workload.count),
    'data-hc-interval': String(hc.intervalSeconds),
    'data-hc-timeout': String(hc.timeoutSeconds),
    'data-hc-healthy': String(hc.healthyThreshold),
    'data-hc-unhealthy': String(hc.unhealthyThreshold),
  };
}

async function expectTimeView(view: Locator, t: ResolvedTime): Promise<void> {
  for (const [attr, value] of Object.entries(expectedAttributes(t)))
    await expect(view, attr).toHaveAttribute(attr, value, { timeout: 15_000 });
}

function timeLinks(t: TutorialPage): Locator {
  return t.chapter.locator('button.time-link[data-time-query]');
}

test('the chapters have time links', () => {
  expect(WITH_TIME_LINKS.map((c) => c.slug)).toEqual(
    expect.arrayContaining(['provisioning', 'health-checks', 'node-failure', 'bare-metal']),
  );
});

for (const chapter of WITH_TIME_LINKS) {
  test(`${chapter.slug}: every time link opens the time view with what it names`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    const t = await new TutorialPage(page).goto(chapter.slug);
    await t.expectChapter(chapter.slug);
    const links = timeLinks(t);
    await expect(t.chapter.locator('[data-time-state="pending"]')).toHaveCount(0);
    await expect(t.chapter.locator('[data-time-state="error"]')).toHaveCount(0);
    const queries = await links.evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-time-query') ?? ''),
    );
    // Every time link of the Markdown is on the page as a button, and nothing else is.
    expect(queries).toEqual(timeQueries(chapter));
    const tl = new TimelinePage(page);
    let revision = 0;
    for (const [i, query] of queries.entries()) {
      const expected = resolve(query);
      await links.nth(i).click();
      revision += 1;
      await expect(tl.view).toHaveAttribute('data-revision', String(revision));
      await expectTimeView(tl.view, expected);
      await expect(tl.toggle).toHaveAttribute('aria-pressed', 'true');
      // The reader stays open beside the view, with its announcement.
      await expect(t.reader).toBeVisible();
      await expect(t.status).toContainText('The Time & failures view now shows');
      await expect(page).toHaveURL(new RegExp(`#/learn/${chapter.slug}$`));
      // The clock stays where the link put it (paused).
      await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
        'data-state',
        'paused',
      );
      await shot(page, `${chapter.slug}-${i + 1}`);
    }
  });
}

test.describe('with the reader open', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  const HC = WITH_TIME_LINKS.find((c) => c.slug === 'health-checks');

  test('wide screens: reader left, time view right, usable without sideways scrolling', async ({
    page,
  }) => {
    const t = await new TutorialPage(page).goto(HC?.slug ?? '');
    await t.expectChapter(HC?.slug ?? '');
    const link = timeLinks(t).first();
    const expected = resolve((await link.getAttribute('data-time-query')) ?? '');
    await link.click();
    const tl = new TimelinePage(page);
    await expectTimeView(tl.view, expected);
    const reader = (await t.reader.boundingBox())!;
    const view = (await tl.view.boundingBox())!;
    expect(reader.x + reader.width).toBeLessThanOrEqual(view.x);
    // Nothing sticks out of the page sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    for (const panel of ['time-health', 'time-log', 'time-many', 'time-schedule', 'time-status']) {
      const b = (await page.getByTestId(panel).boundingBox())!;
      expect(b.x, panel).toBeGreaterThanOrEqual(view.x - 1);
      expect(b.x + b.width, panel).toBeLessThanOrEqual(view.x + view.width + 1);
    }
    // The clock's controls are on screen next to the text.
    await expect(page.locator('[data-time-command="play"]')).toBeInViewport();
    await shot(page, 'layout-1440');
  });

  test('a time link works from the keyboard, resets the view’s forms; a scene link goes back', async ({
    page,
  }) => {
    const t = await new TutorialPage(page).goto(HC?.slug ?? '');
    await t.expectChapter(HC?.slug ?? '');
    const tl = new TimelinePage(page);
    const interval = tl.page.getByTestId('hc-form').locator('input').first();
    const first = timeLinks(t).first();
    const before = resolve((await first.getAttribute('data-time-query')) ?? '');
    await first.click();
    await expectTimeView(tl.view, before);
    await tl.page.locator('details.hc-details > summary').click();
    await expect(interval).toHaveValue(
      String(before.timeline.settings.healthCheck.intervalSeconds),
    );

    // Another link while the view is on: the forms start again from what it set.
    const link = timeLinks(t).last();
    const expected = resolve((await link.getAttribute('data-time-query')) ?? '');
    expect(expected.timeline.settings.healthCheck.intervalSeconds).not.toBe(
      before.timeline.settings.healthCheck.intervalSeconds,
    );
    await expect(link).toHaveAccessibleName(/\S/);
    await link.focus();
    await page.keyboard.press('Enter');
    await expectTimeView(tl.view, expected);
    await tl.page.locator('details.hc-details > summary').click();
    await expect(interval).toHaveValue(
      String(expected.timeline.settings.healthCheck.intervalSeconds),
    );
    await expect(tl.many.locator('input[data-field="count"]')).toHaveValue(
      String(expected.open.time.workload.count),
    );

    await t.sceneLinks().first().click();
    await expect(tl.view).toHaveCount(0);
    await expect(tl.toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(t.status).toContainText('The visualiser now shows');
  });
});
