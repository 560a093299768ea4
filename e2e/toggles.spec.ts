import { SCREENSHOT_DIR, expect, test } from './fixtures';
import { AppPage } from './pages/app';

/**
 * Each toggle changes the model, and the path shown is the one a real cluster takes:
 * - externalTrafficPolicy Local: no SNAT, the pod sees the client (198.51.100.23); node-2,
 *   with no local endpoint, answers 503 on healthCheckNodePort and leaves the rotation
 *   (service_health.go); a direct NodePort dial to it is dropped by the
 *   "default/web:http has no local endpoints" rule in KUBE-EXTERNAL-SERVICES (proxier.go).
 * - ipMode VIP with a destination-keeping balancer: the packet reaches the node addressed to
 *   203.0.113.7:80 and the "loadbalancer IP" rule in KUBE-SERVICES catches it; ipMode Proxy:
 *   kube-proxy writes no such rule (servicechangetracker.go, IsVIPMode).
 * - A failed node: its health check gets no answer, the balancer does not choose it.
 */
test.use({ reducedMotion: 'reduce' });

async function freeScene(app: AppPage) {
  await app.setClient('internet');
  await app.dial('LoadBalancer');
}

test('Local: no SNAT, the pod sees the client, node-2 out of rotation', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await freeScene(app);
  await app.setPolicy('Local');
  await app.next();
  await app.next(); // the balancer's decision
  const decision = app.rulePanel.getByTestId('decision');
  await expect(decision).toHaveAttribute('data-decision-kind', 'lb-target');
  await expect(decision.locator('[data-candidate="node-2"]')).toContainText('503');
  expect(await decision.getAttribute('data-chosen')).not.toBe('node-2');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-local-lb.png`, fullPage: true });
  const banner = page.getByTestId('outcome');
  await app.last();
  await expect(banner).toHaveAttribute('data-outcome', 'delivered');
  await expect(banner).toHaveAttribute('data-source-ip', '198.51.100.23');
  await expect(banner).toHaveAttribute('data-snat', 'false');
  await expect(banner).toHaveAttribute('data-crossed-nodes', 'false');
});

test('Local: dialling node-2:31000 directly is dropped, and the app names the rule', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.setClient('internet');
  await app.dial('NodePort:node-2');
  await app.setPolicy('Local');
  expect(await app.outcome()).toBe('dropped');
  const banner = page.getByTestId('outcome');
  await expect(banner).toContainText(
    '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-local-drop.png`, fullPage: true });
});

test('ipMode VIP, destination kept: the node catches 203.0.113.7:80 with the load-balancer-IP rule', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await freeScene(app);
  await app.setIpMode('VIP');
  await app.setDelivery('LoadBalancerIP');
  const lb = app.topology.locator('[data-place="lb"]');
  await expect(lb.locator('[data-lb-line="ipmode"]')).toHaveText('ipMode: VIP');
  await expect(lb.locator('[data-lb-line="delivery"]')).toHaveText('delivers to 203.0.113.7:80');
  await app.next();
  await app.next(); // the balancer: destination unchanged
  expect(await app.inspectorRow('dst')).toEqual({
    before: '203.0.113.7',
    after: '203.0.113.7',
    changed: false,
  });
  await app.next(); // on the node
  await expect(app.rulePanel).toContainText('"default/web:http loadbalancer IP"');
  await expect(app.rulePanel).toContainText('-d 203.0.113.7/32');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-vip.png`, fullPage: true });
});

test('ipMode Proxy: the balancer proxies to the NodePort from its own address; no load-balancer-IP rule', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await freeScene(app);
  await app.setIpMode('Proxy');
  await expect(
    page.locator('fieldset[data-group="delivery"] input[value="LoadBalancerIP"]'),
  ).toBeDisabled();
  const lb = app.topology.locator('[data-place="lb"]');
  await expect(lb.locator('[data-lb-line="ipmode"]')).toHaveText('ipMode: Proxy');
  await expect(lb.locator('[data-lb-line="delivery"]')).toHaveText('proxies to NodePort :31000');
  await app.next();
  await app.next();
  expect((await app.inspectorRow('src')).after).toBe('192.168.0.250');
  expect((await app.inspectorRow('dport')).after).toBe('31000');
  await app.showTab('rules');
  for (const node of ['node-1', 'node-2', 'node-3']) {
    await app.rules.getByRole('combobox', { name: /^Node/ }).selectOption(node);
    await expect(app.rules).toContainText('*nat');
    await expect(app.rules).not.toContainText('loadbalancer IP');
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-proxy.png`, fullPage: true });
});

test('failing node-1: no health-check answer, the balancer never picks it, the pod on it is not used', async ({
  page,
}) => {
  // Wide enough for the stage to draw all three nodes (narrower, it folds those off the path).
  await page.setViewportSize({ width: 1440, height: 900 });
  const app = await new AppPage(page).goto();
  await freeScene(app);
  await app.toggleNode('node-1');
  await expect(app.topology.locator('[data-place="node:node-1"]')).toContainText(/NotReady|down/);
  await app.next();
  await app.next();
  const decision = app.rulePanel.getByTestId('decision');
  await expect(decision.locator('[data-candidate="node-1"]')).toContainText('no answer');
  expect(await decision.getAttribute('data-chosen')).not.toBe('node-1');
  const banner = page.getByTestId('outcome');
  await app.last();
  await expect(banner).toHaveAttribute('data-pod-ip', '10.244.3.9');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-node-failed.png`, fullPage: true });
});

test('dialling a failed node directly times out', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.setClient('internet');
  await app.dial('NodePort:node-2');
  await app.toggleNode('node-2');
  expect(await app.outcome()).toBe('timed-out');
  // One step: the banner says "step", not "steps".
  expect(await app.stepCount()).toBe(1);
  await expect(page.getByTestId('outcome').locator('h2')).toHaveText('✗ Timed out — after 1 step');
});

test('a pod in the cluster dialling the LB IP is short-circuited on its own node (ipMode VIP)', async ({
  page,
}) => {
  const app = await new AppPage(page).goto();
  await app.setClient('pod');
  await app.dial('LoadBalancer');
  await app.next();
  await app.expectPacketAt('node:node-2');
  await app.next();
  await expect(app.rulePanel).toContainText('"default/web:http loadbalancer IP"');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/toggle-pod-client.png`, fullPage: true });
});

test('kube-proxy mode: the same connection through nftables and IPVS rules', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.goToStory(3); // client → LB → node-1:31000, pinned to 10.244.1.5
  await app.setProxyMode('nftables');
  // nftables proxier.go: NodePorts are dispatched from the services chain through the
  // service-nodeports verdict map, on the addresses in the nodeport-ips set.
  await expect(app.rules).toContainText('table ip kube-proxy {');
  await app.next();
  await app.next();
  await app.next();
  await expect(app.rulePanel).toContainText(
    'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/mode-nftables.png`, fullPage: true });

  await app.setProxyMode('ipvs');
  // IPVS mode: one virtual server per node address for the NodePort, rr by default.
  await expect(app.rules).toContainText('TCP  192.168.0.11:31000 rr');
  const banner = page.getByTestId('outcome');
  await app.last();
  await expect(banner).toHaveAttribute('data-outcome', 'delivered');
  await expect(banner).toHaveAttribute('data-pod-ip', '10.244.1.5');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/mode-ipvs.png`, fullPage: true });
});
