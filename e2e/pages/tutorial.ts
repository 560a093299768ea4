import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** What the app root says about the scene on screen (data-* attributes set by App.tsx). */
export interface AppSceneState {
  step: string;
  policy: string;
  ipMode: string;
  delivery: string;
  published: string;
  failedNodes: string;
  client: string;
  dial: string;
  proxyMode: string;
  seed: string;
  lbTarget: string;
  endpoint: string;
}

const ATTRS: Record<keyof AppSceneState, string> = {
  step: 'data-step-index',
  policy: 'data-policy',
  ipMode: 'data-ip-mode',
  delivery: 'data-delivery',
  published: 'data-published',
  failedNodes: 'data-failed-nodes',
  client: 'data-client',
  dial: 'data-dial',
  proxyMode: 'data-proxy-mode',
  seed: 'data-seed',
  lbTarget: 'data-lb-target',
  endpoint: 'data-endpoint',
};

/**
 * Page object for the tutorial reader. Every action waits on a `data-*` attribute (or an ARIA
 * state) that proves it took effect; nothing sleeps.
 */
export class TutorialPage {
  readonly app: Locator;
  readonly toggle: Locator;
  readonly reader: Locator;
  readonly chapter: Locator;
  readonly title: Locator;
  readonly toc: Locator;
  readonly contents: Locator;
  readonly progress: Locator;
  readonly status: Locator;
  readonly visualiser: Locator;
  /** The trace view's stage: the drawing and its playback controls. */
  readonly stage: Locator;
  readonly restore: Locator;

  constructor(readonly page: Page) {
    this.app = page.getByTestId('app');
    this.toggle = page.getByTestId('tutorial-toggle');
    this.reader = page.getByTestId('reader');
    this.chapter = page.getByTestId('chapter');
    this.title = this.reader.locator('.chapter-title');
    this.toc = page.getByTestId('toc');
    this.contents = this.reader.locator('details.reader-contents');
    this.progress = page.getByTestId('reader-progress');
    this.status = page.getByTestId('reader-status');
    this.visualiser = page.locator('main.layout');
    this.stage = page.locator('main.layout:not(.time-layout) > .area-stage');
    this.restore = page.getByTestId('restore-cluster');
  }

  /** The reader's scroll position (px) and whether it is at its end. */
  async readerScroll(): Promise<{ top: number; atEnd: boolean }> {
    return this.reader.evaluate((el) => ({
      top: el.scrollTop,
      atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
    }));
  }

  /**
   * Scrolls the reader to its end with the mouse wheel over it, as a learner reads (the reader's
   * own scroll box, never the window), waiting for each turn of the wheel to take effect.
   */
  async wheelReaderToEnd(): Promise<void> {
    const box = await this.reader.boundingBox();
    if (!box) throw new Error('the reader is not on screen');
    // Over the text: a live scene under the pointer takes the wheel (it zooms its drawing), so
    // when a wheel does not scroll, the pointer moves on to another spot of the reader.
    const spots = [0.5, 0.25, 0.75, 0.1, 0.9].map((f) => box.y + box.height * f);
    let spot = 0;
    await this.page.mouse.move(box.x + box.width / 2, spots[spot]!);
    for (let i = 0; i < 200; i++) {
      const { top, atEnd } = await this.readerScroll();
      if (atEnd) return;
      await this.page.mouse.wheel(0, 800);
      const moved = await expect
        .poll(async () => (await this.readerScroll()).top, { timeout: 3000 })
        .not.toBe(top)
        .then(
          () => true,
          () => false,
        );
      if (!moved) {
        spot = (spot + 1) % spots.length;
        await this.page.mouse.move(box.x + box.width / 2, spots[spot]!);
      }
    }
    throw new Error('the reader never reached its end');
  }

  /** Opens `#/learn/<path>` and waits until the reader has its content and the app a trace. */
  async goto(path = ''): Promise<this> {
    await this.page.goto(`/#/learn${path ? `/${path}` : ''}`);
    await expect(this.app).toHaveAttribute('data-step-count', /^\d+$/);
    await expect(this.reader).toHaveAttribute('data-state', 'ready');
    return this;
  }

  /** Waits until chapter `slug` is on screen (and its scene links have been checked). */
  async expectChapter(slug: string): Promise<void> {
    await expect(this.chapter).toHaveAttribute('data-chapter', slug);
    await expect(this.chapter.locator('[data-scene-state="pending"]')).toHaveCount(0);
  }

  /** Opens the table of contents (a disclosure) when it is closed. */
  async openContents(): Promise<void> {
    if ((await this.contents.getAttribute('open')) === null)
      await this.contents.locator('summary').click();
    await expect(this.toc).toBeVisible();
  }

  tocEntry(slug: string): Locator {
    return this.toc.locator(`li[data-chapter="${slug}"]`);
  }

  /** The chapter's scene links (buttons), in document order. */
  sceneLinks(): Locator {
    return this.chapter.locator('button.scene-link[data-scene-query]');
  }

  /** A "Check yourself" card by its question id. */
  question(id: string): Locator {
    return this.chapter.locator(`[data-testid="question"][data-question-id="${id}"]`);
  }

  /** Picks `optionId` in question `id`, presses Check, and returns the verdict it shows. */
  async answer(id: string, optionId: string): Promise<string> {
    const q = this.question(id);
    await q.locator(`input[type="radio"][value="${optionId}"]`).check();
    await q.getByRole('button', { name: 'Check' }).click();
    await expect(q).not.toHaveAttribute('data-answer-state', 'unanswered');
    return (await q.getAttribute('data-answer-state')) ?? '';
  }

  /** The app's scene as its root's data-* attributes say. */
  async appState(): Promise<AppSceneState> {
    const out = {} as AppSceneState;
    for (const [key, attr] of Object.entries(ATTRS))
      out[key as keyof AppSceneState] = (await this.app.getAttribute(attr)) ?? '';
    return out;
  }

  /** Waits until the app root shows `expected` (every field given). */
  async expectAppState(expected: Partial<AppSceneState>): Promise<void> {
    for (const [key, value] of Object.entries(expected))
      await expect(this.app, key).toHaveAttribute(ATTRS[key as keyof AppSceneState], value);
  }
}
