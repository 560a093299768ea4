/**
 * "Embed code…" (issue 12, scope 3): the dialog gives an `<iframe>` snippet (plus the host's
 * resize script) and a `<lb-datapath>` snippet of the view on screen; its options change them;
 * Copy writes them to the clipboard (or selects the text and says to press Ctrl+C). The copied
 * iframe snippet is pasted into a docs page served at http://docs.example.test/ (page.route, as
 * in embed.spec.ts), where the framed embed must show the app's scene and step.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { loadGenerated } from './pages/cluster';

const HOST = 'http://docs.example.test';

/** Serves a docs page with `body` at HOST/ and opens it. */
async function openHost(page: Page, body: string): Promise<void> {
  await page.route(`${HOST}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Docs page</title></head><body>
<h1>Docs page</h1>
${body}
</body></html>`,
    }),
  );
  await page.goto(`${HOST}/guide.html`);
}

async function openDialog(page: Page) {
  const button = page.getByRole('button', { name: 'Embed code…' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Embed this view' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('textarea[data-snippet=iframe]')).toBeVisible();
  return { button, dialog };
}

test.describe('with the clipboard', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('options change the snippets; the copied iframe shows the same scene and step on a docs page', async ({
    page,
    baseURL,
  }) => {
    const app = await new AppPage(page).goto('/');
    await app.setPolicy('Local');
    for (let i = 0; i < 3; i++) await app.next(); // the player's step 3
    const narration = await app.narrationTitle();
    const steps = await app.stepCount();
    const { button, dialog } = await openDialog(page);
    await expect(dialog.getByTestId('embed-code-scene')).toHaveText(
      `The view on screen: externalTrafficPolicy Local, dialling node-2's NodePort, step 3 of ${steps}. The embed shows the stage, the player and the narration, paused unless autoplay is on.`,
    );

    const axe = await new AxeBuilder({ page }).include('[data-testid=embed-code-dialog]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);

    const iframe = dialog.locator('textarea[data-snippet=iframe]');
    const element = dialog.locator('textarea[data-snippet=element]');
    await expect(iframe).toHaveValue(/embed\.html\?step=3&amp;theme=auto&amp;controls=full#s=/);
    await dialog.getByRole('radio', { name: 'Dark' }).check();
    await dialog.getByRole('radio', { name: 'Minimal' }).check();
    await expect(iframe).toHaveValue(
      new RegExp(
        `^<iframe\\n  class="lb-datapath"\\n  src="${baseURL}/embed\\.html\\?step=3&amp;theme=dark&amp;controls=minimal#s=[^"]+"\\n` +
          '  title="LoadBalancer data path: externalTrafficPolicy Local, dialling node-2\'s NodePort"\\n  width="100%"\\n' +
          '  height="660"\\n  loading="lazy"\\n  allow="fullscreen"\\n  style="border:0"\\n></iframe>$',
      ),
    );
    await expect(element).toHaveValue(
      new RegExp(
        `^<script type="module" src="${baseURL}/embed/lb-datapath\\.js"></script>\\n` +
          '<lb-datapath state="#s=[^"]+" step="3" theme="dark" controls="minimal">' +
          `<a href="${baseURL}/#s=[^"]+">Open this scene in the LoadBalancer data path visualiser</a></lb-datapath>$`,
      ),
    );
    // Start before the first step, autoplay: both snippets follow.
    await dialog.getByRole('radio', { name: 'Before step 1' }).check();
    await dialog.getByRole('checkbox', { name: 'Autoplay' }).check();
    await expect(iframe).toHaveValue(
      /\?step=0&amp;theme=dark&amp;controls=minimal&amp;autoplay=1#s=/,
    );
    await expect(element).toHaveValue(/ step="0" theme="dark" controls="minimal" autoplay="1">/);
    await dialog.getByRole('checkbox', { name: 'Autoplay' }).uncheck();
    await dialog.getByRole('radio', { name: 'This step (3)' }).check();

    // Copy: the clipboard holds exactly the text shown, and the result is announced.
    const status = dialog.getByTestId('embed-code-status');
    await dialog.getByRole('button', { name: 'Copy the iframe snippet' }).click();
    await expect(status).toHaveText('Copied the iframe snippet.');
    const frameCode = await page.evaluate(() => navigator.clipboard.readText());
    expect(frameCode).toBe(await iframe.inputValue());
    await dialog.getByRole('button', { name: 'Copy the resize script' }).click();
    await expect(status).toHaveText('Copied the resize script.');
    const script = await page.evaluate(() => navigator.clipboard.readText());
    expect(script).toContain(`e.origin !== "${baseURL}"`);
    await dialog.getByRole('button', { name: 'Copy the web component snippet' }).click();
    await expect(status).toHaveText('Copied the web component snippet.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await element.inputValue(),
    );

    // Esc closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();

    // Pasted into a docs page on another origin, the snippet shows the same scene and step,
    // dark, with the minimal player, and the script sizes the frame to its content.
    await openHost(page, `${frameCode}\n${script}`);
    const frameEl = page.locator('iframe.lb-datapath');
    await expect(frameEl).toHaveAttribute(
      'title',
      "LoadBalancer data path: externalTrafficPolicy Local, dialling node-2's NodePort",
    );
    const frame = page.frameLocator('iframe.lb-datapath');
    const embed = frame.getByTestId('embed');
    await expect(embed).toHaveAttribute('data-theme', 'dark');
    await expect(embed).toHaveAttribute('data-controls', 'minimal');
    await expect(frame.getByTestId('step-counter')).toHaveText(`Step 3 of ${steps}`);
    await expect(frame.getByTestId('narration')).toContainText(narration);
    await expect
      .poll(async () => {
        const inner = page.frames().find((f) => f.url().includes('/embed.html'));
        const content = await inner?.evaluate(() =>
          Math.ceil(document.documentElement.scrollHeight),
        );
        const outer = await frameEl.evaluate((f) => (f as HTMLIFrameElement).clientHeight);
        return content !== undefined && Math.abs(content - outer) <= 1 && outer !== 660;
      })
      .toBe(true);
  });
});

test('where the clipboard cannot be written, the snippet is selected and the dialog says Ctrl+C', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', {
      get: () => ({
        writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')),
      }),
    });
  });
  await new AppPage(page).goto('/');
  const { dialog } = await openDialog(page);
  await dialog.getByRole('button', { name: 'Copy the web component snippet' }).click();
  await expect(dialog.getByTestId('embed-code-status')).toHaveText(
    'The clipboard could not be written: the web component snippet is selected. Press Ctrl+C (⌘C on a Mac) to copy it.',
  );
  const field = dialog.locator('textarea[data-snippet=element]');
  await expect(field).toBeFocused();
  expect(await field.evaluate((t: HTMLTextAreaElement) => t.selectionEnd - t.selectionStart)).toBe(
    (await field.inputValue()).length,
  );
  // The default scene (the app opened on it) at its first step: state is its hash.
  await expect(field).toHaveValue(
    /<lb-datapath state="#s=[^"]+" step="0" theme="auto" controls="full">/,
  );
});

test('a view too large for a link says why and offers the default scene', async ({ page }) => {
  await new AppPage(page).goto();
  await loadGenerated(page, { nodes: 20, pods: 5000 }, 60_000);
  const { dialog } = await openDialog(page);
  await expect(dialog.getByTestId('embed-code-too-large')).toHaveText(
    'This view cannot be embedded: the view has more than 5,000 objects, too large for a link, and an embed reads its scene from one. The snippets below show the default scene; to embed your own cluster, import a smaller one that shows the same thing.',
  );
  await expect(dialog.locator('textarea[data-snippet=iframe]')).toHaveValue(
    /embed\.html\?step=0&amp;theme=auto&amp;controls=full"\n {2}title="LoadBalancer data path: externalTrafficPolicy Cluster, dialling node-2's NodePort"/,
  );
  await expect(dialog.locator('textarea[data-snippet=element]')).toHaveValue(
    /<lb-datapath state="" step="0" /,
  );
  await expect(dialog.getByRole('radio', { name: /This step/ })).toBeDisabled();
  const axe = await new AxeBuilder({ page }).include('[data-testid=embed-code-dialog]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
});
