import { mkdirSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';

/**
 * The app shell (issue 10, "The stage"): on a laptop screen the drawing, the player, the
 * narration and the scene toggles are all in the first viewport, and nothing a person clicks
 * (a story step, a toggle, a details tab) scrolls the drawing away; on a phone one column, no
 * sideways scrolling, 44 px targets. Screenshots of each size in both themes go to
 * test-results/screenshots/layout-*.png, and the measured boxes to layout-metrics-*.json.
 */
test.use({ reducedMotion: 'reduce' });

type Box = { x: number; y: number; width: number; height: number };

const round = (b: Box) => ({
  x: Math.round(b.x),
  y: Math.round(b.y),
  width: Math.round(b.width),
  height: Math.round(b.height),
});

/** The element's box, asserted to lie wholly inside the window (at the page's current scroll). */
async function expectInView(page: Page, locator: Locator, name: string): Promise<Box> {
  const vp = page.viewportSize()!;
  await expect(locator, name).toBeVisible();
  const b = await locator.boundingBox();
  expect(b, name).not.toBeNull();
  const box = b!;
  expect(box.x, `${name}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.y, `${name}: top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${name}: right edge`).toBeLessThanOrEqual(vp.width + 0.5);
  expect(box.y + box.height, `${name}: bottom edge`).toBeLessThanOrEqual(vp.height + 0.5);
  return box;
}

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** The elements the first viewport must hold. */
function essentials(app: AppPage) {
  const { page } = app;
  return {
    drawing: app.topology,
    play: page.locator('[data-command="play-pause"]'),
    'narration title': app.narration.locator('.narration-title'),
    'narration text': app.narration.locator('.narration-body'),
    externalTrafficPolicy: page.locator('fieldset[data-group="policy"]'),
    ipMode: page.locator('fieldset[data-group="ipmode"]'),
    'fail a node': page.locator('fieldset[data-group="nodes"]'),
    client: page.getByTestId('client-select'),
    'the client dials': page.getByTestId('dial-select'),
    'kube-proxy mode': page.locator('fieldset[data-group="proxymode"]'),
    'balancer delivery': page.locator('fieldset[data-group="delivery"]'),
    'status.loadBalancer published': page.getByRole('checkbox', {
      name: /status\.loadBalancer published/,
    }),
  };
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', theme);
}

function saveMetrics(name: string, metrics: unknown): void {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(`${SCREENSHOT_DIR}/layout-metrics-${name}.json`, JSON.stringify(metrics, null, 2));
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  const tag = `${size.width}x${size.height}`;
  test.describe(`${tag}`, () => {
    test.use({ viewport: size });

    test('the drawing, Play, the narration and every scene toggle are in the first viewport', async ({
      page,
    }) => {
      const app = await new AppPage(page).goto();
      expect(await scrollY(page)).toBe(0);
      const metrics: Record<string, unknown> = {};
      for (const [name, locator] of Object.entries(essentials(app)))
        metrics[name] = round(await expectInView(page, locator, name));
      // The page itself does not scroll: its columns do.
      expect(
        await page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight),
      ).toBeLessThanOrEqual(0);
      // The drawing gets a real share of the window.
      const drawing = metrics['drawing'] as Box;
      expect(drawing.height).toBeGreaterThanOrEqual(280);
      expect(drawing.width).toBeGreaterThan(size.width * 0.5);
      // Body text is at least 15 px.
      const sizes = await page.evaluate(() =>
        ['.narration-body', '.story-body p', 'body'].map((s) =>
          parseFloat(getComputedStyle(document.querySelector(s)!).fontSize),
        ),
      );
      for (const px of sizes) expect(px).toBeGreaterThanOrEqual(15);
      metrics['fontSizes'] = { narration: sizes[0], walkthrough: sizes[1], body: sizes[2] };

      // At the end the outcome banner shows too, and the drawing keeps its place.
      await app.last();
      const outcome = page.getByTestId('outcome');
      metrics['outcome'] = round(await expectInView(page, outcome, 'outcome'));
      metrics['drawing at the end'] = round(await expectInView(page, app.topology, 'drawing'));
      saveMetrics(tag, metrics);
      await app.restart();

      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await app.goToStep(3);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-${tag}-${theme}.png` });
      }
    });

    test('a story step, a toggle or a tab never scrolls the drawing out of view', async ({
      page,
    }) => {
      const app = await new AppPage(page).goto();
      const stories = app.walkthrough.locator('[data-story]');
      for (let i = 0; i < (await stories.count()); i++) {
        await app.goToStory(i);
        await expectInView(page, app.topology, `drawing after story step ${i + 1}`);
        await expectInView(page, app.narration, `narration after story step ${i + 1}`);
        expect(await scrollY(page)).toBe(0);
      }
      await app.setPolicy('Local');
      await expectInView(page, app.topology, 'drawing after Local');
      await app.setIpMode('Proxy');
      await app.toggleNode('node-2');
      await app.dial('NodePort:node-3');
      await expectInView(page, app.topology, 'drawing after the toggles');
      await app.goToStep(2);
      for (const tab of ['inspector', 'rule', 'conntrack', 'rules', 'walkthrough']) {
        await app.showTab(tab);
        await expectInView(page, app.topology, `drawing with the ${tab} tab`);
        await expectInView(page, page.locator('[data-command="play-pause"]'), 'Play');
        await expectInView(page, app.tab(tab), `the ${tab} tab`);
        expect(await scrollY(page)).toBe(0);
        if (tab === 'rules')
          await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-${tag}-rules-tab.png` });
      }
    });
  });
}

test.describe('1024x768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('a compact version: the drawing, Play and the policy control are in view', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    const e = essentials(app);
    const metrics: Record<string, unknown> = {};
    // The stage is ~620 px wide here: the drawing turns vertical, taller than its box, which
    // scrolls it (a known limit of the compact layout; the box itself is in view).
    const box = page.locator('.stage-drawing');
    metrics['drawing'] = round(await expectInView(page, box, 'drawing box'));
    for (const name of ['play', 'externalTrafficPolicy', 'narration title'] as const)
      metrics[name] = round(await expectInView(page, e[name], name));
    expect(
      await box.evaluate((el) => getComputedStyle(el).overflowY),
      'a drawing taller than its box scrolls',
    ).toBe('auto');
    await app.goToStory(1);
    await expectInView(page, box, 'drawing after a story step');
    await app.showTab('rules');
    await expectInView(page, box, 'drawing with the rules tab');
    await app.showTab('walkthrough');
    saveMetrics('1024x768', metrics);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await app.goToStep(3);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-1024x768-${theme}.png` });
    }
  });
});

test.describe('375x740', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test('one column, the stage first; nothing overflows sideways; 44 px targets', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    const width = () => page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(375);
    // The stage comes first and the drawing is tall.
    const drawing = (await app.topology.boundingBox())!;
    const scene = (await page.getByTestId('scene').boundingBox())!;
    expect(drawing.y).toBeLessThan(scene.y);
    expect(drawing.height).toBeGreaterThanOrEqual(300);

    // Every visible control is at least 44 px tall: buttons, selects, segments, checkboxes,
    // tabs, the slider. (A radio inside a segment covers the segment; its label is measured.)
    const small = async () =>
      page.evaluate(() => {
        const controls = document.querySelectorAll<HTMLElement>(
          'button, select, input[type="range"], input[type="text"], .segments label, label.checkbox, [role="tab"]',
        );
        const out: string[] = [];
        for (const el of controls) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (el.closest('[hidden], dialog:not([open])')) continue;
          if (r.height < 43.5)
            out.push(
              `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(r.height)} px`,
            );
        }
        return out;
      });
    expect(await small()).toEqual([]);
    for (const tab of ['inspector', 'rule', 'conntrack', 'rules']) {
      await app.showTab(tab);
      expect(await width(), `with the ${tab} tab`).toBeLessThanOrEqual(375);
      expect(await small(), `with the ${tab} tab`).toEqual([]);
    }
    await app.showTab('walkthrough');
    await app.last();
    expect(await width()).toBeLessThanOrEqual(375);
    const body = await page.evaluate(() =>
      parseFloat(getComputedStyle(document.querySelector('.narration-body')!).fontSize),
    );
    expect(body).toBeGreaterThanOrEqual(15);
    await app.restart();
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await app.goToStep(3);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-375x740-${theme}.png` });
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/layout-375x740-${theme}-full.png`,
        fullPage: true,
      });
    }
  });
});

test.describe('with the tutorial open', () => {
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
  ] as const)
    test(`${width}x${height}: the stage's narration stays inside the stage, over nothing`, async ({
      page,
    }) => {
      // It spilled over the scene toggles at 1280×720: the stage's share of the height was
      // smaller than the drawing's minimum, the playback rows and the narration together.
      await page.setViewportSize({ width, height });
      await page.goto('/#/learn/why-services');
      await expect(page.locator('[data-testid="chapter"]')).toBeVisible();
      const stage = page.locator('.trace-layout > .stage');
      const caption = stage.locator('.stage-caption');
      await expect(caption).toBeVisible();
      const s = (await stage.boundingBox())!;
      const c = (await caption.boundingBox())!;
      expect(c.y + c.height, 'narration bottom within the stage').toBeLessThanOrEqual(
        s.y + s.height + 0.5,
      );
      const scene = (await page.locator('.trace-layout .area-scene').boundingBox())!;
      expect(c.y + c.height, 'narration above the scene toggles').toBeLessThanOrEqual(
        scene.y + 0.5,
      );
      await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-reading-${width}x${height}.png` });
    });
});
