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

test.describe('keyboard for presenters', () => {
  test('Escape gives the keys back to the player', async ({ page }) => {
    const app = await new AppPage(page).goto();
    await expect(page.locator('footer')).toContainText('Esc gives the keys back to the player');
    // A focused select keeps the arrows…
    await page.getByRole('combobox', { name: 'Speed' }).focus();
    await page.keyboard.press('ArrowRight');
    await app.expectStep(-1);
    // …until Escape hands them back.
    await page.keyboard.press('Escape');
    await expect(page.locator('body')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await app.expectStep(0);
    // The same from a node in the drawing: Escape, then End goes to the last step.
    await app.topology.locator('[data-place="node:node-1"] [role="button"]').focus();
    await page.keyboard.press('Escape');
    await expect(page.locator('body')).toBeFocused();
    await page.keyboard.press('End');
    await app.expectStep((await app.stepCount()) - 1);
  });

  test('a focused button that stops applying keeps its focus and its name', async ({ page }) => {
    const app = await new AppPage(page).goto();
    const count = await app.stepCount();
    await app.goToStep(count - 2);
    const next = page.locator('[data-command="next"]');
    await next.focus();
    await page.keyboard.press('Enter');
    await app.expectStep(count - 1);
    await expect(next).toBeFocused();
    await app.expectCommandDisabled('next');
    await expect(next).not.toHaveAttribute('disabled');
    await expect(next).toHaveAccessibleName('Next step');
    // Pressing it again does nothing.
    await page.keyboard.press('Enter');
    await app.expectStep(count - 1);

    // End, pressed from the start, stays focused at the last step too.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    await app.expectStep(-1);
    const end = page.locator('[data-command="last"]');
    await end.focus();
    await page.keyboard.press('Enter');
    await app.expectStep(count - 1);
    await expect(end).toBeFocused();
    await app.expectCommandDisabled('last');
    await app.expectCommandDisabled('first', false);

    // The walkthrough's Next on its last story step.
    await app.goToStory(3);
    const nextStory = page.locator('[data-command="next-story"]');
    await nextStory.focus();
    await page.keyboard.press('Enter');
    await expect(app.walkthrough.locator('.walkthrough')).toHaveAttribute(
      'data-walkthrough-step',
      '4',
    );
    await expect(nextStory).toBeFocused();
    await app.expectCommandDisabled('next-story');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/controls-focus-kept.png` });
  });

  test('Tab reaches the playback controls before the nodes of the drawing', async ({ page }) => {
    const app = await new AppPage(page).goto();
    const order: string[] = [];
    for (let i = 0; i < 40 && !order.includes('node:node-1'); i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => {
        const el = document.activeElement;
        // A node's button is its name, inside the card that carries data-place (NodeBox.tsx).
        return (
          el?.getAttribute('data-command') ??
          el?.closest('[data-place]')?.getAttribute('data-place') ??
          ''
        );
      });
      if (id && !order.includes(id)) order.push(id);
    }
    expect(order).toContain('play-pause');
    expect(order).toContain('node:node-1');
    expect(order.indexOf('play-pause')).toBeLessThan(order.indexOf('node:node-1'));

    // Tab, Tab, Space from a fresh page does not fail a node.
    await page.reload();
    await expect(app.root).toHaveAttribute('data-step-count', /^\d+$/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press(' ');
    await expect(app.topology.locator('[data-node-failed="true"]')).toHaveCount(0);
  });

  test('a failed node focused by keyboard shows a focus ring, not just its red border', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await app.toggleNode('node-1');
    await page.keyboard.press('Escape');
    const node = app.topology.locator('[data-place="node:node-1"]');
    // The node's name is its button (NodeBox.tsx); the ring goes round the whole card.
    const button = node.getByRole('button');
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await button.evaluate((el) => el === document.activeElement)) break;
    }
    await expect(button).toBeFocused();
    const ring = node.locator('.node-focus-ring');
    await expect(ring).toBeVisible();
    const styles = await node.evaluate((el) => {
      const ring = getComputedStyle(el.querySelector('.node-focus-ring')!);
      const frame = getComputedStyle(el.querySelector('.node-frame')!);
      return {
        ring: ring.stroke,
        ringDash: ring.strokeDasharray,
        frame: frame.stroke,
        frameDash: frame.strokeDasharray,
      };
    });
    expect(styles.ring).not.toBe(styles.frame);
    expect(styles.ringDash).toBe('none');
    expect(styles.frameDash).not.toBe('none');
    await app.topology.screenshot({ path: `${SCREENSHOT_DIR}/controls-failed-node-focus.png` });
    // A node without focus shows no ring.
    await expect(app.topology.locator('[data-place="node:node-2"] .node-focus-ring')).toBeHidden();
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
            el.closest('[data-place]')?.getAttribute('data-place') ??
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
