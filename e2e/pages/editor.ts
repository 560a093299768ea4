import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { openCluster } from './cluster';

/**
 * The manifests editor in the "Your cluster" dialog, and how its text stands with the
 * browser's storage (`data-draft-state` on the dialog's body: `idle`, `saved`, `pending`,
 * `unsaved`; src/store/draft/sync.ts). Every action waits on a state, never a sleep.
 */
export class ClusterEditor {
  readonly dialog: Locator;
  readonly body: Locator;
  readonly content: Locator;
  /** The alert shown while the text is not saved in the browser (empty otherwise). */
  readonly unsaved: Locator;
  /** The quiet note that another tab saved different text. */
  readonly otherTab: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Your cluster' });
    this.body = this.dialog.locator('[data-draft-state]');
    this.content = page.getByTestId('manifest-editor').locator('.cm-content');
    this.unsaved = page.getByTestId('draft-notice');
    this.otherTab = page.getByTestId('draft-other-tab');
  }

  /** Opens the dialog and its editor (unless they are open). */
  async open(): Promise<void> {
    await openCluster(this.page);
    if (!(await this.content.isVisible()))
      await this.dialog.getByRole('button', { name: 'Paste or edit manifests' }).click();
    await expect(this.content).toBeVisible();
  }

  /** Replaces the editor's text as a paste would. */
  async paste(text: string): Promise<void> {
    await this.content.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.insertText(text);
  }

  /** Adds `text` at the end, as typing would. */
  async append(text: string): Promise<void> {
    await this.content.click();
    await this.page.keyboard.press('ControlOrMeta+End');
    await this.page.keyboard.insertText(text);
  }

  /** The editor's text, line by line, as CodeMirror shows it. */
  async text(): Promise<string> {
    return this.content.evaluate((el) =>
      [...el.querySelectorAll('.cm-line')].map((l) => l.textContent ?? '').join('\n'),
    );
  }

  /** This tab's saved draft's text (`lbpath.v2.draft.<tabId>`), or null. */
  async savedText(): Promise<string | null> {
    return this.page.evaluate(() => {
      const id = sessionStorage.getItem('lbpath.v2.tabId');
      const value = id === null ? null : localStorage.getItem(`lbpath.v2.draft.${id}`);
      return value === null ? null : (JSON.parse(value) as { text: string }).text;
    });
  }

  /** Waits until this tab's draft holds `text` and the dialog says it is saved. */
  async expectSaved(text: string): Promise<void> {
    await expect.poll(() => this.savedText()).toBe(text);
    await this.expectDraft('saved');
  }

  /** Waits until the draft is in the state given (`saved` once the pause after typing ends). */
  async expectDraft(state: 'idle' | 'saved' | 'pending' | 'unsaved'): Promise<void> {
    await expect(this.body).toHaveAttribute('data-draft-state', state);
  }
}
