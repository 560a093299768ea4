import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { loadGenerated } from './pages/cluster';

/**
 * Share by link: "Copy link" puts the view on screen (toggles, step, walkthrough step, node) in
 * the URL fragment `#s=…`; opening it elsewhere shows exactly that view, paused. A link that
 * cannot be read opens the default with a notice (never a console error). The last view is
 * kept in localStorage, so a reload opens where the person was.
 */
test.use({ reducedMotion: 'reduce' });

/** What a person sees of the view: every toggle, the step, the walkthrough step, the narration. */
async function viewOf(app: AppPage) {
  const checked = (group: string) =>
    app.page.locator(`fieldset[data-group="${group}"] input:checked`).getAttribute('value');
  return {
    step: await app.stepIndex(),
    policy: await checked('policy'),
    ipMode: await checked('ipmode'),
    proxyMode: await checked('proxymode'),
    delivery: await checked('delivery'),
    client: await app.root.getAttribute('data-client'),
    dial: await app.root.getAttribute('data-dial'),
    published: await app.page
      .getByRole('checkbox', { name: /status\.loadBalancer published/ })
      .isChecked(),
    failed: await app.root.getAttribute('data-failed-nodes'),
    story: await app.walkthroughStep(),
    node: await app.rules.locator('.node-picker select').inputValue(),
    title: await app.narrationTitle(),
    body: await app.narrationBody(),
  };
}

/**
 * Opens `url` in a new browser context (no clipboard, no saved view), with the same console
 * hygiene as the `page` fixture.
 */
async function openFresh(browser: Browser, url: string) {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page: Page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const app = await new AppPage(page).goto(url);
  return {
    app,
    close: async () => {
      await context.close();
      expect(problems, 'console errors in the opened link').toEqual([]);
    },
  };
}

/** Sets toggles that all differ from the default, goes to a middle step, picks another node. */
async function makeAView(app: AppPage) {
  await app.dial('LoadBalancer');
  await app.setPolicy('Local');
  await app.setProxyMode('nftables');
  await app.setDelivery('LoadBalancerIP');
  await app.toggleNode('node-1');
  await app.goToStep(2);
  await app.showTab('rules');
  await app.rules.getByRole('combobox', { name: /^Node/ }).selectOption('node-3');
  await expect(app.root).toHaveAttribute('data-step-index', '2');
}

test.describe('with the clipboard', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('a copied link opens the same view, paused at the same step', async ({
    page,
    browser,
    baseURL,
  }) => {
    const app = await new AppPage(page).goto();
    await makeAView(app);
    const before = await viewOf(app);
    expect(before).toMatchObject({ policy: 'Local', proxyMode: 'nftables', step: 2 });
    expect(before.failed).toBe('node-1');

    const link = await app.copyLink();
    await expect(page.getByTestId('share-status')).toHaveText('Link copied');
    await expect(page.getByTestId('share-status')).toHaveAttribute('aria-live', 'polite');
    // The app's own address (127.0.0.1 and the port it is served on), then the fragment.
    expect(link.startsWith(`${baseURL}/#s=`)).toBe(true);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#s=[A-Za-z0-9+\-$]+$/);

    const other = await openFresh(browser, link);
    expect(await viewOf(other.app)).toEqual(before);
    await expect(other.app.root).toHaveAttribute('data-step-index', String(before.step));
    await expect(other.app.page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
    await other.close();

    // Pasting the link into the address bar of an open app (a fragment change) opens it too.
    await app.setPolicy('Cluster');
    await app.restart();
    // Wait for the address bar to follow the view (debounced), then paste the link over it.
    await expect.poll(() => page.url()).not.toBe(link);
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, new URL(link).hash);
    await app.expectStep(before.step);
    expect(await viewOf(app)).toEqual(before);
  });
});

test('without a clipboard, the link is shown in a field to copy by hand', async ({
  page,
  browser,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', {
      configurable: true,
      get: () => undefined,
    });
  });
  const app = await new AppPage(page).goto();
  await app.setIpMode('Proxy');
  await app.next();
  await app.next();
  const before = await viewOf(app);
  const link = await app.copyLink();
  const field = page.getByRole('textbox', { name: 'Link to this view' });
  await expect(field).toBeVisible();
  await expect(field).toBeFocused();
  await expect(page.getByTestId('share-status')).toHaveText('Copy the link from the field below');
  expect(link).toMatch(/\/#s=/);

  const other = await openFresh(browser, link);
  expect(await viewOf(other.app)).toEqual(before);
  await other.close();

  await page.getByRole('button', { name: 'Close' }).click();
  await expect(field).toHaveCount(0);
});

test('a link that cannot be read opens the default scenario with a notice', async ({ page }) => {
  const app = await new AppPage(page).goto('/#s=garbage');
  await expect(app.shareNotice).toHaveAttribute('role', 'status');
  await expect(app.shareNotice).toContainText(
    'This link could not be opened: the link is damaged or incomplete',
  );
  await expect(app.shareNotice).toContainText('Showing the default scenario.');
  // The default: the walkthrough's first step, before the first trace step, default toggles.
  expect(await app.walkthroughStep()).toBe('0');
  await app.expectStep(-1);
  const view = await viewOf(app);
  expect(view).toMatchObject({ policy: 'Cluster', ipMode: 'VIP', proxyMode: 'iptables' });
  expect(view.failed).toBe('');
  // The bad fragment is gone, so a reload does not say it again.
  expect(new URL(page.url()).hash).toBe('');

  await app.shareNotice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(app.shareNotice).toHaveCount(0);
});

test('a truncated link is refused with a notice', async ({ page, browser }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', {
      configurable: true,
      get: () => undefined,
    });
  });
  const app = await new AppPage(page).goto();
  await app.toggleNode('node-1');
  const link = await app.copyLink();
  const other = await openFresh(browser, link.slice(0, Math.floor(link.length * 0.7)));
  await expect(other.app.shareNotice).toContainText('This link could not be opened');
  expect(await other.app.walkthroughStep()).toBe('0');
  await other.close();
});

test('a reload keeps the last view (saved in the browser)', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.setPolicy('Local');
  await app.setProxyMode('ipvs');
  await app.next();
  await app.next();
  await app.next();
  const before = await viewOf(app);

  // Saved (debounced) in localStorage under a versioned key.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const saved = JSON.parse(localStorage.getItem('lbpath.v1.state') ?? 'null') as {
          step?: number;
          scene?: { proxyMode?: string };
        } | null;
        return saved && `${saved.step} ${saved.scene?.proxyMode}`;
      }),
    )
    .toBe(`${before.step} ipvs`);

  await page.reload();
  await expect(app.root).toHaveAttribute('data-step-count', /^\d+$/);
  expect(await viewOf(app)).toEqual(before);

  // Without the link in the address bar: from localStorage alone.
  await app.goto('/');
  expect(await viewOf(app)).toEqual(before);
  await expect(app.shareNotice).toHaveCount(0);
});

test('a cluster too large to keep says so before a reload, and Copy link says why there is none', async ({
  page,
}) => {
  // 20 nodes and 5,000 Pods: over the 5,000 objects a saved view or a link may hold.
  const app = await new AppPage(page).goto();
  await loadGenerated(page, { nodes: 20, pods: 5000 }, 60_000);
  await expect(app.shareNotice).toContainText(
    'This cluster is too large to keep in this browser (over 5,000 objects): a reload opens the default scenario.',
    { timeout: 15_000 },
  );
  expect(await page.evaluate(() => localStorage.getItem('lbpath.v1.state'))).toBeNull();
  await page.getByRole('button', { name: 'Copy link to this view' }).click();
  const status = page.getByTestId('share-status');
  await expect(status).toHaveText('No link: the view has more than 5,000 objects');
  await expect(status).toHaveAttribute('data-kind', 'unshareable');
});

test('a saved view from a newer version is ignored with a notice', async ({ page }) => {
  await new AppPage(page).goto();
  await page.evaluate(() =>
    localStorage.setItem('lbpath.v1.state', JSON.stringify({ v: 2, everything: 'else' })),
  );
  const app = await new AppPage(page).goto('/');
  await expect(app.shareNotice).toContainText(
    'Your last view could not be restored: the saved view is from a newer version of this app',
  );
  expect(await app.walkthroughStep()).toBe('0');
});
