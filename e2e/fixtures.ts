import { test as base, expect, type ConsoleMessage, type Page } from '@playwright/test';

/** Screenshots that tests take themselves go here (inside Playwright's outputDir). */
export const SCREENSHOT_DIR = 'test-results/screenshots';

export interface ConsoleProblem {
  kind: 'console.error' | 'console.warning' | 'pageerror';
  text: string;
  location?: string;
}

export interface ConsoleGuardOptions {
  /**
   * Console errors/warnings (and uncaught page errors) whose text matches one of these are not
   * counted. Override per file or per describe block with
   * `test.use({ allowedConsoleMessages: [/expected noise/] })`.
   */
  allowedConsoleMessages: (string | RegExp)[];
}

export interface ConsoleGuardFixtures {
  /**
   * Every console error/warning and uncaught page error seen so far in this test. It is collected
   * automatically; the test fails at the end if it is not empty (after the allow-list).
   */
  consoleProblems: ConsoleProblem[];
}

/** Waits until the app has mounted (or the page is not the app: it has no `#root`). */
export async function waitForMount(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.getElementById('root');
      return !root || root.hasAttribute('data-hydration');
    },
    null,
    { timeout: 30_000, polling: 50 },
  );
}

function isAllowed(text: string, allowed: readonly (string | RegExp)[]): boolean {
  return allowed.some((pattern) =>
    typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text),
  );
}

function describeLocation(message: ConsoleMessage): string | undefined {
  const { url, lineNumber, columnNumber } = message.location();
  return url ? `${url}:${lineNumber}:${columnNumber}` : undefined;
}

/**
 * `test` with automatic console hygiene: any `console.error`, `console.warn` or uncaught exception
 * in the page fails the test. Import `test` and `expect` from here instead of `@playwright/test`.
 */
export const test = base.extend<ConsoleGuardFixtures & ConsoleGuardOptions>({
  allowedConsoleMessages: [[], { option: true }],

  // A first visit paints prerendered HTML (scripts/prerender.ts) before React has attached its
  // handlers: a click or key that early does nothing. page.goto and page.reload therefore also
  // wait until the app has mounted (`#root[data-hydration]`, src/main.tsx), unless they only
  // wait for the commit (a test that watches the page load).
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit') await waitForMount(page);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      if (options?.waitUntil !== 'commit') await waitForMount(page);
      return response;
    };
    await use(page);
  },

  consoleProblems: [
    async ({ page, allowedConsoleMessages }, use, testInfo) => {
      const problems: ConsoleProblem[] = [];

      const onConsole = (message: ConsoleMessage) => {
        const type = message.type();
        if (type !== 'error' && type !== 'warning') return;
        const text = message.text();
        if (isAllowed(text, allowedConsoleMessages)) return;
        const location = describeLocation(message);
        problems.push({
          kind: type === 'error' ? 'console.error' : 'console.warning',
          text,
          ...(location ? { location } : {}),
        });
      };
      const onPageError = (error: Error) => {
        const text = error.stack ?? error.message;
        if (isAllowed(text, allowedConsoleMessages)) return;
        problems.push({ kind: 'pageerror', text });
      };

      page.on('console', onConsole);
      page.on('pageerror', onPageError);
      await use(problems);
      page.off('console', onConsole);
      page.off('pageerror', onPageError);

      if (problems.length > 0) {
        await testInfo.attach('console-problems.json', {
          body: JSON.stringify(problems, null, 2),
          contentType: 'application/json',
        });
      }
      expect(
        problems,
        `the page logged ${problems.length} console error(s)/warning(s):\n` +
          problems
            .map((p) => `  [${p.kind}] ${p.text}${p.location ? ` (${p.location})` : ''}`)
            .join('\n'),
      ).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
