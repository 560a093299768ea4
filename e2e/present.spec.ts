/**
 * Present mode (issue 13): `?present=1`, the clicker's keys, blank, help, the speaker view, and
 * type a room can read at 1920×1080 with nothing overlapping.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { StagePage, overlaps } from './pages/stage';

const present = (page: Page) => page.getByTestId('present');

test.describe('keys', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('?present=1: the clicker’s keys move the beat, and the window never scrolls', async ({
    page,
  }) => {
    await page.goto('/?present=1');
    await expect(present(page)).toHaveAttribute('data-beat', '0');
    await expect(page.locator('.app-header')).toHaveCount(0);
    await expect(page.getByTestId('scene')).toHaveCount(0);
    const beats = Number(await present(page).getAttribute('data-beats'));
    expect(beats).toBe(14); // before the first step + the 13 steps of the default trace
    const scrolls: number[] = [];
    const press = async (key: string, want: number) => {
      await page.keyboard.press(key);
      await expect(present(page)).toHaveAttribute('data-beat', String(want));
      scrolls.push(
        await page.evaluate(() => window.scrollY + document.scrollingElement!.scrollTop),
      );
    };
    await press('PageDown', 1);
    await press('PageDown', 2);
    await press('Space', 3);
    await press('ArrowRight', 4);
    await press('PageUp', 3);
    await press('ArrowLeft', 2);
    await press('End', beats - 1);
    await press('PageDown', beats - 1); // stays at the last
    await press('Home', 0);
    await press('5', 5);
    expect(scrolls.every((y) => y === 0)).toBe(true);
    // The app's own step moved with it (the same store).
    await expect(page.getByTestId('app')).toHaveAttribute('data-step-index', '4');
    await expect(page.getByTestId('present-beat')).toHaveText('Step 5 of 13');
  });

  test('B blanks the screen and again returns; ? lists the keys; Esc leaves', async ({ page }) => {
    await page.goto('/?present=1');
    await expect(present(page)).toHaveAttribute('data-beat', '0');
    await page.keyboard.press('b');
    await expect(page.getByTestId('present-blank')).toBeVisible();
    await expect(present(page)).toHaveAttribute('data-blank', 'true');
    await page.keyboard.press('PageDown'); // still steps underneath (a clicker does not wait)
    await page.keyboard.press('b');
    await expect(page.getByTestId('present-blank')).toHaveCount(0);
    await page.keyboard.press('.');
    await expect(page.getByTestId('present-blank')).toBeVisible();
    await page.keyboard.press('.');
    await expect(page.getByTestId('present-blank')).toHaveCount(0);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Present mode keys' });
    await expect(help).toBeVisible();
    for (const k of ['Page Down', 'Page Up', 'Home', 'End', 'B', 'L', 'F', 'N', 'Esc'])
      await expect(help.locator('kbd', { hasText: new RegExp(`^${k}$`) })).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
    await expect(present(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(present(page)).toHaveCount(0);
    await expect(page.locator('.app-header')).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
  });

  test('the Present button and F enter it from the app; the laser follows the mouse', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await app.next();
    await page.getByTestId('present-button').click();
    await expect(present(page)).toHaveAttribute('data-beat', '1'); // the step on screen stays
    await page.keyboard.press('Escape'); // leaves fullscreen if granted…
    if (await present(page).count()) await page.keyboard.press('Escape'); // …then present mode
    await expect(present(page)).toHaveCount(0);
    await page.locator('body').press('f');
    await expect(present(page)).toBeVisible();
    await page.keyboard.press('l');
    await page.mouse.move(400, 300);
    await page.mouse.move(420, 310);
    await expect(page.getByTestId('laser').locator('.present-laser-dot')).toHaveAttribute(
      'cx',
      '420',
    );
    await page.keyboard.press('l');
    await expect(page.getByTestId('laser')).toHaveCount(0);
  });

  test('N opens the speaker view: it follows the presenting window and drives it', async ({
    page,
  }) => {
    await page.goto('/?present=1');
    await expect(present(page)).toHaveAttribute('data-beat', '0');
    await page.keyboard.press('PageDown');
    await expect(present(page)).toHaveAttribute('data-beat', '1');
    const [notes] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('n')]);
    const speaker = notes.getByTestId('speaker');
    await expect(speaker).toHaveAttribute('data-beat', '1');
    await expect(notes.getByRole('heading', { name: /^Now: / })).toBeVisible();
    await expect(notes.getByRole('heading', { name: /^Next: / })).toBeVisible();
    // Follows: the presenter's clicker moves both.
    await page.keyboard.press('PageDown');
    await expect(speaker).toHaveAttribute('data-beat', '2');
    await expect(notes.getByTestId('speaker-where')).toHaveText('beat 3 of 14');
    // Drives: Next in the speaker view moves the presenting window.
    await notes.getByRole('button', { name: 'Next ▶' }).click();
    await expect(present(page)).toHaveAttribute('data-beat', '3');
    await expect(speaker).toHaveAttribute('data-beat', '3');
    await notes.keyboard.press('PageUp');
    await expect(present(page)).toHaveAttribute('data-beat', '2');
    await expect(notes.locator('.speaker-timer')).toHaveText(/^\d+:\d\d$/);
  });
});

for (const theme of ['light', 'dark', 'contrast'] as const)
  test.describe(`1920×1080, ${theme}`, () => {
    // Reduced motion: the packet card is measured where it rests, not on its way there.
    test.use({ viewport: { width: 1920, height: 1080 }, reducedMotion: 'reduce' });

    test('stage text ≥ 24 px, caption ≥ 32 px, nothing overlaps; axe finds nothing', async ({
      page,
    }) => {
      await new AppPage(page).goto();
      await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
      await page.getByTestId('present-button').click();
      await expect(page.getByTestId('app')).toHaveAttribute('data-theme', theme);
      await expect(present(page)).toHaveAttribute('data-scale', '2');
      const stage = new StagePage(page, present(page));
      for (const b of [0, 4, 9]) {
        await page.keyboard.press(String(b));
        await expect(present(page)).toHaveAttribute('data-beat', String(b));
        const texts = await stage.screenTexts();
        expect(texts.length).toBeGreaterThan(30);
        expect(texts.filter((t) => t.size < 24 - 0.01).map((t) => `${t.text} ${t.size}`)).toEqual(
          [],
        );
        expect(overlaps(texts).map(([a, c]) => `${a.text} × ${c.text}`)).toEqual([]);
        const caption = await page
          .locator('.present-caption .narration-body')
          .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
        expect(caption).toBeGreaterThanOrEqual(32);
      }
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`)),
      ).toEqual([]);
    });
  });

test.describe('talks', () => {
  test.use({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });

  test('a talk plays from its first beat to its last, each beat its own scene', async ({
    page,
  }) => {
    // The talk's headings, in order, as the file has them (content/talks/, src/tutorial/talks.ts).
    const headings = [
      ...readFileSync('content/talks/nodeport-to-loadbalancer.md', 'utf8').matchAll(/^## (.+)$/gm),
    ].map((m) => m[1]!.replaceAll('`', ''));
    await page.goto('/?present=1&talk=nodeport-to-loadbalancer');
    await expect(present(page)).toHaveAttribute('data-talk', 'nodeport-to-loadbalancer');
    const beats = Number(await present(page).getAttribute('data-beats'));
    expect(beats).toBeGreaterThanOrEqual(headings.length); // a `steps:` beat walks several steps
    const caption = page.getByTestId('talk-caption');
    await expect(caption.locator('.narration-title')).toHaveText(headings[0]!);
    // The first beat is story step 1: the NodePort dialled on node-2… (scene:story=1).
    const seen = new Set<string>();
    for (let b = 0; b < beats; b++) {
      await expect(present(page)).toHaveAttribute('data-beat', String(b));
      await expect(page.getByRole('alert')).toHaveCount(0);
      seen.add((await caption.locator('.narration-title').textContent()) ?? '');
      expect(new URL(page.url()).searchParams.get('beat') ?? '0').toBe(String(b));
      await page.keyboard.press('PageDown');
    }
    await expect(present(page)).toHaveAttribute('data-beat', String(beats - 1)); // stays at the end
    expect([...seen].filter((t) => headings.includes(t))).toEqual(headings);
    await expect(caption.locator('.narration-title')).toHaveText(headings.at(-1)!);
    // The last beat: externalTrafficPolicy Local (its link says so).
    await expect(page.getByTestId('app')).toHaveAttribute('data-policy', 'Local');
    // The speaker view shows this beat's notes.
    const [notes] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('n')]);
    // The notes are Markdown, rendered: a list, not "- " typed out.
    await expect(notes.getByTestId('speaker-notes').locator('li').first()).toBeVisible();
    await expect(notes.getByTestId('speaker-notes')).not.toHaveText(/^\s*- /);
    await expect(notes.getByTestId('speaker-where')).toHaveText(
      `From NodePort to LoadBalancer, in five steps · beat ${beats} of ${beats}`,
    );
  });

  test('the talk picker switches from the trace’s steps to a talk', async ({ page }) => {
    await page.goto('/?present=1');
    await expect(present(page)).toHaveAttribute('data-talk', '');
    await page.getByRole('combobox', { name: 'Talk' }).selectOption('cluster-vs-local');
    await expect(present(page)).toHaveAttribute('data-talk', 'cluster-vs-local');
    await expect(present(page)).toHaveAttribute('data-beat', '0');
    expect(new URL(page.url()).searchParams.get('talk')).toBe('cluster-vs-local');
  });
});

test('a tutorial chapter is presented as a talk from its own button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/#/learn/traffic-policy');
  await page.getByTestId('present-chapter').click();
  await expect(present(page)).toHaveAttribute('data-talk', 'chapter:traffic-policy');
  await expect(page.getByTestId('talk-caption')).toBeVisible();
  const beats = Number(await present(page).getAttribute('data-beats'));
  expect(beats).toBeGreaterThan(2);
  await page.keyboard.press('End');
  await expect(present(page)).toHaveAttribute('data-beat', String(beats - 1));
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Leaving comes back to the chapter.
  await page.keyboard.press('Escape');
  if (await present(page).count()) await page.keyboard.press('Escape');
  await expect(page.getByTestId('chapter')).toHaveAttribute('data-chapter', 'traffic-policy');
});

test('a talk’s time beat shows the talk’s caption over the time view, with what happens under it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/?present=1&talk=node-failure-over-time&beat=3');
  await expect(present(page)).toHaveAttribute('data-talk', 'node-failure-over-time');
  const caption = page.getByTestId('time-caption');
  const heading = [
    ...readFileSync('content/talks/node-failure-over-time.md', 'utf8').matchAll(/^## (.+)$/gm),
  ].map((m) => m[1]!.replaceAll('`', ''))[3]!;
  await expect(caption.getByTestId('talk-caption').locator('.narration-title')).toHaveText(heading);
  await expect(caption.getByTestId('time-caption-text')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the theme picked is kept: a reload, and a ?present=1 link opened after it, keep it', async ({
  page,
}) => {
  await new AppPage(page).goto();
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('contrast');
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'contrast');
  await page.goto('/?present=1&talk=cluster-vs-local');
  await expect(present(page)).toHaveAttribute('data-talk', 'cluster-vs-local');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'contrast');
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
  expect(await page.evaluate(() => localStorage.getItem('lbpath.theme'))).toBeNull();
});
