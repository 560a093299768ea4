/**
 * Present mode over the Time & failures view (issue 13, scope 2): the clock, the drawing over
 * time, the health lanes and what happens now fit one screen at 1920×1080 and 1280×720 (nothing
 * outside the window, the page never scrolls); the clicker's keys step the events; B, ?, Esc and
 * the digits still work; the speaker view reads the events and drives the clock; axe finds
 * nothing. PRESENT_TIME_SHOTS=<dir> saves screenshots for people to look at.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { canonicalObjects, DEFAULT_SCENE, DEFAULT_WALKTHROUGH } from '../src/model';
import { INITIAL_TIME } from '../src/store/timelineSlice';
import { entryTimes, runTimeline } from '../src/store/timelineDerive';
import LZString from 'lz-string';
import { encodeState } from '../src/store/share/link';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { StagePage, overlaps } from './pages/stage';

const SHOTS = process.env['PRESENT_TIME_SHOTS'];

/** node-1 fails at 60 s: the node-failure story (the balancer's window, then the endpoints'). */
const FAIL = { at: 60_000, kind: 'fail-node', node: 'node-1' } as const;
const openingScene = { ...DEFAULT_SCENE, ...DEFAULT_WALKTHROUGH.steps[0]!.scene };

/** The timeline the page computes, computed here by the model with the same inputs. */
const TIMELINE = runTimeline(canonicalObjects(), openingScene, {
  ...INITIAL_TIME,
  events: [FAIL],
}).timeline;
/** The moments (distinct entry times), ascending: present mode's beats 1…n. */
const TIMES = entryTimes(TIMELINE);
/** The index of the moment with the most entries (node-1's 50 s grace period running out). */
const BUSIEST = TIMES.reduce(
  (best, t, i) => {
    const n = TIMELINE.entries.filter((e) => e.at === t).length;
    return n > best.n ? { i, n } : best;
  },
  { i: 0, n: 0 },
).i;

/** A link that opens the time view with node-1 failing at 60 s, the clock at 0. */
const LINK = `/${encodeState(
  {
    v: 1,
    scene: openingScene,
    step: -1,
    story: null,
    time: {
      view: 'time',
      controller: 'cloud',
      events: [FAIL],
      healthCheck: {},
      workload: INITIAL_TIME.workload,
      simMs: 0,
    },
  },
  LZString.compressToEncodedURIComponent,
)}`;

const present = (page: Page) => page.getByTestId('present');
const view = (page: Page) => page.getByTestId('time-view');

/** The time view from the link, then present mode by the header's Present button. */
async function presentTime(page: Page, theme: 'light' | 'dark' = 'light'): Promise<void> {
  await new AppPage(page).goto(LINK);
  await expect(view(page)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
  await page.getByTestId('present-button').click();
  await expect(present(page)).toBeVisible();
  await expect(page.locator('.app-header')).toHaveCount(0);
  await expect(view(page)).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  await expect(present(page)).toHaveAttribute('data-beat', '1'); // the moment at t = 0
}

/** The page's scroll, both ways it can be read. */
const scrollY = (page: Page) =>
  page.evaluate(() => window.scrollY + (document.scrollingElement?.scrollTop ?? 0));

/** A box in CSS px. */
const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
};

/** The smallest text of an SVG as drawn on screen, px (computed size × the SVG's scale). */
const smallestSvgText = (svg: Locator) =>
  svg.evaluate((el) =>
    Math.min(
      ...[...el.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '' && t.getClientRects().length > 0)
        .map((t) => {
          const m = t.getScreenCTM();
          return parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
        }),
    ),
  );

test('the model gives this story enough moments to step through', () => {
  expect(TIMES.length).toBeGreaterThanOrEqual(10);
  expect(TIMES[0]).toBe(0);
  expect(TIMES).toContain(FAIL.at);
});

for (const [width, height] of [
  [1920, 1080],
  [1280, 720],
] as const)
  for (const theme of ['light', 'dark'] as const)
    test.describe(`${width}×${height}, ${theme}`, () => {
      // Reduced motion: the packet card is measured where it rests.
      test.use({ viewport: { width, height }, reducedMotion: 'reduce' });

      test('clock, drawing, lanes and what happens fit one screen; PageDown/PageUp step the events; axe finds nothing', async ({
        page,
      }) => {
        await presentTime(page, theme);
        await expect(page.getByTestId('app')).toHaveAttribute('data-theme', theme);
        const scale = Number(await present(page).getAttribute('data-scale'));
        expect(scale).toBe(width === 1920 ? 2 : 1.33);
        await expect(present(page)).toHaveAttribute('data-beats', String(TIMES.length + 1));

        // PageDown: the next moment each time; PageUp: back; the window never scrolls.
        const caption = page.getByTestId('time-caption');
        const scrolls: number[] = [];
        const go = async (key: string, i: number) => {
          await page.keyboard.press(key);
          await expect(view(page)).toHaveAttribute('data-sim-time', String(TIMES[i]));
          await expect(present(page)).toHaveAttribute('data-beat', String(i + 1));
          await expect(caption).toHaveAttribute('data-at', String(TIMES[i]));
          scrolls.push(await scrollY(page));
        };
        const failAt = TIMES.indexOf(FAIL.at);
        for (let i = 1; i <= failAt; i++) await go('PageDown', i);
        await expect(page.getByTestId('time-caption-text')).toHaveText(
          TIMELINE.entries.find((e) => e.at === FAIL.at && e.kind !== 'k8s-event')!.message,
        );
        await expect(page.getByTestId('present-beat')).toHaveText(
          `Event ${failAt + 1} of ${TIMES.length} · t = 60 s`,
        );
        await go('PageUp', failAt - 1);
        await go('PageDown', failAt);
        await go('PageDown', failAt + 1); // node-1 leaves the rotation: the lanes show it
        expect(scrolls.every((y) => y === 0)).toBe(true);
        expect(
          await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight),
        ).toBe(true);

        // Everything the room needs is inside the window.
        const inside = async (name: string, l: Locator) => {
          const b = await box(l);
          expect(b.y, `${name} top`).toBeGreaterThanOrEqual(0);
          expect(b.x, `${name} left`).toBeGreaterThanOrEqual(0);
          expect(b.y + b.height, `${name} bottom`).toBeLessThanOrEqual(height);
          expect(b.x + b.width, `${name} right`).toBeLessThanOrEqual(width);
          return b;
        };
        await inside('clock', page.getByTestId('time-clock'));
        await inside('seek', page.getByTestId('time-seek'));
        await inside('play', page.locator('[data-time-command="play"]'));
        const lanes = await inside('lanes', page.getByTestId('health-lanes'));
        const cap = await inside('caption', caption);
        const bar = await inside('bar', page.locator('.present-bar'));
        expect(lanes.y + lanes.height).toBeLessThanOrEqual(bar.y + 0.5);
        expect(cap.y + cap.height).toBeLessThanOrEqual(bar.y + 0.5);

        // The caption reads from the back of the room: 32 px at 1920×1080 (16 × the scale).
        const size = await page
          .getByTestId('time-caption-text')
          .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
        expect(size).toBeCloseTo(16 * scale, 1);
        if (width === 1920) expect(size).toBeGreaterThanOrEqual(32);

        // The drawing: drawn at 3/4 of the present scale (1.5 at 1920×1080: 18 px labels),
        // nothing overlapping, nothing cut by the stage's edge.
        const stageBox = await box(page.locator('.present-time-stage'));
        const stage = new StagePage(page, page.locator('.present-time-stage'));
        const texts = await stage.screenTexts();
        expect(texts.length).toBeGreaterThan(20);
        const min = width === 1920 ? 18 : 12;
        expect(texts.filter((t) => t.size < min - 0.01).map((t) => `${t.text} ${t.size}`)).toEqual(
          [],
        );
        expect(overlaps(texts).map(([a, c]) => `${a.text} × ${c.text}`)).toEqual([]);
        expect(
          texts
            .filter((t) => t.y + t.h > stageBox.y + stageBox.height + 0.5)
            .map((t) => `${t.text} at ${t.y + t.h}`),
        ).toEqual([]);
        // The lanes' smallest text: ≥ 12 px at 1280×720, ≥ 17 px at 1920×1080.
        const lanesMin = await smallestSvgText(page.locator('.present-time-lanes .lanes-svg'));
        expect(lanesMin).toBeGreaterThanOrEqual(width === 1920 ? 17 : 12);

        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: `${SHOTS}/present-time-${width}-${theme}.png` });
        }
        // The busiest moment (most entries at once): the caption still fits beside the lanes
        // and the drawing is not squeezed (nothing of it cut).
        await page.keyboard.press(String(BUSIEST + 1));
        await expect(caption).toHaveAttribute('data-at', String(TIMES[BUSIEST]));
        await expect(page.locator('.present-time-also')).toBeVisible();
        await inside('busiest caption', caption);
        const busyStage = await box(page.locator('.present-time-stage'));
        expect(
          (await stage.screenTexts())
            .filter((t) => t.y + t.h > busyStage.y + busyStage.height + 0.5)
            .map((t) => t.text),
        ).toEqual([]);
        expect(await scrollY(page)).toBe(0);
        if (SHOTS)
          await page.screenshot({ path: `${SHOTS}/present-time-${width}-${theme}-busiest.png` });
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`)),
        ).toEqual([]);
      });
    });

test.describe('keys and the speaker view', () => {
  test.use({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });

  test('Space plays the clock, digits jump to event N, B blanks, ? lists the keys, Esc leaves to the time view', async ({
    page,
  }) => {
    await presentTime(page);
    await page.keyboard.press('4');
    await expect(view(page)).toHaveAttribute('data-sim-time', String(TIMES[3]));
    await expect(present(page)).toHaveAttribute('data-beat', '4');
    await page.keyboard.press('1');
    await page.keyboard.press('0'); // typed quickly: event 10
    await expect(view(page)).toHaveAttribute('data-sim-time', String(TIMES[9]));
    await page.keyboard.press('0');
    await page.keyboard.press('End');
    await expect(view(page)).toHaveAttribute('data-sim-time', String(TIMELINE.settings.horizonMs));
    await page.keyboard.press('Home');
    await expect(view(page)).toHaveAttribute('data-sim-time', '0');
    // The trace's step never moved: the keys were the time view's.
    await expect(page.getByTestId('app')).toHaveAttribute('data-step-index', '-1');

    await page.keyboard.press('Space');
    const play = page.locator('[data-time-command="play"]');
    await expect(play).toHaveAttribute('data-state', 'playing');
    await expect(view(page)).not.toHaveAttribute('data-sim-time', '0');
    await page.keyboard.press('Space');
    await expect(play).toHaveAttribute('data-state', 'paused');

    await page.keyboard.press('b');
    await expect(page.getByTestId('present-blank')).toBeVisible();
    await page.keyboard.press('.');
    await expect(page.getByTestId('present-blank')).toHaveCount(0);
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Present mode keys' });
    await expect(help).toBeVisible();
    await expect(help).toContainText('Time & failures');
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
    expect(await scrollY(page)).toBe(0);
    await page.keyboard.press('Escape'); // leaves fullscreen if granted…
    if (await present(page).count()) await page.keyboard.press('Escape'); // …then present mode
    await expect(present(page)).toHaveCount(0);
    // Back in the desk time view, where PageDown scrolls the long page again.
    await expect(page.getByTestId('time-toggle')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('time-log')).toBeVisible();
  });

  test('N: the speaker view shows this event and the next, follows the clicker and drives the clock', async ({
    page,
  }) => {
    await presentTime(page);
    const failAt = TIMES.indexOf(FAIL.at);
    await page.keyboard.press(String(failAt + 1));
    await expect(view(page)).toHaveAttribute('data-sim-time', String(FAIL.at));
    const [notes] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('n')]);
    const speaker = notes.getByTestId('speaker');
    await expect(speaker).toHaveAttribute('data-beat', String(failAt + 1));
    await expect(notes.getByTestId('speaker-where')).toHaveText(
      `beat ${failAt + 2} of ${TIMES.length + 1}`,
    );
    await expect(notes.getByRole('heading', { name: /^Now: t = 60 s · user/ })).toBeVisible();
    // Every entry of the moment is in the notes (the screen lists only the headline's words).
    for (const e of TIMELINE.entries.filter((x) => x.at === FAIL.at))
      await expect(notes.getByTestId('speaker-notes')).toContainText(e.message);
    await page.keyboard.press('PageDown');
    await expect(speaker).toHaveAttribute('data-beat', String(failAt + 2));
    await notes.getByRole('button', { name: 'Next ▶' }).click();
    await expect(view(page)).toHaveAttribute('data-sim-time', String(TIMES[failAt + 2]));
    await expect(present(page)).toHaveAttribute('data-beat', String(failAt + 3));
  });
});
