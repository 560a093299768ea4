/**
 * The prerendered first visit (scripts/prerender.ts, src/main.tsx): the built index.html holds
 * the default view, painted before any of the app's JavaScript runs, and React hydrates it
 * without rendering it again. A visit that opens anything else never shows it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';

/** Records, at DOMContentLoaded (after the inline script, before the app's modules run), what #root held. */
async function watchRoot(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const root = document.getElementById('root');
      const w = window as unknown as { __atDcl: unknown; __firstSvg: Element | null };
      w.__firstSvg = root?.querySelector('svg[data-node-count]') ?? null;
      w.__atDcl = {
        children: root?.childElementCount ?? -1,
        marked: root?.hasAttribute('data-prerendered') ?? false,
        nodes: w.__firstSvg?.getAttribute('data-node-count') ?? null,
      };
    });
  });
}

test('without JavaScript the first visit already shows the walkthrough’s first step', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  const drawing = page.getByTestId('topology');
  await expect(drawing).toHaveAttribute('data-node-count', '3');
  await expect(page.getByTestId('app')).toHaveAttribute('data-step-count', '13');
  await expect(page.getByTestId('narration')).toContainText('Before the first packet');
  await expect(page.getByRole('button', { name: /Play/ })).toBeVisible();
  await context.close();
});

test('the first visit is hydrated: the prerendered drawing stays, no second render, and it answers', async ({
  page,
}) => {
  await watchRoot(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const dcl = await page.evaluate(() => (window as unknown as { __atDcl: unknown }).__atDcl);
  expect(dcl).toEqual({ children: 1, marked: true, nodes: '3' });
  await expect(page.locator('#root')).toHaveAttribute('data-hydration', 'clean');
  // The element painted from the HTML is the one React kept (a re-render would replace it).
  const same = await page.evaluate(() => {
    const w = window as unknown as { __firstSvg: Element | null };
    return w.__firstSvg !== null && w.__firstSvg === document.querySelector('svg[data-node-count]');
  });
  expect(same).toBe(true);
  // Laid out again for the real stage, and the player works.
  const width = Number(await page.getByTestId('topology').getAttribute('width'));
  expect(width).not.toBe(900);
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page.getByTestId('app')).toHaveAttribute('data-step-index', '0');
});

test('a saved view, a link or a tutorial route never shows the prerendered default', async ({
  page,
}) => {
  await watchRoot(page);
  const app = await new AppPage(page).goto('/');
  await app.setPolicy('Local');
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('lbpath.v1.state')), { timeout: 10_000 })
    .toContain('"externalTrafficPolicy":"Local"');
  await page.reload();
  const empty = { children: 0, marked: false, nodes: null };
  expect(await page.evaluate(() => (window as unknown as { __atDcl: unknown }).__atDcl)).toEqual(
    empty,
  );
  await expect(page.locator('#root')).toHaveAttribute('data-hydration', 'none');
  await expect(page.getByTestId('app')).toHaveAttribute('data-policy', 'Local');

  await page.evaluate(() => localStorage.clear());
  await page.goto('/#/learn');
  expect(await page.evaluate(() => (window as unknown as { __atDcl: unknown }).__atDcl)).toEqual(
    empty,
  );
  await expect(page.locator('#root')).toHaveAttribute('data-hydration', 'none');
});

test('on a phone the horizontal prerendered drawing is not shown; the page draws its own', async ({
  page,
}) => {
  await watchRoot(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  expect(await page.evaluate(() => (window as unknown as { __atDcl: unknown }).__atDcl)).toEqual({
    children: 0,
    marked: false,
    nodes: null,
  });
  await expect(page.locator('#root')).toHaveAttribute('data-hydration', 'none');
  await expect(page.getByTestId('topology')).toHaveAttribute('data-orientation', 'vertical');
});
