import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';

test.use({ reducedMotion: 'reduce' });

test('conntrack: nothing before a node sees the packet, then every entry per node', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(1); // node-2:31000 dialled directly; node-2 DNATs and SNATs to node-3
  await app.restart();
  await app.showTab('conntrack');
  await expect(app.conntrack.getByTestId('conntrack-empty')).toContainText(
    'when its first packet enters a node',
  );
  await app.last();
  const groups = app.conntrack.getByTestId('conntrack-node');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0)).toHaveAttribute('data-node', 'node-2');
  await expect(groups.nth(1)).toHaveAttribute('data-node', 'node-3');
  for (const line of await app.conntrack.locator('.ct-line').all())
    await expect(line).toHaveText(/^tcp\s+6 \d+ SYN_(SENT|RECV) src=/);
  // One line is highlighted, and its tuples are shown.
  await expect(app.conntrack.locator('.ct-line[data-current]')).toHaveCount(1);
  const entry = app.conntrack.getByTestId('conntrack-entry');
  await expect(entry.locator('tbody tr')).toHaveCount(2);
  await page.getByTestId('conntrack').screenshot({ path: `${SCREENSHOT_DIR}/conntrack-all.png` });
});

test('rules panel: a note offers the node of the current kube-proxy step', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(1); // a DNAT on node-2: the picker follows the step
  await app.showTab('rules');
  const picker = app.rules.getByRole('combobox', { name: /^Node/ });
  await expect(picker).toHaveValue('node-2');
  const note = app.rules.getByTestId('rules-step-note');
  await expect(note).toHaveCount(0);
  await picker.selectOption('node-1');
  await expect(note).toContainText('this step is on node-2 — show it');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rules-step-note.png` });
  await note.getByRole('button', { name: /^show it/ }).click();
  await expect(picker).toHaveValue('node-2');
  await expect(picker).toBeFocused();
  await expect(note).toHaveCount(0);
});

test.describe('rules panel', () => {
  test('explains the current rule, and any line under the keyboard cursor', async ({ page }) => {
    const app = await new AppPage(page).goto();
    await app.goToStory(4); // node-1's DNAT step
    await app.showTab('rules');
    const explain = page.getByTestId('rule-explain');
    await expect(explain).toContainText(
      'DNAT: rewrite the destination to the pod 10.244.1.5:8080.',
    );
    // The chain the packet followed is marked on its declaration line.
    await expect(app.rules.locator('[data-followed="true"]').first()).toBeVisible();
    const listing = app.rules.locator('.rules-scroll');
    await listing.focus();
    await page.keyboard.press('ArrowDown');
    await expect(explain).toContainText('This line:');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/rules-explain.png`, fullPage: true });
  });

  test('compare: what changes on node-2 when externalTrafficPolicy flips to Local', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await app.showTab('rules');
    await app.rules.getByRole('combobox', { name: /^Node/ }).selectOption('node-2');
    await page.getByTestId('rules-compare').selectOption('policy');
    await expect(page.getByTestId('rules-diff-summary')).toContainText(
      'externalTrafficPolicy Cluster → Local',
    );
    // proxier.go: with Local and no local endpoint, kube-proxy adds DROP rules…
    await expect(
      app.rules.locator('[data-change="added"]', { hasText: 'has no local endpoints' }).first(),
    ).toBeVisible();
    // …and KUBE-EXT loses the Cluster masquerade rule.
    await expect(
      app.rules.locator('[data-change="removed"]', {
        hasText: 'masquerade traffic for default/web:http external destinations',
      }),
    ).toHaveCount(1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/rules-diff.png`, fullPage: true });
  });
});
