import type { Page } from '@playwright/test';
import { stringify } from 'yaml';
import { generatedCluster } from '../src/model/scenario/generated';
import { expect, test } from './fixtures';
import { openCluster } from './pages/cluster';

/**
 * The editor and its problems at any size (issue 11, scope 3): a 5 MB paste is checked in a
 * Web Worker, so the page keeps working while it is ("Checking…" shows, typing lands); the
 * list shows the first 100 problems and "and N more"; a paste that would pass 10 MB is
 * refused with a message and the text stays as it was.
 */

/** Opens the dialog and its editor. */
async function openEditor(page: Page) {
  const dialog = await openCluster(page);
  const editor = page.getByTestId('manifest-editor');
  const content = editor.locator('.cm-content');
  if (!(await content.isVisible()))
    await dialog.getByRole('button', { name: 'Paste or edit manifests' }).click();
  await expect(content).toBeVisible();
  return { editor, content };
}

/** Selects all and pastes `text` as the browser would (a `paste` event with clipboard data). */
async function paste(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.locator('.cm-content').evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** The editor's document length, as CodeMirror holds it (not only the lines drawn). */
const docLength = (page: Page) =>
  page.locator('.cm-content').evaluate((el) => {
    // CodeMirror's own link from its content element to its view (`EditorView.findFromDOM`).
    type Tile = { root?: { view?: { state: { doc: { length: number } } } } };
    const tile = (el as unknown as { cmTile?: Tile }).cmTile;
    return tile?.root?.view?.state.doc.length ?? -1;
  });

test.describe('your cluster, large', () => {
  test('a 5 MB paste with 10,000 errors: checked off the main thread, 100 listed and the rest counted', async ({
    page,
  }) => {
    test.setTimeout(600_000);
    // The generated 1,000-node cluster with every Pod's IP broken: one error per Pod.
    const text = generatedCluster({ nodes: 1000, pods: 10_000 })
      .map((o) => stringify(o))
      .join('---\n')
      .replace(/podIP: 10\./g, 'podIP: 999.');
    expect(Buffer.byteLength(text)).toBeGreaterThan(5_000_000);
    await page.goto('/');
    const { editor } = await openEditor(page);
    // The check runs in a worker while the page answers. "Checking…" shows only once a check has
    // taken over 300 ms, which a warm browser may not need for this text; the editor says a check
    // is running (`data-check-running`) from its start, so a watcher set before the paste sees it.
    await page.evaluate(() => {
      const w = window as unknown as { __sawCheck?: boolean };
      const el = document.querySelector('[data-testid="manifest-editor"]')!;
      const seen = () => {
        if (el.getAttribute('data-check-running') === 'true') w.__sawCheck = true;
      };
      new MutationObserver(seen).observe(el, { attributes: true });
    });
    await paste(page, text);
    // Meanwhile a typed line lands in the editor (it restarts the check, the newer text wins).
    await expect
      .poll(() => page.evaluate(() => (window as { __sawCheck?: boolean }).__sawCheck), {
        timeout: 60_000,
      })
      .toBe(true);
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.insertText('# checked while typing\n');
    await expect(page.locator('.cm-line').first()).toHaveText('# checked while typing');
    const summary = editor.locator('.import-summary');
    await expect(summary).toHaveAttribute('data-errors', '10000', { timeout: 480_000 });
    await expect(summary).toHaveText('10000 errors.');
    await expect(editor.getByTestId('checking')).toBeHidden();
    await expect(editor.getByTestId('problems').locator('li')).toHaveCount(100);
    await expect(editor.getByTestId('problems-more')).toHaveText('…and 9,900 more problems.');
    await expect(editor.getByTestId('apply-reason')).toHaveText(
      'Apply is unavailable: fix the 10000 errors first.',
    );
    // The editor's underlines are capped the same way.
    await expect
      .poll(() => page.locator('.cm-lintRange-error').count(), { timeout: 30_000 })
      .toBeLessThanOrEqual(100);
  });

  test('a paste that would pass 10 MB is refused and the text is kept', async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto('/');
    const { editor } = await openEditor(page);
    const before = await docLength(page);
    expect(before).toBeGreaterThan(0);
    // 11 MiB of comment: more than 10 × 1024 × 1024 bytes of UTF-8.
    await paste(page, `# ${'x'.repeat(11 * 1024 * 1024)}\n`);
    await expect(editor.getByTestId('refused')).toHaveText(
      'Not pasted: the text would be 11.0 MB, over the limit of 10 MB. Your text is unchanged.',
    );
    expect(await docLength(page)).toBe(before);
    // Typing still works, and clears the message.
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('# more');
    await expect(editor.getByTestId('refused')).toBeHidden();
    expect(await docLength(page)).toBe(before + '# more'.length);
  });

  test('a file over 10 MB is refused with why; the editor keeps its text', async ({ page }) => {
    await page.goto('/');
    const dialog = await openCluster(page);
    await dialog.getByLabel('Open a file…').setInputFiles({
      name: 'huge.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a'),
    });
    await expect(page.getByTestId('import-status')).toHaveText(
      'huge.yaml was not loaded: it is larger than 10 MB. The editor keeps your text.',
    );
  });
});
