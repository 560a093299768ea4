import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { canonicalObjects, DEFAULT_SCENE, DEFAULT_WALKTHROUGH } from '../src/model';
import { sceneAt } from '../src/model/time';
import type { Timeline, TimelineEvent } from '../src/model/time/types';
import { INITIAL_TIME } from '../src/store/timelineSlice';
import type { TimeState } from '../src/store/types';
import { runTimeline } from '../src/store/timelineDerive';
import LZString from 'lz-string';
import { encodeState } from '../src/store/share/link';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { openCluster } from './pages/cluster';
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
    await (await openCluster(page)).getByLabel('Open a file…').setInputFiles({
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

/**
 * The fixes of review rev-time (notes/review-rev-time/REPORT.md): each test names its finding.
 * Expected values come from the model run in Node with the page's inputs, or from Kubernetes.
 */
test.describe('time and failures: review rev-time', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  /** Chromium without a clipboard, so "Copy link" shows the link in a field. */
  const noClipboard = async (page: Page) =>
    page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', {
        configurable: true,
        get: () => undefined,
      });
    });

  test('1: a scenario switch flags events that no longer apply and never traps the view', async ({
    page,
  }) => {
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('fail-node', 'node-1', 30);
    await expect(tl.deadWindow('node-1')).toBeVisible();
    await tl.pickExample('externalTrafficPolicy Local, Pods spread unevenly');
    await expect(tl.view).toHaveAttribute('data-state', 'ready');
    await expect(tl.event(0)).toHaveAttribute('data-skipped', 'true');
    await expect(tl.event(0)).toContainText('skipped: node-1 is not in this cluster');
    await expect(tl.log.getByTestId('dead-window')).toHaveCount(0);
    await shot(page, 'switch-flagged');
    // Back on the canonical scenario the same event applies again.
    await (
      await openCluster(page)
    )
      .getByRole('button', { name: 'Reset to the default scenario' })
      .click();
    await expect(tl.event(0)).not.toHaveAttribute('data-skipped', 'true');
    await expect(tl.deadWindow('node-1')).toBeVisible();
  });

  test('1: when the model cannot simulate, the schedule, the event list and the settings stay', async ({
    page,
  }) => {
    // Each setting is in range, together they are not: the timeout outlasts the interval.
    const hash = encodeState(
      {
        v: 1,
        scene: openingScene,
        step: -1,
        story: null,
        time: {
          view: 'time',
          controller: 'cloud',
          events: [{ at: 30_000, kind: 'fail-node', node: 'node-1' }],
          healthCheck: { intervalSeconds: 2, timeoutSeconds: 5 },
          workload: INITIAL_TIME.workload,
          simMs: 0,
        },
      },
      LZString.compressToEncodedURIComponent,
    );
    await new AppPage(page).goto(`/${hash}`);
    const tl = new TimelinePage(page);
    await expect(tl.view).toHaveAttribute('data-state', 'error');
    await expect(page.getByTestId('time-error')).toContainText('healthCheck.timeoutSeconds');
    await expect(tl.event(0)).toContainText('fail node-1');
    await expect(tl.schedule.getByTestId('schedule-add')).toBeVisible();
    await expect(
      page.getByTestId('hc-form').locator('input[data-field="timeoutSeconds"]'),
    ).toHaveValue('5');
    await shot(page, 'error-state');
    await page
      .getByTestId('hc-form')
      .getByRole('button', { name: 'Reset to the defaults' })
      .click();
    await expect(tl.view).toHaveAttribute('data-state', 'ready');
    await expect(tl.deadWindow('node-1')).toBeVisible();
    // Every event stays removable.
    await tl
      .event(0)
      .getByRole('button', { name: /^Remove/ })
      .click();
    await expect(tl.schedule.locator('[data-event-kind]')).toHaveCount(0);
  });

  test('5: Copy link in the time view reopens exactly it; reload keeps it; Back returns', async ({
    page,
    browser,
  }) => {
    await noClipboard(page);
    const app = await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.setController('metallb-l2');
    await tl.scheduleEvent('fail-node', 'node-2', 45);
    await tl.lanes.page().getByText('Health-check settings', { exact: true }).click();
    await page.getByTestId('hc-form').locator('input[data-field="intervalSeconds"]').fill('5');
    await tl.many.locator('input[data-field="count"]').fill('300');
    await tl.many.getByTestId('send-connections').click();
    await expect(tl.many.getByTestId('many-summary')).toHaveAttribute('data-total', '300');
    await tl.seekSeconds(50);
    const expectView = async (t: TimelinePage) => {
      await expect(t.view).toHaveAttribute('data-state', 'ready');
      await expect(t.view).toHaveAttribute('data-controller', 'metallb-l2');
      await expect(t.view).toHaveAttribute('data-events', 'fail:node-2@45s');
      await expect(t.view).toHaveAttribute('data-connections', '300');
      await expect(t.view).toHaveAttribute('data-sim-time', '50000');
      await expect(t.view).toHaveAttribute('data-hc-interval', '5');
    };
    const link = await app.copyLink();
    expect(link).toMatch(/#s=/);
    const context = await browser.newContext();
    const other = await context.newPage();
    const errors: string[] = [];
    other.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    await other.goto(link);
    await expectView(new TimelinePage(other));
    await context.close();
    expect(errors).toEqual([]);

    await page.reload();
    await expectView(tl);

    // Switching views makes a history entry: Back returns to the time view, then to the trace.
    await tl.toggle.click();
    await expect(tl.view).toHaveCount(0);
    await page.goBack();
    await expectView(tl);
    await page.goBack();
    await expect(tl.view).toHaveCount(0);
    await expect(tl.toggle).toHaveAttribute('aria-pressed', 'false');
  });

  test('3, 9, 18: until NodeNotReady a failed node reads "✗ down"; Open as trace focuses the narration and keeps it down', async ({
    page,
  }) => {
    const events: TimelineEvent[] = [{ at: 60_000, kind: 'fail-node', node: 'node-1' }];
    const model = modelTimeline({ events });
    const notReady = model.entries.find((e) => e.reason === 'NodeNotReady')!.at;
    // --node-monitor-grace-period 50 s after the failure.
    expect(notReady).toBe(110_000);
    const app = await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('fail-node', 'node-1', 60);
    for (const s of [61, 80, 109]) {
      await tl.seekSeconds(s);
      // The visible status, then its tooltip: the Node object still reads Ready.
      await expect(tl.node('node-1').locator('.status')).toHaveText(/✗ down$/);
      await expect(tl.node('node-1').locator('.status title')).toContainText('still reads Ready');
      await expect(tl.node('node-1')).not.toContainText('NotReady');
    }
    await tl.seekSeconds(100);
    const row = tl.log.locator('[data-testid="connection-list"] tr[data-connection]').last();
    const id = (await row.getAttribute('data-connection'))!;
    await row.getByRole('button', { name: `Open ${id} as a trace` }).focus();
    await page.keyboard.press('Enter');
    await expect(tl.view).toHaveCount(0);
    await expect(page.getByTestId('narration').locator('h2')).toBeFocused();
    const top = await page.locator('main.layout').evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(50);
    await expect(app.topology.locator('[data-place="node:node-1"] .status')).toHaveText(/✗ down$/);
    const button = page.getByTestId('scene').getByRole('button', { name: /node-1/ });
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(button).toHaveText('✗ node-1 down — restore');
    await shot(page, 'open-as-trace');
    await button.click();
    await expect(app.topology.locator('[data-place="node:node-1"] .status')).toHaveText('✓ Ready');
  });

  test('4, 17: both windows are reported; paths and why a connection ended are on screen', async ({
    page,
  }) => {
    const events: TimelineEvent[] = [{ at: 60_000, kind: 'fail-node', node: 'node-1' }];
    const w = modelTimeline({ events }).deadNodeWindows[0]!;
    // NodeNotReady at 110 s, EndpointSlice → kube-proxy 1 s later.
    expect(w.endpointsUpdatedAt).toBe(111_000);
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('fail-node', 'node-1', 60);
    const dead = tl.deadWindow('node-1');
    await expect(dead).toHaveAttribute('data-stale-count', String(w.staleEndpointConnections));
    await expect(dead.getByTestId('stale-window')).toContainText(
      `other nodes still DNATed ${w.staleEndpointConnections.toLocaleString('en-US')} new connections`,
    );
    await expect(dead.getByTestId('stale-window')).toContainText(
      '--node-monitor-grace-period (50 s)',
    );
    await expect(dead.getByTestId('stale-window')).toContainText('40–55 s');
    await tl.seekSeconds(75);
    const list = tl.log.getByTestId('connection-list');
    await expect(list.getByRole('columnheader', { name: 'why it ended so' })).toBeVisible();
    const blackholed = list.locator('td.path', { hasText: 'blackholed at node-1 (down)' }).first();
    await expect(blackholed).toBeVisible();
    await expect(blackholed.locator('xpath=../td[@class="why"]')).toContainText(
      'its SYN got no answer',
    );
    await expect(
      list.locator('td.path', { hasText: 'on node-1 (down): no answer' }).first(),
    ).toBeVisible();
    await expect(list).not.toContainText('no endpoint');
    // The dead-window label stays inside the lane (it was clipped at the right edge).
    const label = tl.lanes.locator('[data-testid="dead-window-mark"] text').first();
    const svg = await tl.lanes.locator('svg.lanes-svg').boundingBox();
    const box = await label.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(svg!.x + svg!.width);
    await tl.log.scrollIntoViewIfNeeded();
    await shot(page, 'windows');
  });

  test('6: cluster-autoscaler scale-down: /healthz answers 503 while the node still forwards', async ({
    page,
  }) => {
    const events: TimelineEvent[] = [{ at: 60_000, kind: 'scale-down-node', node: 'node-1' }];
    const model = modelTimeline({ events });
    const failed = model.probes.filter((p) => p.node === 'node-1' && p.at > 60_000);
    expect(failed[0]!.status).toBe(503);
    expect(failed[0]!.body).toContain('"nodeEligible":false');
    const left = model.rotation.find((r) => r.node === 'node-1' && !r.inRotation)!.at;
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('scale-down-node', 'node-1', 60);
    const mark = tl.lane('node-1').locator(`[data-probe-at="${failed[0]!.at}"]`);
    await expect(mark).toHaveAttribute('data-result', 'fail');
    await expect(mark.locator('title')).toContainText('✗ 503');
    await expect(tl.log.getByTestId('event-log')).toContainText('"nodeEligible":false');
    await tl.seekSeconds(Math.ceil(left / 1000));
    await expect(tl.lane('node-1')).toHaveAttribute('data-rotation', 'out');
    // Not dead: no dead-node window.
    await expect(tl.log.getByTestId('dead-window')).toHaveCount(0);
  });

  test('7, 17: a node that never passes is out of rotation, "never passed", in lanes and topology; Space plays from a lane', async ({
    page,
  }) => {
    const app = await new AppPage(page).goto();
    await app.setPolicy('Local');
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.seekSeconds(60);
    await expect(tl.lane('node-2')).toHaveAttribute('data-rotation', 'out');
    await expect(tl.lane('node-2').locator('.lane-sub')).toHaveText('○ never passed');
    await expect(tl.lane('node-2').locator('[data-band="out"]')).toHaveCount(1);
    await expect(tl.overlayTag('node-2')).toContainText('○ out · never passed');
    // The balancer box says the same (its targets follow the timeline's rotation).
    await expect(tl.view.locator('[data-testid="topology"]')).toContainText(
      'node-2 ○ out of rotation',
    );
    await tl.lane('node-1').focus();
    await page.keyboard.press('Space');
    await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
      'data-state',
      'playing',
    );
    await page.keyboard.press('Space');
    await expect(page.locator('[data-time-command="play"]')).toHaveAttribute(
      'data-state',
      'paused',
    );
    await expect(tl.lane('node-1')).toBeFocused();
  });

  test('8: MetalLB says memberlist, not probes; the excluded control-plane node never announces', async ({
    page,
  }) => {
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.setController('metallb-l2');
    const leader = modelTimeline({ controller: 'metallb-l2' }).epochs.at(-1)!.state.announcingNode!;
    await tl.scheduleEvent('fail-node', leader, 60);
    const dead = tl.deadWindow(leader);
    await expect(dead).toContainText('memberlist');
    await expect(dead).not.toContainText(/probe|unhealthy threshold/);
    await tl.pickExample('Bare metal, EXTERNAL-IP <pending>');
    await expect(tl.view).toHaveAttribute('data-state', 'ready');
    await expect(tl.log.getByTestId('event-log')).toContainText(
      'The speaker on k8s-cp-1 never announces',
    );
    await tl.end();
    await expect(tl.overlayTag('k8s-cp-1')).not.toContainText('answers ARP');
  });

  test('10: Kill pod offers the Pods that exist at the chosen time', async ({ page }) => {
    const events: TimelineEvent[] = [{ at: 50_000, kind: 'fail-node', node: 'node-1' }];
    const model = modelTimeline({ events });
    const podsAt = (ms: number) =>
      model.epochs
        .filter((e) => e.from <= ms)
        .at(-1)!
        .state.pods.filter((p) => p.phase !== 'Terminating')
        .map((p) => p.key)
        .sort();
    const later = model.settings.horizonMs - 1000;
    // The replacement Pod exists only after the eviction (50 + 50 + 300 s).
    expect(podsAt(60_000)).not.toEqual(podsAt(later));
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await tl.scheduleEvent('fail-node', 'node-1', 50);
    await tl.schedule.getByTestId('schedule-action').selectOption('kill-pod');
    const options = tl.schedule.getByTestId('schedule-target').locator('option');
    await tl.schedule.getByTestId('schedule-at').fill('60');
    await expect(options).toHaveText(podsAt(60_000));
    await tl.schedule.getByTestId('schedule-at').fill(String(later / 1000));
    await expect(options).toHaveText(podsAt(later));
  });

  test('16, 17: the settings say GCP; no ⌛ anywhere; three Pods on a node do not overlap', async ({
    page,
  }) => {
    await new AppPage(page).goto();
    const tl = new TimelinePage(page);
    await tl.open();
    await expect(page.getByTestId('hc-defaults-note')).toContainText('Defaults modelled on GCP');
    expect(await tl.view.textContent()).not.toContain('⌛');
    await tl.pickExample('externalTrafficPolicy Local, Pods spread unevenly');
    await expect(tl.view).toHaveAttribute('data-state', 'ready');
    await tl.seekSeconds(60);
    expect(await tl.view.textContent()).not.toContain('⌛');
    const node = tl.node('aks-nodepool1-38290761-vmss000001');
    const pods = await node.locator('.pod').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      }),
    );
    expect(pods).toHaveLength(3);
    for (let i = 0; i < pods.length; i++)
      for (let j = i + 1; j < pods.length; j++) {
        const a = pods[i]!;
        const b = pods[j]!;
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `pods ${i} and ${j}`).toBe(false);
      }
    // The node's title and its NodePort badge do not run into each other.
    const title = await node.locator('text.title').boundingBox();
    const badge = await node.locator('.nodeport rect').boundingBox();
    const apart =
      title!.x + title!.width <= badge!.x ||
      badge!.x + badge!.width <= title!.x ||
      title!.y + title!.height <= badge!.y ||
      badge!.y + badge!.height <= title!.y;
    expect(apart).toBe(true);
    await shot(page, 'local-uneven-60s');
  });
});
