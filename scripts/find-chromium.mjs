#!/usr/bin/env node
// Locate a Chromium/Chrome binary for Playwright without downloading anything.
//
// Order: $CHROMIUM_PATH (if it points at an existing file), then the usual system locations,
// then the browser that `npx playwright install chromium` would have put in Playwright's cache.
//
// As a module: `findChromium()` returns the path or null.
// As a script: prints the path and exits 0, or explains how to get a browser and exits 1.

import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** System locations tried after $CHROMIUM_PATH, in order. */
export const SYSTEM_CANDIDATES = Object.freeze([
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
]);

export const NOT_FOUND_MESSAGE =
  'No Chromium found. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
  'or set CHROMIUM_PATH=/path/to/chrome, ' +
  'or run `npx playwright install chromium` where downloads are allowed.';

/**
 * @param {string | undefined | null} path
 * @returns {path is string}
 */
export function isExecutableFile(path) {
  if (!path) return false;
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of Playwright's own bundled Chromium (whether or not it has been downloaded),
 * or null when playwright-core cannot be loaded.
 * @returns {string | null}
 */
export function playwrightBundledChromium() {
  const require = createRequire(import.meta.url);
  // playwright-core is what @playwright/test uses underneath; fall back to @playwright/test itself
  // in case a package manager did not hoist playwright-core.
  for (const name of ['playwright-core', '@playwright/test']) {
    try {
      /** @type {{ chromium: { executablePath(): string } }} */
      const playwright = require(name);
      const path = playwright.chromium.executablePath();
      if (path) return path;
    } catch {
      // not installed, or no browser registry for this platform: try the next one
    }
  }
  return null;
}

/**
 * @typedef {object} FindChromiumOptions
 * @property {Record<string, string | undefined>} [env] environment to read CHROMIUM_PATH from
 * @property {readonly string[]} [candidates] system locations to try
 * @property {() => string | null} [bundled] where Playwright's own Chromium would be
 * @property {(path: string) => boolean} [exists] whether a path is a usable browser binary
 */

/**
 * Resolve a Chromium binary.
 * @param {FindChromiumOptions} [options]
 * @returns {string | null} an absolute path to the browser, or null if none was found
 */
export function findChromium(options = {}) {
  const {
    env = process.env,
    candidates = SYSTEM_CANDIDATES,
    bundled = playwrightBundledChromium,
    exists = isExecutableFile,
  } = options;

  const fromEnv = env['CHROMIUM_PATH'];
  if (fromEnv && exists(fromEnv)) return fromEnv;

  for (const candidate of candidates) {
    if (exists(candidate)) return candidate;
  }

  const fromPlaywright = bundled();
  if (fromPlaywright && exists(fromPlaywright)) return fromPlaywright;

  return null;
}

function isMain() {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const env = process.env['CHROMIUM_PATH'];
  if (env && !isExecutableFile(env)) {
    console.error(`find-chromium: ignoring CHROMIUM_PATH=${env}: not an executable file`);
  }
  const path = findChromium();
  if (path) {
    console.log(path);
    process.exit(0);
  } else {
    console.error(NOT_FOUND_MESSAGE);
    process.exit(1);
  }
}
