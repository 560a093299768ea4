import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';

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
  await page.getByRole('combobox', { name: /Node/ }).selectOption('node-2');
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
