import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './scripts/find-chromium.mjs';

// E2E_PORT / E2E_OUTDIR let two checkouts' builds be tested side by side; CI uses the defaults.
const PORT = Number(process.env['E2E_PORT'] ?? 4173);
const OUTDIR = process.env['E2E_OUTDIR'] ?? 'dist';
const BASE_URL = `http://127.0.0.1:${PORT}`;

// No browser downloads here: use a system Chromium (or CHROMIUM_PATH, or Playwright's own if
// it was installed). `npm run test:e2e` runs scripts/find-chromium.mjs first and explains what to
// do when there is none.
const executablePath = findChromium();

export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env['E2E_RESULTS'] ?? 'test-results',
  fullyParallel: false,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  workers: 1,
  reporter: 'list',
  timeout: 30_000,
  // Waits are on states (data-* attributes, roles); this is only how long a state may take to
  // arrive. Lazy chunks (the editor, the tutorial reader, mermaid) on a busy 2-core machine
  // took over 5 s, so the bound is generous; a passing wait returns as soon as the state is there.
  expect: { timeout: 15_000 },
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(executablePath ? { executablePath } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            // e2e/embed.spec.ts serves a "docs site" from a made-up public origin (page.route)
            // that frames the app on 127.0.0.1; Chromium's Local Network Access checks would
            // block a public page from framing a loopback one, as they should outside tests.
            '--disable-features=LocalNetworkAccessChecks',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${OUTDIR}`,
    url: BASE_URL,
    // Never: a server already on the port may be another checkout's build (issue 15 point 3).
    // Playwright then stops with "… is already used", and vite's --strictPort agrees.
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
