import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { openCluster } from './cluster';

export type Controller = 'cloud' | 'none' | 'metallb-l2';

/**
 * Page object for the "Time & failures" view. Every action waits on a `data-*` attribute that
 * proves it took effect (`data-sim-time`, `data-state`, `data-total`…); nothing sleeps.
 */
export class TimelinePage {
  readonly toggle: Locator;
  readonly view: Locator;
  readonly kubectl: Locator;
  readonly controlPlane: Locator;
  readonly lanes: Locator;
  readonly schedule: Locator;
  readonly log: Locator;
  readonly many: Locator;

  constructor(readonly page: Page) {
    this.toggle = page.getByTestId('time-toggle');
    this.view = page.getByTestId('time-view');
    this.kubectl = page.getByTestId('kubectl-svc');
    this.controlPlane = page.getByTestId('control-plane');
    this.lanes = page.getByTestId('health-lanes');
    this.schedule = page.getByTestId('schedule');
    this.log = page.getByTestId('time-log');
    this.many = page.getByTestId('many-connections');
  }

  /** Switches to the time view and waits until the model's timeline is on screen. */
  async open(): Promise<void> {
    await this.toggle.click();
    await expect(this.toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(this.view).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  }

  // ---- the clock ----

  async simTime(): Promise<number> {
    return Number(await this.view.getAttribute('data-sim-time'));
  }

  async horizon(): Promise<number> {
    return Number(await this.view.getAttribute('data-horizon'));
  }

  async expectSimTime(ms: number): Promise<void> {
    await expect(this.view).toHaveAttribute('data-sim-time', String(ms));
  }

  private command(id: string): Locator {
    return this.page.locator(`[data-time-command="${id}"]`);
  }

  /** "Next event": waits until the clock has moved. */
  async nextEvent(): Promise<number> {
    const before = await this.simTime();
    await this.command('next').click();
    await expect(this.view).not.toHaveAttribute('data-sim-time', String(before));
    return this.simTime();
  }

  /** Steps event by event until the clock reads exactly `ms` (which must be an entry's time). */
  async stepTo(ms: number): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const t = await this.simTime();
      if (t === ms) return;
      if (t > ms) throw new Error(`stepped past ${ms} ms to ${t} ms: ${ms} is not an entry's time`);
      await this.nextEvent();
    }
    throw new Error(`did not reach ${ms} ms`);
  }

  async start(): Promise<void> {
    await this.command('start').click();
    await this.expectSimTime(0);
  }

  async end(): Promise<void> {
    await this.command('end').click();
    await this.expectSimTime(await this.horizon());
  }

  // ---- provisioning ----

  async setController(kind: Controller): Promise<void> {
    const radio = this.page.locator(`fieldset[data-group="controller"] input[value="${kind}"]`);
    await radio.check();
    await expect(radio).toBeChecked();
    await this.expectSimTime(0);
  }

  async expectExternalIp(ip: string): Promise<void> {
    await expect(this.kubectl).toHaveAttribute('data-external-ip', ip);
  }

  // ---- failures ----

  /** Adds an event with the form (`at` in seconds) and waits for it in the list. */
  async scheduleEvent(action: string, target: string | null, atSeconds: number): Promise<void> {
    const events = this.schedule.locator('[data-event-kind]');
    const before = await events.count();
    await this.schedule.getByTestId('schedule-action').selectOption(action);
    if (target !== null) await this.schedule.getByTestId('schedule-target').selectOption(target);
    await this.schedule.getByTestId('schedule-at').fill(String(atSeconds));
    await this.schedule.getByTestId('schedule-add').click();
    await expect(events).toHaveCount(before + 1);
    await expect(this.view).toHaveAttribute('data-state', 'ready');
  }

  lane(node: string): Locator {
    return this.lanes.locator(`[data-lane="${node}"]`);
  }

  deadWindow(node: string): Locator {
    return this.log.locator(`[data-testid="dead-window"][data-node="${node}"]`);
  }

  // ---- many connections ----

  /** Sends `count` connections with the form and waits until the summary counts them. */
  async send(count: number): Promise<void> {
    await this.many.locator('input[data-field="count"]').fill(String(count));
    await this.many.getByTestId('send-connections').click();
    await expect(this.many.getByTestId('many-summary')).toHaveAttribute(
      'data-total',
      String(count),
      {
        timeout: 20_000,
      },
    );
  }

  /** The rows of the per-node or per-Pod table: id, count and shares as the model gave them. */
  async shareRows(
    kind: 'node' | 'pod',
  ): Promise<{ id: string; count: number; share: number; expected: number }[]> {
    const rows = this.many.getByTestId(`share-table-${kind}`).locator('tbody tr[data-row]');
    const out: { id: string; count: number; share: number; expected: number }[] = [];
    for (const row of await rows.all()) {
      out.push({
        id: (await row.getAttribute('data-row')) ?? '',
        count: Number(await row.getAttribute('data-count')),
        share: Number((await row.getAttribute('data-share')) ?? NaN),
        expected: Number((await row.getAttribute('data-expected')) ?? NaN),
      });
    }
    return out;
  }

  // ---- scenario and clock ----

  /** Picks an example in the "Your cluster" dialog (it applies at once, and the dialog closes). */
  async pickExample(title: string): Promise<void> {
    const panel = await openCluster(this.page);
    await panel.getByLabel('Example').selectOption({ label: title });
    await expect(this.page.getByTestId('import-notice')).toContainText(`Applied ${title}`);
  }

  /** Moves the clock with the seek slider to whole second `s` and waits for it. */
  async seekSeconds(s: number): Promise<void> {
    await this.page.getByTestId('time-seek').fill(String(s));
    await this.expectSimTime(s * 1000);
  }

  /** The scheduled event at `index` of the list. */
  event(index: number): Locator {
    return this.schedule.locator('[data-event-kind]').nth(index);
  }

  /** A node's box in the time view's topology. */
  node(name: string): Locator {
    return this.view.locator(`[data-place="node:${name}"]`);
  }

  /** The rotation tag drawn over a node of the time view's topology. */
  overlayTag(name: string): Locator {
    return this.view.locator(`[data-testid="time-overlay"] [data-node="${name}"]`);
  }
}
