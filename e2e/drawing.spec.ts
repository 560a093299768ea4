import { SCREENSHOT_DIR, expect, test } from './fixtures';
import type { Locator } from '@playwright/test';
import { AppPage } from './pages/app';

/**
 * The drawing's text stays where it belongs: every line of the load balancer inside its box,
 * and a failed node's "down" badge clear of the node's other labels, in the states that make
 * the lines longest.
 */
test.use({ reducedMotion: 'reduce' });

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** SVG bounding boxes (user units) of the element and of every text in it. */
async function boxes(el: Locator, selector: string): Promise<Box[]> {
  return el.evaluate(
    (root, sel) =>
      [...root.querySelectorAll<SVGGraphicsElement>(sel)].map((e) => {
        const b = e.getBBox();
        return { x: b.x, y: b.y, w: b.width, h: b.height };
      }),
    selector,
  );
}

const inside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

async function expectLbTextInside(app: AppPage, state: string) {
  const lb = app.topology.locator('[data-place="lb"]');
  const [frame] = await boxes(lb, '.lb-frame');
  const texts = await boxes(lb, 'text');
  expect(texts.length).toBeGreaterThan(3);
  for (const t of texts) expect(inside(t, frame!), `${state}: ${JSON.stringify(t)}`).toBe(true);
}

test('the load balancer’s lines stay inside its box in every state', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await app.setClient('internet');
  await app.dial('LoadBalancer');
  await expectLbTextInside(app, 'default');
  await app.setPublished(false);
  await expect(app.topology).toContainText('EXTERNAL-IP <pending>');
  await expectLbTextInside(app, 'published off');
  await app.setPublished(true);
  await app.setIpMode('Proxy');
  await expect(app.topology).toContainText('proxies to NodePort :31000');
  await expectLbTextInside(app, 'ipMode Proxy');
  await app.setIpMode('VIP');
  await app.setDelivery('LoadBalancerIP');
  await expect(app.topology).toContainText('delivers to 203.0.113.7:80');
  await expectLbTextInside(app, 'delivery LoadBalancerIP');
  for (const n of ['node-1', 'node-2', 'node-3']) await app.toggleNode(n);
  await expectLbTextInside(app, 'all nodes failed');
});

test('a failed node’s "down" badge covers none of its labels', async ({ page }) => {
  const app = await new AppPage(page).goto();
  for (const n of ['node-1', 'node-2', 'node-3']) await app.toggleNode(n);
  for (const n of ['node-1', 'node-2', 'node-3']) {
    const node = app.topology.locator(`[data-place="node:${n}"]`);
    await expect(node).toContainText('✗ down');
    const [badge] = await boxes(node, '.down-label rect');
    const [frame] = await boxes(node, '.node-frame');
    expect(inside(badge!, frame!)).toBe(true);
    const others = await boxes(
      node,
      ':scope > text, .kube-proxy rect, .kube-proxy text, .nodeport rect, .pod rect',
    );
    expect(others.length).toBeGreaterThan(5);
    for (const o of others) expect(overlap(badge!, o), `${n}: ${JSON.stringify(o)}`).toBe(false);
  }
  await app.topology.screenshot({ path: `${SCREENSHOT_DIR}/drawing-all-failed.png` });
});

/** The points of a drawn wire (`M x,y L x,y …`, see src/ui/topology/polyline.ts). */
const pointsOf = (d: string) =>
  [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));

/** Whether any point of the polyline lies inside the box (border included), every 0.5 px. */
function touches(pts: { x: number; y: number }[], b: Box): boolean {
  for (let i = 1; i < pts.length; i++) {
    const q = pts[i - 1]!;
    const p = pts[i]!;
    const n = Math.max(1, Math.ceil(Math.hypot(p.x - q.x, p.y - q.y) / 0.5));
    for (let k = 0; k <= n; k++) {
      const x = q.x + ((p.x - q.x) * k) / n;
      const y = q.y + ((p.y - q.y) * k) / n;
      if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return true;
    }
  }
  return false;
}

test('the reply wire goes round the balancer under direct server return and MetalLB', async ({
  page,
}) => {
  // Google Cloud's passthrough Network Load Balancer: "Responses from the backend VMs go
  // directly to the clients, not back through the load balancer" (direct server return);
  // MetalLB puts no balancer on the path at all (metallb.universe.tf/concepts/layer2, /bgp).
  const app = await new AppPage(page).goto();
  await app.setClient('internet');
  await app.dial('LoadBalancer');
  const lb = app.topology.locator('[data-place="lb"]');
  for (const impl of ['DirectServerReturn', 'MetalLB-L2', 'MetalLB-BGP'] as const) {
    await app.setImplementation(impl);
    await expect(lb).toHaveAttribute('data-implementation', impl);
    await app.last();
    const replies = app.topology.locator('path.edge.used.reply[data-hop$=">client"]');
    await expect(replies.first()).toBeAttached();
    const hops = await replies.evaluateAll((ps) =>
      ps.map((p) => ({ hop: p.getAttribute('data-hop') ?? '', d: p.getAttribute('d') ?? '' })),
    );
    const direct = hops.filter((h) => h.hop.startsWith('node:'));
    expect(direct.length, `${impl}: ${JSON.stringify(hops.map((h) => h.hop))}`).toBe(1);
    expect(
      hops.some((h) => h.hop === 'lb>client'),
      impl,
    ).toBe(false);
    const [frame] = await boxes(lb, '.lb-frame');
    expect(touches(pointsOf(direct[0]!.d), frame!), `${impl}: ${direct[0]!.d}`).toBe(false);
    if (impl !== 'DirectServerReturn')
      await expect(app.topology.locator('path.edge.used[data-hop*="lb"]')).toHaveCount(0);
    await expect(page.getByTestId('legend')).toContainText(
      impl === 'DirectServerReturn' ? 'reply straight from the node' : 'no balancer',
    );
  }
  await app.setImplementation('NAT');
  await app.last();
  await expect(app.topology.locator('path.edge.used.reply[data-hop="lb>client"]')).toHaveCount(1);
  await expect(page.getByTestId('legend')).toContainText(
    'reply via the NAT balancer (like AWS NLB)',
  );
});
