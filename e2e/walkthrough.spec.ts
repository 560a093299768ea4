import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { loadGenerated, loadObjects } from './pages/cluster';
import { loadObjects as parseManifests } from '../src/model/import/load';

/**
 * The default walkthrough tells the five-step NodePort → LoadBalancer story of the canonical
 * scenario (Service web 80/TCP → 8080, nodePort 31000; pods 10.244.1.5 on node-1 and
 * 10.244.3.9 on node-3; balancer 203.0.113.7; node IPs 192.168.0.11–13), and every value
 * the panels show is what a real cluster does:
 * - kube-proxy writes the KUBE-NODEPORTS rule on every node (proxier.go syncProxyRules,
 *   "Capture nodeports"), node-2 included;
 * - under externalTrafficPolicy Cluster the node DNATs to any ready endpoint and masquerades
 *   (KUBE-EXT "masquerade traffic for … external destinations" → KUBE-POSTROUTING MASQUERADE);
 * - an empty status.loadBalancer is what kubectl shows as EXTERNAL-IP <pending>;
 * - a NodePort-targeting balancer rewrites the destination to <node IP>:<nodePort>.
 */
test.use({ reducedMotion: 'reduce' });

test('the app opens on the walkthrough, story step 1: NodePort 31000 on every node', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await expect(app.walkthrough.locator('.walkthrough')).toHaveAttribute(
    'data-walkthrough-step',
    '0',
  );
  await expect(app.walkthrough).toContainText('node-2 has the rule as well');
  await expect(app.walkthrough.getByTestId('story-help')).toContainText(
    'runs this step’s connection',
  );
  for (const n of ['node-1', 'node-2', 'node-3'])
    await expect(app.topology.locator(`[data-place="node:${n}"]`)).toContainText('NodePort :31000');
  // The rules panel shows node-2's KUBE-NODEPORTS rule for 31000 although no web pod runs there.
  await app.showTab('rules');
  await app.rules.getByRole('combobox', { name: /^Node/ }).selectOption('node-2');
  await expect(app.rules).toContainText(
    '-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web:http" -m tcp --dport 31000 -j KUBE-EXT-CDGGSHYLG3RE2FKL',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-1-nodeport.png`, fullPage: true });
});

test('story step 2: node-2:31000 is DNATed to 10.244.3.9:8080 and SNATed, then crosses to node-3', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(1);
  await expect(app.narration).toContainText('DNAT to 10.244.3.9:8080');
  expect(await app.inspectorRow('dst')).toEqual({
    before: '192.168.0.12',
    after: '10.244.3.9',
    changed: true,
  });
  expect(await app.inspectorRow('dport')).toEqual({
    before: '31000',
    after: '8080',
    changed: true,
  });
  await expect(app.rulePanel).toContainText('-j DNAT --to-destination 10.244.3.9:8080');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-2-dnat.png`, fullPage: true });

  await app.next(); // KUBE-POSTROUTING masquerades to node-2's address
  await expect(app.narration).toContainText('Masquerade (SNAT) to 192.168.0.12');
  expect((await app.inspectorRow('src')).after).toBe('192.168.0.12');
  await app.next(); // the second hop
  await app.expectPacketAt('node:node-3');
  const banner = page.getByTestId('outcome');
  await app.last();
  await expect(banner).toHaveAttribute('data-outcome', 'delivered');
  await expect(banner).toHaveAttribute('data-pod-ip', '10.244.3.9');
  await expect(banner).toHaveAttribute('data-source-ip', '192.168.0.12');
  await expect(banner).toHaveAttribute('data-crossed-nodes', 'true');
});

test('story step 3: status.loadBalancer is empty, EXTERNAL-IP <pending>, nothing to dial', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(2);
  await expect(
    page.getByRole('checkbox', { name: /status\.loadBalancer published/ }),
  ).not.toBeChecked();
  await expect(app.topology).toContainText('<pending>');
  // No ingress entry yet, so no ipMode, no delivery and nothing health-checked.
  const lb = app.topology.locator('[data-place="lb"]');
  await expect(lb).toHaveAttribute('data-lb-state', 'pending');
  await expect(lb).toContainText('EXTERNAL-IP <pending>');
  await expect(lb).toContainText('being provisioned:');
  await expect(lb).toContainText('no address yet');
  await expect(lb).not.toContainText('ipMode');
  await expect(lb).not.toContainText('passing');
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-outcome', 'no-address');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-3-pending.png`, fullPage: true });
});

test('story step 4: the balancer picks node-1 and delivers to 192.168.0.11:31000', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(3);
  await expect(app.narration).toContainText('The load balancer picks node-1');
  expect(await app.inspectorRow('dst')).toEqual({
    before: '203.0.113.7',
    after: '192.168.0.11',
    changed: true,
  });
  expect(await app.inspectorRow('dport')).toEqual({ before: '80', after: '31000', changed: true });
  expect((await app.inspectorRow('src')).after).toBe('198.51.100.23');
  expect(await app.chosen()).toBe('node-1');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-4-lb.png`, fullPage: true });
});

test('story step 5: node-1 DNATs to 10.244.1.5:8080, and 10.244.3.9 was as likely', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(4);
  await expect(app.narration).toContainText('DNAT to 10.244.1.5:8080');
  expect(await app.inspectorRow('dst')).toEqual({
    before: '192.168.0.11',
    after: '10.244.1.5',
    changed: true,
  });
  await app.prev(); // the KUBE-SVC rule that chose: two ready endpoints, 50% each (statistic --probability 0.5)
  const decision = app.rulePanel.getByTestId('decision');
  await expect(decision).toHaveAttribute('data-chosen', '10.244.1.5:8080');
  await expect(decision.locator('[data-candidate="10.244.3.9:8080"]')).toContainText('50');
  await expect(decision.locator('[data-candidate="10.244.1.5:8080"]')).toContainText('50');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-5-choice.png`, fullPage: true });
});

test('the default trace plays through to the pod and back to the client', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(3); // client → load balancer, pinned to node-1 and 10.244.1.5
  await app.restart();
  await app.playToEnd();
  const banner = page.getByTestId('outcome');
  await expect(banner).toHaveAttribute('data-outcome', 'delivered');
  await expect(banner).toHaveAttribute('data-pod-ip', '10.244.1.5');
  await expect(banner).toHaveAttribute('data-snat', 'true');
  // The last step: the client gets the SYN-ACK from the address it dialled.
  expect(await app.inspectorRow('src')).toMatchObject({ after: '203.0.113.7' });
  expect(await app.inspectorRow('sport')).toMatchObject({ after: '80' });
  expect(await app.inspectorRow('dst')).toMatchObject({ after: '198.51.100.23' });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/default-end.png`, fullPage: true });
});

// ---- the walkthrough on a cluster of one's own, and "What next" ----

/** The objects of a shipped example (public/examples), as a person would import them. */
function exampleObjects(file: string) {
  return parseManifests(readFileSync(`public/examples/${file}`, 'utf8')).objects;
}

function storyUi(page: Page) {
  const panel = page.getByTestId('walkthrough');
  return {
    root: panel.locator('.walkthrough'),
    step: (id: string) => panel.locator(`[data-story="${id}"]`),
    item: (id: string) => panel.locator('li').filter({ has: page.locator(`[data-story="${id}"]`) }),
    body: panel.locator('.story-body'),
    next: panel.locator('[data-command="next-story"]'),
    whatNext: panel.getByTestId('story-next'),
  };
}

test('an imported cluster: the steps name its nodes; steps 4 and 5 say why they do not apply', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  const ui = storyUi(page);
  await loadObjects(page, exampleObjects('bare-metal-pending.yaml'));
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '');
  await expect(ui.step('dial-node-2')).toHaveText('2. Dialling k8s-cp-1 directly');
  await expect(app.walkthrough).not.toContainText('node-2');
  for (const id of ['lb-picks-node', 'node-1-dnat']) {
    await expect(ui.item(id)).toHaveAttribute('data-applies', 'false');
    await expect(ui.step(id)).toHaveAttribute('aria-disabled', 'true');
    await expect(ui.item(id).getByTestId('story-why')).toContainText(
      'Your Service web has no status.loadBalancer.ingress',
    );
    // The reason is the button's description, for a screen reader too.
    await expect(ui.step(id)).toHaveAccessibleDescription(/no status\.loadBalancer\.ingress/);
  }
  await ui.next.click();
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '0');
  await expect(ui.body).toContainText('KUBE-NODEPORTS rule for 31380');
  await expect(ui.body).toContainText('k8s-cp-1 has the rule as well');
  await ui.next.click();
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '1');
  // The Pod on the other worker (10.244.1.23 on k8s-worker-1 is the first; the story sends the
  // dialled connection to the next one, as it sends node-2's to node-3 in the canonical story).
  await expect(ui.body).toContainText('rewrite the destination to 10.244.2.17:80 on k8s-worker-2');
  await expect(app.narration).toContainText('DNAT to 10.244.2.17:80');
  await app.expectPacketAt('node:k8s-cp-1');
  await ui.next.click();
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '2');
  await expect(ui.body).toContainText('Your Service web is in that state now');
  // Step 3 is the last that applies here: Next stops, and "What next" follows.
  await app.expectCommandDisabled('next-story');
  await expect(ui.root).toHaveAttribute('data-story-ended', 'true');
  await expect(ui.whatNext.getByRole('button', { name: 'Fail k8s-cp-1' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-imported.png`, fullPage: true });
});

test('a Pod on every node: step 2 says why, and Next skips it', async ({ page }) => {
  const app = await new AppPage(page).goto();
  const ui = storyUi(page);
  await loadGenerated(page, { nodes: 3, pods: 3 });
  await expect(ui.item('dial-node-2')).toHaveAttribute('data-applies', 'false');
  await expect(ui.step('dial-node-2')).toHaveText('2. Dialling a node without a Pod directly');
  await expect(ui.item('dial-node-2').getByTestId('story-why')).toHaveText(
    'Not in this cluster: Every node in your cluster runs a web Pod, so there is no node without one to dial.',
  );
  // It does not apply: aria-disabled, and a click (forced past Playwright's check) does nothing.
  await ui.step('dial-node-2').click({ force: true });
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '');
  await ui.next.click();
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '0');
  await ui.next.click();
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '2');
  await expect(ui.body).toContainText('EXTERNAL-IP <pending>');
  await app.goToStory(4);
  await expect(ui.step('node-1-dnat')).toHaveText('5. node-1 DNATs to a pod');
  await expect(ui.body).toContainText('draws between all 3 ready pods');
});

test('nodes named differently: the steps use their names', async ({ page }) => {
  const app = await new AppPage(page).goto();
  const ui = storyUi(page);
  await loadObjects(page, exampleObjects('cloud-cluster-policy.yaml'));
  const empty = 'gke-prod-default-pool-8d94e0c7-9m2q';
  await expect(ui.step('dial-node-2')).toHaveText(`2. Dialling ${empty} directly`);
  await app.goToStory(1);
  await app.expectPacketAt(`node:${empty}`);
  await app.goToStory(3);
  expect(await app.chosen()).toBe('gke-prod-default-pool-6f1c2a3b-4kxz');
});

test('"What next" after step 5: try Local, fail the node that DNATed, read on', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  const ui = storyUi(page);
  await app.goToStory(3);
  await expect(ui.whatNext).toHaveCount(0);
  await app.goToStory(4);
  await expect(ui.whatNext).toBeVisible();
  await expect(ui.whatNext.getByRole('heading', { name: 'What next' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/story-what-next.png`, fullPage: true });

  // 1. Local, by keyboard: the policy becomes Local and the connection replays.
  const local = ui.whatNext.getByRole('button', { name: /^Try externalTrafficPolicy: Local/ });
  await local.focus();
  await page.keyboard.press('Enter');
  await expect(app.root).toHaveAttribute('data-policy', 'Local');
  await expect(ui.root).toHaveAttribute('data-walkthrough-step', '');
  await expect(ui.whatNext).toBeVisible();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-snat', 'false', {
    timeout: 30_000,
  });

  // 2. Fail node-1, the node that DNATed.
  await ui.whatNext.getByRole('button', { name: 'Fail node-1' }).click();
  await expect(app.root).toHaveAttribute('data-failed-nodes', 'node-1');
  await expect(ui.whatNext.getByRole('button', { name: 'Restore node-1' })).toBeVisible();

  // 3. The tutorial chapter that carries the story on.
  const read = ui.whatNext.getByRole('link', { name: /externalTrafficPolicy — Cluster or Local/ });
  await expect(read).toHaveAttribute('href', '#/learn/traffic-policy');
  await read.click();
  await expect(app.root).toHaveAttribute('data-reading', 'true');
  await expect(page).toHaveURL(/#\/learn\/traffic-policy$/);
});
