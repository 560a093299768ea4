import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { SCREENSHOT_DIR, expect, test, waitForMount } from './fixtures';
import { AppPage } from './pages/app';
import { ClusterEditor } from './pages/editor';

/**
 * Nothing typed in the manifests editor is lost (issue 15 point 6): a reload keeps it even
 * when it is not a valid manifest, a full localStorage says so and offers a download, two tabs
 * keep their own text, and the text version 1 saved is migrated (src/store/draft/).
 */

const INVALID = 'kind: Service\nmetadata:\n  name: half-typed\nspec:\n  ports: [';

/** Fills this origin's localStorage until one more character does not fit. */
async function fillStorage(page: Page): Promise<number> {
  return page.evaluate(() => {
    let n = 0;
    for (let size = 1 << 20; size >= 1; size >>= 1) {
      const value = 'f'.repeat(size);
      try {
        for (;;) localStorage.setItem(`test.fill.${n++}`, value);
      } catch (_) {
        // This size no longer fits: try half.
      }
    }
    return n;
  });
}

async function emptyFill(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage))
      if (key.startsWith('test.fill.')) localStorage.removeItem(key);
  });
}

test('invalid YAML survives a reload', async ({ page }) => {
  await new AppPage(page).goto();
  const editor = new ClusterEditor(page);
  await editor.open();
  await editor.paste(INVALID);
  // It is not a valid manifest (the checker found a problem), and it is saved all the same.
  await expect(page.getByTestId('manifest-editor').locator('.import-summary')).toHaveAttribute(
    'data-errors',
    '1',
  );
  await editor.expectSaved(INVALID);
  await page.reload();
  await editor.open();
  expect(await editor.text()).toBe(INVALID);
  await expect(editor.body).toHaveAttribute('data-draft-restored', 'this-tab');
});

test('a full localStorage: a notice, a download of the text, and it goes once a save works', async ({
  page,
}) => {
  await new AppPage(page).goto();
  const editor = new ClusterEditor(page);
  await editor.open();
  await editor.paste('kind: Service\nmetadata:\n  name: before-full');
  await editor.expectSaved('kind: Service\nmetadata:\n  name: before-full');
  await expect(editor.unsaved).toBeEmpty();

  expect(await fillStorage(page)).toBeGreaterThan(0);
  await editor.append('\n  namespace: typed-when-full');
  const typed = 'kind: Service\nmetadata:\n  name: before-full\n  namespace: typed-when-full';
  await expect(editor.unsaved).toContainText(
    'Your text is not saved in this browser: the browser’s storage for this site is full.',
  );
  await expect(editor.unsaved).toHaveAttribute('role', 'alert');
  await editor.expectDraft('unsaved');
  // The header button says so too, for when the dialog is closed.
  await expect(page.getByTestId('cluster-button')).toHaveAttribute('data-draft-unsaved', 'true');
  // The saved draft is still the text from before.
  expect(await editor.savedText()).toBe('kind: Service\nmetadata:\n  name: before-full');
  // The notice is legible and its button named (WCAG 2.x A and AA, as e2e/a11y.spec.ts).
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="draft-notice"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual(
    [],
  );
  await editor.dialog.screenshot({ path: `${SCREENSHOT_DIR}/draft-unsaved.png` });

  const [file] = await Promise.all([
    page.waitForEvent('download'),
    editor.unsaved.getByRole('button', { name: 'Download as YAML' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('manifests.yaml');
  expect(readFileSync(await file.path(), 'utf8')).toBe(typed);

  // Room again: the next save works and the notice goes.
  await emptyFill(page);
  await editor.append('\n  labels: {}');
  await editor.expectSaved(`${typed}\n  labels: {}`);
  await expect(editor.unsaved).toBeEmpty();
  await expect(page.getByTestId('cluster-button')).toHaveAttribute('data-draft-unsaved', 'false');
});

test('two tabs keep their own text across reloads', async ({ page, context }) => {
  await new AppPage(page).goto();
  const one = new ClusterEditor(page);
  await one.open();
  await one.paste('kind: Service\nmetadata:\n  name: from-tab-one');
  await one.expectSaved('kind: Service\nmetadata:\n  name: from-tab-one');

  const other = await context.newPage();
  const problems: string[] = [];
  other.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  other.on('pageerror', (e) => problems.push(e.message));
  await other.goto('/');
  await waitForMount(other);
  const two = new ClusterEditor(other);
  await two.open();
  // A new tab starts from the newest draft: tab one's.
  expect(await two.text()).toBe('kind: Service\nmetadata:\n  name: from-tab-one');
  await expect(two.body).toHaveAttribute('data-draft-restored', 'another-tab');
  await two.paste('kind: Service\nmetadata:\n  name: from-tab-two');
  await two.expectSaved('kind: Service\nmetadata:\n  name: from-tab-two');

  // Tab one heard of it and kept its own text.
  await expect(one.otherTab).toContainText('Another tab of this app saved different text');
  expect(await one.text()).toBe('kind: Service\nmetadata:\n  name: from-tab-one');

  await page.reload();
  await one.open();
  expect(await one.text()).toBe('kind: Service\nmetadata:\n  name: from-tab-one');
  await other.reload();
  await waitForMount(other);
  await two.open();
  expect(await two.text()).toBe('kind: Service\nmetadata:\n  name: from-tab-two');
  expect(problems).toEqual([]);
  await other.close();
});

test('text saved by version 1 is migrated: shown, and the v1 key gone', async ({ page }) => {
  await new AppPage(page).goto();
  const v1 = 'kind: Service\nmetadata:\n  name: saved-by-v1\nspec:\n  ports: [';
  await page.evaluate((text) => localStorage.setItem('lbpath.v1.editorText', text), v1);
  await page.reload();
  const editor = new ClusterEditor(page);
  await editor.open();
  expect(await editor.text()).toBe(v1);
  await expect(editor.body).toHaveAttribute('data-draft-restored', 'older-version');
  expect(await page.evaluate(() => localStorage.getItem('lbpath.v1.editorText'))).toBeNull();
  expect(await editor.savedText()).toBe(v1);
});
