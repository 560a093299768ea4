import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { canonicalObjects, DEFAULT_SCENE, DEFAULT_WALKTHROUGH } from '../src/model';
import { sceneAt } from '../src/model/time';
import type { Timeline, TimelineEvent } from '../src/model/time/types';
import { INITIAL_TIME } from '../src/store/timelineSlice';
import type { TimeState } from '../src/store/types';
import { runTimeline } from '../src/store/timelineDerive';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { TimelinePage } from './pages/timeline';

/** Screenshots for people to look at (not compared). */
const SHOTS = process.env['TIMELINE_SHOTS'];
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/time-${name}.png`, fullPage: false });
};

/**
 * The scene the app opens on (the walkthrough's first step over the default scene) and the
 * timeline the model computes for it — the expectations come from the model, run here in Node
 * with the same inputs the page gives it.
 */
const openingScene = { ...DEFAULT_SCENE, ...DEFAULT_WALKTHROUGH.steps[0]!.scene };
function modelTimeline(
  patch: Partial<Pick<TimeState, 'controller' | 'events' | 'workload'>> = {},
): Timeline {
  return runTimeline(canonicalObjects(), openingScene, { ...INITIAL_TIME, ...patch }).timeline;
}

test.describe('time and failures', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the view loads on demand and Space drives its clock', async ({ page }) => {
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/TimeWorkspace/.test(r.url())) chunks.push(r.url());
    });
    await new AppPage(page).goto();
    expect(chunks).toEqual([]);
    const tl = new TimelinePage(page);
    await tl.open();
    expect(chunks.length).toBeGreaterThan(0);
    await expect(page.locator('.app-footer')).toContainText('Space play/pause the clock');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
      'data-state',
      'playing',
    );
    await expect(tl.view).not.toHaveAttribute('data-sim-time', '0');
    await page.keyboard.press('Space');
    await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
      'data-state',
      'paused',
    );
    // → goes to the next entry of the timeline, Home back to 0.
    await page.keyboard.press('Home');
    await tl.expectSimTime(0);
    const model = modelTimeline();
    const next = model.entries.find((e) => e.at > 0)!.at;
    await page.keyboard.press('ArrowRight');
    await tl.expectSimTime(next);
    await expect(page.getByTestId('time-seek')).toHaveAttribute('aria-valuetext', /^t = \d+ s$/);
  });

  test('with reduced motion the clock jumps a whole `speed` seconds at a time', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await page.getByTestId('time-speed').selectOption('5');
    await page.locator('[data-time-command="play"]').click();
    // The first change of the clock is one jump of 5 simulated seconds, not a glide.
    await expect(tl.view).not.toHaveAttribute('data-sim-time', '0');
    expect(await tl.simTime()).toBe(5_000);
    await page.locator('[data-time-command="play"]').click();
    await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
      'data-state',
      'paused',
    );
    expect((await tl.simTime()) % 5_000).toBe(0);
  });

  test('provisioning: EXTERNAL-IP is <pending> until the model publishes 203.0.113.7', async ({
    page,
  }) => {
    const model = modelTimeline();
    const published = model.entries.find((e) => e.kind === 'published');
    expect(published).toBeDefined();
    const at = published!.at;
    const before = [...new Set(model.entries.map((e) => e.at))].filter((t) => t < at).at(-1)!;

    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.expectSimTime(0);
    await expect(tl.kubectl).toHaveAttribute('data-state', 'pending');
    await tl.expectExternalIp('<pending>');
    await expect(tl.kubectl.locator('pre')).toContainText('<pending>');

    await tl.stepTo(before);
    await tl.expectExternalIp('<pending>');
    await shot(page, 'provisioning-light');
    await tl.stepTo(at);
    await expect(tl.kubectl).toHaveAttribute('data-state', 'published');
    await tl.expectExternalIp('203.0.113.7');
    await expect(tl.kubectl.locator('pre')).toContainText('203.0.113.7');
    await expect(tl.kubectl.getByTestId('kubectl-announce')).toHaveText(
      'EXTERNAL-IP of web is now 203.0.113.7.',
    );
    await expect(tl.controlPlane).toHaveAttribute('data-stage', 'published');
    await page.getByLabel('Theme').selectOption('dark');
    await shot(page, 'published-dark');
  });

  test('with no controller the address stays <pending> for good, and the view says why', async ({
    page,
  }) => {
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.setController('none');
    await tl.end();
    await expect(tl.kubectl).toHaveAttribute('data-state', 'pending');
    await tl.expectExternalIp('<pending>');
    const why = tl.kubectl.getByTestId('pending-why');
    await expect(why).toBeVisible();
    await expect(why).toContainText(/no cloud-controller-manager|nothing .*implements/i);
    const model = modelTimeline({ controller: 'none' });
    expect(model.entries.some((e) => e.kind === 'published')).toBe(false);
    await shot(page, 'controller-none');
  });

  test('failing a node mid-run: it leaves rotation when the model says, and the window count matches', async ({
    page,
  }) => {
    const failAt = 60;
    const events: TimelineEvent[] = [{ at: failAt * 1000, kind: 'fail-node', node: 'node-1' }];
    const model = modelTimeline({ events });
    const window = model.deadNodeWindows.find((w) => w.node === 'node-1');
    expect(window).toBeDefined();
    expect(window!.leftRotationAt).not.toBeNull();
    const left = window!.leftRotationAt!;

    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('fail-node', 'node-1', failAt);
    const dead = tl.deadWindow('node-1');
    await expect(dead).toHaveAttribute('data-failed-at', String(failAt * 1000));
    await expect(dead).toHaveAttribute('data-left-at', String(left));
    await expect(dead).toHaveAttribute('data-count', String(window!.connectionsSent));
    await expect(dead).toContainText(
      `${window!.connectionsSent.toLocaleString('en-US')} new connection`,
    );

    // In rotation until the model's time, out from it.
    await tl.stepTo(failAt * 1000);
    await expect(tl.lane('node-1')).toHaveAttribute('data-rotation', 'in');
    await tl.stepTo(left);
    await expect(tl.lane('node-1')).toHaveAttribute('data-rotation', 'out');
    await expect(tl.lane('node-2')).toHaveAttribute('data-rotation', 'in');
    // The lane tells each probe by shape and text: a failed one is a timeout on a dead node.
    await tl.lane('node-1').focus();
    await expect(page.getByTestId('probe-caption')).toContainText('node-1');
    // The probe at the moment the node left: a timeout, told in words as well as by shape.
    const lastFailed = model.probes.filter((p) => p.node === 'node-1' && p.doneAt <= left).at(-1)!;
    expect(lastFailed.status).toBeNull();
    const caption = page.getByTestId('probe-caption');
    const captionAt = async () =>
      Number(((await caption.textContent()) ?? '').match(/^t = ([\d.]+) s/)?.[1]) * 1000;
    for (let i = 0; i < 60; i++) {
      const at = await captionAt();
      if (at === lastFailed.at) break;
      const before = (await caption.textContent()) ?? '';
      await page.keyboard.press(at < lastFailed.at ? 'ArrowRight' : 'ArrowLeft');
      await expect(caption).not.toHaveText(before);
    }
    await expect(page.getByTestId('probe-caption')).toContainText(
      `t = ${lastFailed.at / 1000} s · node-1`,
    );
    await expect(page.getByTestId('probe-caption')).toContainText('∅ timeout');
    await expect(page.getByTestId('probe-caption')).toContainText('out of rotation after it');
    await tl.lanes.getByLabel('90 s around the clock').check();
    await expect(tl.lanes).toHaveAttribute('data-zoom', 'window');
    await tl.lanes.scrollIntoViewIfNeeded();
    await shot(page, 'failed-node-lanes-light');
    await page.getByLabel('Theme').selectOption('dark');
    await shot(page, 'failed-node-lanes-dark');
  });

  test('many connections: 10,000 in canonical Cluster split 1/2 per Pod, and the counts sum to N', async ({
    page,
  }) => {
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.send(10_000);
    const pods = await tl.shareRows('pod');
    expect(pods.reduce((a, r) => a + r.count, 0)).toBe(10_000);
    const real = pods.filter((r) => r.id !== 'none');
    // Two ready Pods (10.244.1.5 on node-1, 10.244.3.9 on node-3); kube-proxy picks one of the
    // two endpoints with probability 1/2 (`-m statistic --mode random --probability 0.5`).
    expect(real).toHaveLength(2);
    for (const r of real) expect(r.expected).toBeCloseTo(0.5, 10);
    const nodes = await tl.shareRows('node');
    expect(nodes.reduce((a, r) => a + r.count, 0)).toBe(10_000);
    await expect(tl.many.getByTestId('share-total-pod')).toHaveText('10,000');
    await tl.many.getByTestId('share-chart').scrollIntoViewIfNeeded();
    await shot(page, 'many-connections-light');
  });

  test('many connections under Local with 1 + 3 Pods: the lone Pod’s expected share is 3× each other’s', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await page
      .getByRole('region', { name: 'Your cluster' })
      .getByLabel('Open a file…')
      .setInputFiles({
        name: 'local.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(readFileSync('public/examples/local-uneven.yaml', 'utf8')),
      });
    await expect(app.topology).toContainText('aks-nodepool1-38290761-vmss000000');
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.send(10_000);
    const pods = (await tl.shareRows('pod')).filter((r) => r.id !== 'none');
    expect(pods).toHaveLength(4);
    const shares = pods.map((r) => r.expected).sort((a, b) => b - a);
    // The balancer splits by node (two healthy nodes, 1/2 each); one node has 1 Pod, the other 3.
    expect(shares[0]).toBeCloseTo(0.5, 10);
    // 3× up to kube-proxy's rounding: the iptables rules carry `--probability 0.33333333349`
    // (printed with ten decimals), so the three shares are not exactly 1/6.
    for (const s of shares.slice(1)) expect(shares[0]! / s).toBeCloseTo(3, 6);
    expect((await tl.shareRows('pod')).reduce((a, r) => a + r.count, 0)).toBe(10_000);
  });

  test('"Open as trace" lands on the trace view with the connection’s pinned choices', async ({
    page,
  }) => {
    const model = modelTimeline();
    const app = await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    const row = tl.log.locator('[data-testid="connection-list"] tr[data-connection]').first();
    const id = (await row.getAttribute('data-connection'))!;
    const expected = sceneAt(model, id).scene.choices;
    await row.getByRole('button', { name: `Open ${id} as a trace` }).click();
    await expect(tl.view).toHaveCount(0);
    await expect(tl.toggle).toHaveAttribute('aria-pressed', 'false');
    await app.expectStep(0);
    await expect(app.root).toHaveAttribute('data-lb-target', expected.lbTarget ?? '');
    await expect(app.root).toHaveAttribute('data-endpoint', expected.endpoint ?? '');
  });
});
