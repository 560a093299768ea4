import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

export type Policy = 'Cluster' | 'Local';
export type IpMode = 'VIP' | 'Proxy';

export interface InspectorRow {
  before: string;
  after: string;
  changed: boolean;
}

/**
 * Page object for the app. Every action waits on a `data-*` attribute (or an ARIA state)
 * that proves it took effect; nothing sleeps.
 */
export class AppPage {
  readonly root: Locator;
  readonly topology: Locator;
  readonly packet: Locator;
  readonly narration: Locator;
  readonly inspector: Locator;
  readonly rulePanel: Locator;
  readonly conntrack: Locator;
  readonly rules: Locator;
  readonly walkthrough: Locator;
  readonly timeline: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('app');
    this.topology = page.getByTestId('topology');
    this.packet = page.getByTestId('packet');
    this.narration = page.getByTestId('narration-text');
    this.inspector = page.getByTestId('inspector-table');
    this.rulePanel = page.getByTestId('rule');
    this.conntrack = page.getByTestId('conntrack');
    this.rules = page.getByTestId('rules');
    this.walkthrough = page.getByTestId('walkthrough');
    this.timeline = page.getByTestId('timeline');
  }

  /** Opens the app and waits until the model has produced a trace. */
  async goto(path = '/'): Promise<this> {
    await this.page.goto(path);
    await expect(this.root).toHaveAttribute('data-step-count', /^\d+$/);
    return this;
  }

  // ---- reading state ----

  async stepIndex(): Promise<number> {
    return Number(await this.root.getAttribute('data-step-index'));
  }

  async stepCount(): Promise<number> {
    return Number(await this.root.getAttribute('data-step-count'));
  }

  async expectStep(index: number): Promise<void> {
    await expect(this.root).toHaveAttribute('data-step-index', String(index));
  }

  /** The place the packet is at (or heading to) on the current step. */
  async packetAt(): Promise<string | null> {
    return this.packet.getAttribute('data-packet-at');
  }

  async expectPacketAt(place: string): Promise<void> {
    await expect(this.packet).toHaveAttribute('data-packet-at', place);
  }

  async narrationTitle(): Promise<string> {
    return (await this.narration.locator('.narration-title').textContent()) ?? '';
  }

  async narrationBody(): Promise<string> {
    return (await this.narration.locator('.narration-body').textContent()) ?? '';
  }

  /** One row of the packet inspector: `src`, `dport`, `mark`, … */
  async inspectorRow(field: string): Promise<InspectorRow> {
    const row = this.inspector.locator(`tr[data-field="${field}"]`);
    const before = (await row.locator('[data-value="before"]').textContent()) ?? '';
    const after = (await row.locator('[data-value="after"]').textContent()) ?? '';
    return {
      before: before.trim(),
      after: after.replace('✱ changed', '').trim(),
      changed: (await row.getAttribute('data-changed')) === 'true',
    };
  }

  /** The outcome kind shown at the end (`delivered`, `dropped`, …); goes to the last step. */
  async outcome(): Promise<string | null> {
    await this.last();
    const banner = this.page.getByTestId('outcome');
    await expect(banner).toBeVisible();
    return banner.getAttribute('data-outcome');
  }

  /** The chosen candidate of the decision on the current step, if any. */
  async chosen(): Promise<string | null> {
    return this.rulePanel.getByTestId('decision').getAttribute('data-chosen');
  }

  // ---- playback ----

  private command(id: string): Locator {
    return this.page.locator(`[data-command="${id}"]`);
  }

  /**
   * Whether a command button applies now. Command buttons say "disabled" with aria-disabled
   * (they keep focus when they stop applying), not with the disabled attribute.
   */
  async commandEnabled(id: string): Promise<boolean> {
    return (await this.command(id).getAttribute('aria-disabled')) !== 'true';
  }

  async expectCommandDisabled(id: string, disabled = true): Promise<void> {
    if (disabled) await expect(this.command(id)).toHaveAttribute('aria-disabled', 'true');
    else await expect(this.command(id)).not.toHaveAttribute('aria-disabled', 'true');
  }

  async next(): Promise<void> {
    const i = await this.stepIndex();
    await this.command('next').click();
    await this.expectStep(i + 1);
  }

  async prev(): Promise<void> {
    const i = await this.stepIndex();
    await this.command('prev').click();
    await this.expectStep(i - 1);
  }

  async restart(): Promise<void> {
    if (await this.commandEnabled('first')) await this.command('first').click();
    await this.expectStep(-1);
  }

  async last(): Promise<void> {
    if (await this.commandEnabled('last')) await this.command('last').click();
    await this.expectStep((await this.stepCount()) - 1);
  }

  /** Goes to step `index` (-1 = before the first) with the timeline's tick for it. */
  async goToStep(index: number): Promise<void> {
    const name = index < 0 ? 'Before the first step' : new RegExp(`^Go to step ${index + 1}:`);
    await this.page.getByRole('button', { name }).click();
    await this.expectStep(index);
  }

  async play(): Promise<void> {
    await this.command('play-pause').click();
    await expect(this.command('play-pause')).toHaveAccessibleName('Pause');
  }

  async pause(): Promise<void> {
    await this.command('play-pause').click();
    await expect(this.command('play-pause')).toHaveAccessibleName('Play');
  }

  /** Plays and waits until playback stops at the last step. */
  async playToEnd(): Promise<void> {
    await this.play();
    await expect(this.command('play-pause')).toHaveAccessibleName('Play', { timeout: 60_000 });
    await this.expectStep((await this.stepCount()) - 1);
  }

  /** Presses a key with focus on the page itself (not on a control). */
  async press(key: string): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await this.page.keyboard.press(key);
  }

  // ---- scene ----

  private radio(group: string, value: string): Locator {
    return this.page.locator(`fieldset[data-group="${group}"] input[value="${value}"]`);
  }

  async setPolicy(policy: Policy): Promise<void> {
    await this.radio('policy', policy).check();
    await expect(this.radio('policy', policy)).toBeChecked();
  }

  async togglePolicy(): Promise<Policy> {
    const local = await this.radio('policy', 'Local').isChecked();
    const to: Policy = local ? 'Cluster' : 'Local';
    await this.setPolicy(to);
    return to;
  }

  async setIpMode(mode: IpMode): Promise<void> {
    await this.radio('ipmode', mode).check();
    await expect(this.radio('ipmode', mode)).toBeChecked();
  }

  async setProxyMode(mode: 'iptables' | 'nftables' | 'ipvs'): Promise<void> {
    await this.radio('proxymode', mode).check();
    await expect(this.radio('proxymode', mode)).toBeChecked();
    await expect(this.rules.locator('[data-mode]')).toHaveAttribute('data-mode', mode);
  }

  async setDelivery(delivery: 'NodePort' | 'LoadBalancerIP'): Promise<void> {
    await this.radio('delivery', delivery).check();
    await expect(this.radio('delivery', delivery)).toBeChecked();
  }

  /** What carries the connection, so where the reply goes (`CloudLoadBalancer.spec.implementation`). */
  async setImplementation(
    implementation: 'NAT' | 'DirectServerReturn' | 'MetalLB-L2' | 'MetalLB-BGP',
  ): Promise<void> {
    await this.radio('implementation', implementation).check();
    await expect(this.radio('implementation', implementation)).toBeChecked();
  }

  /** `internet`, `node` or `pod` (the Client object's name), chosen in the client select. */
  async setClient(name: string): Promise<void> {
    await this.page.getByTestId('client-select').selectOption(name);
    await expect(this.root).toHaveAttribute('data-client', name);
  }

  /** `LoadBalancer`, `NodePort:node-2` or `ClusterIP`, chosen in the dial select. */
  async dial(target: string): Promise<void> {
    await this.page.getByTestId('dial-select').selectOption(target);
    await expect(this.root).toHaveAttribute('data-dial', target);
  }

  async setPublished(published: boolean): Promise<void> {
    const box = this.page.getByRole('checkbox', { name: /status\.loadBalancer published/ });
    await box.setChecked(published);
  }

  /**
   * Fails a node (chosen in the "Fail a node" select, then Fail) or restores one (its chip);
   * waits until the scene says so. Returns whether the node is now down.
   */
  async toggleNode(name: string): Promise<boolean> {
    const failed = async () =>
      ((await this.root.getAttribute('data-failed-nodes')) ?? '').split(',').includes(name);
    const wasFailed = await failed();
    if (!wasFailed) await this.page.getByTestId('fail-node-select').selectOption(name);
    await this.command(`toggle-node-${name}`).click();
    await expect
      .poll(failed, { message: `${name} ${wasFailed ? 'restored' : 'failed'}` })
      .toBe(!wasFailed);
    return !wasFailed;
  }

  // ---- the details tabs ----

  /** The tab for a details panel: `walkthrough`, `inspector`, `rule`, `conntrack`, `rules`. */
  tab(id: string): Locator {
    return this.page.locator(`[role="tab"][data-tab="${id}"]`);
  }

  /** Opens a details tab and waits until its panel shows. */
  async showTab(id: string): Promise<void> {
    await this.tab(id).click();
    await expect(this.tab(id)).toHaveAttribute('aria-selected', 'true');
    await expect(this.page.getByTestId(id)).toBeVisible();
  }

  async pin(candidate: string): Promise<void> {
    await this.showTab('rule');
    await this.rulePanel.getByRole('button', { name: `Pin this choice: ${candidate}` }).click();
    await expect(this.rulePanel.getByTestId('decision')).toHaveAttribute('data-chosen', candidate);
  }

  async reroll(): Promise<void> {
    await this.page
      .getByRole('button', { name: /^Re-roll/ })
      .first()
      .click();
  }

  // ---- share by link ----

  /** The header's "Copy link" button. */
  get copyLinkButton(): Locator {
    return this.page.getByRole('button', { name: 'Copy link to this view' });
  }

  /** The notice shown when a link or the saved view could not be opened. */
  get shareNotice(): Locator {
    return this.page.getByTestId('share-notice');
  }

  /**
   * Clicks "Copy link" and returns the link: from the clipboard when it was written ("Link
   * copied"), else from the field shown in its place.
   */
  async copyLink(): Promise<string> {
    await this.copyLinkButton.click();
    const status = this.page.getByTestId('share-status');
    await expect(status).toHaveText(/Link copied|Copy the link from the field below/);
    if ((await status.textContent()) === 'Link copied')
      return this.page.evaluate(() => navigator.clipboard.readText());
    return this.page.getByTestId('share-link').inputValue();
  }

  /** The walkthrough step on screen ('' when none). */
  async walkthroughStep(): Promise<string | null> {
    return this.walkthrough.locator('.walkthrough').getAttribute('data-walkthrough-step');
  }

  /** Opens walkthrough story step `index` (0-based). */
  async goToStory(index: number): Promise<void> {
    await this.showTab('walkthrough');
    await this.walkthrough.locator('[data-story]').nth(index).click();
    await expect(this.walkthrough.locator('.walkthrough')).toHaveAttribute(
      'data-walkthrough-step',
      String(index),
    );
  }
}
