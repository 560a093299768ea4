import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';

test.use({ reducedMotion: 'reduce' });

test.describe('keyboard controls', () => {
  test('Space, ←/→ and Home/End drive the step', async ({ page }) => {
    const app = await new AppPage(page).goto();
    const count = await app.stepCount();
    expect(count).toBeGreaterThan(3);
    await app.expectStep(-1);

    await app.press('ArrowRight');
    await app.expectStep(0);
    await app.press('ArrowRight');
    await app.expectStep(1);
    await app.press('ArrowLeft');
    await app.expectStep(0);
    await app.press('End');
    await app.expectStep(count - 1);
    await expect(page.getByTestId('outcome')).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/controls-end.png`, fullPage: true });
    await app.press('Home');
    await app.expectStep(-1);

    // Space plays: the clock moves the step on by itself; Space again pauses.
    await app.press(' ');
    const playPause = page.locator('[data-command="play-pause"]');
    await expect(playPause).toHaveAccessibleName('Pause');
    await app.expectStep(0);
    await app.press(' ');
    await expect(playPause).toHaveAccessibleName('Play');
    const paused = await app.stepIndex();
    await app.press('ArrowRight');
    await app.expectStep(paused + 1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/controls-mid.png` });
  });

  test('keys typed into a form control stay with the control', async ({ page }) => {
    const app = await new AppPage(page).goto();
    await app.expectStep(-1);
    await page.getByRole('combobox', { name: 'Speed' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    await app.expectStep(-1);
    // A radio group uses the arrows to move between its options, not to step.
    await page.locator('fieldset[data-group="policy"] input[value="Cluster"]').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('fieldset[data-group="policy"] input[value="Local"]')).toBeChecked();
    await app.expectStep(-1);
  });
});

test.describe('accessibility of controls', () => {
  test('every button, radio, checkbox, select and slider has an accessible name', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await app.goToStep(4); // a step with a decision, so its pin buttons exist
    const roles = ['button', 'radio', 'checkbox', 'combobox', 'slider'] as const;
    let total = 0;
    for (const role of roles) {
      const all = await page.getByRole(role).all();
      for (const control of all) await expect(control).toHaveAccessibleName(/\S/);
      total += all.length;
    }
    expect(total).toBeGreaterThan(30);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/controls-names.png`, fullPage: true });
  });

  test('the main controls are reachable by Tab and show a focus ring', async ({ page }) => {
    await new AppPage(page).goto();
    const seen = new Set<string>();
    let outlined = 0;
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          id:
            el.getAttribute('data-command') ??
            el.getAttribute('data-testid') ??
            el.getAttribute('data-place') ??
            el.getAttribute('aria-label') ??
            (el as HTMLInputElement).name ??
            el.tagName,
          outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        };
      });
      if (!info) continue;
      seen.add(info.id);
      if (info.outline) outlined++;
    }
    for (const id of ['play-pause', 'next', 'timeline', 'node:node-1', 'policy', 'ipmode'])
      expect([...seen], id).toContain(id);
    expect(outlined).toBeGreaterThan(10);
  });

  test('narration is announced politely', async ({ page }) => {
    const app = await new AppPage(page).goto();
    await expect(app.narration).toHaveAttribute('aria-live', 'polite');
    const before = await app.narrationTitle();
    await app.next();
    await expect(app.narration.locator('.narration-title')).not.toHaveText(before);
  });
});
