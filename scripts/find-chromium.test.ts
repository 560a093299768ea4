import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, isExecutableFile, NOT_FOUND_MESSAGE } from './find-chromium.mjs';

describe('findChromium', () => {
  let dir: string;
  let fakeChrome: string;
  let notExecutable: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'find-chromium-'));
    fakeChrome = join(dir, 'chrome');
    writeFileSync(fakeChrome, '#!/bin/sh\n');
    chmodSync(fakeChrome, 0o755);
    notExecutable = join(dir, 'readme.txt');
    writeFileSync(notExecutable, 'not a browser');
    chmodSync(notExecutable, 0o644);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const nothingBundled = () => null;

  it('uses CHROMIUM_PATH when it points at an executable file', () => {
    expect(
      findChromium({ env: { CHROMIUM_PATH: fakeChrome }, candidates: [], bundled: nothingBundled }),
    ).toBe(fakeChrome);
  });

  it('prefers CHROMIUM_PATH over the system locations', () => {
    const other = join(dir, 'other');
    writeFileSync(other, '');
    chmodSync(other, 0o755);
    expect(
      findChromium({
        env: { CHROMIUM_PATH: fakeChrome },
        candidates: [other],
        bundled: nothingBundled,
      }),
    ).toBe(fakeChrome);
  });

  it('ignores a CHROMIUM_PATH that does not exist and falls back to the candidates', () => {
    expect(
      findChromium({
        env: { CHROMIUM_PATH: join(dir, 'does-not-exist') },
        candidates: [join(dir, 'also-missing'), fakeChrome],
        bundled: nothingBundled,
      }),
    ).toBe(fakeChrome);
  });

  it('ignores a CHROMIUM_PATH that is a directory', () => {
    expect(
      findChromium({ env: { CHROMIUM_PATH: dir }, candidates: [], bundled: nothingBundled }),
    ).toBeNull();
  });

  it("falls back to Playwright's bundled browser only if that file exists", () => {
    expect(findChromium({ env: {}, candidates: [], bundled: () => fakeChrome })).toBe(fakeChrome);
    expect(
      findChromium({ env: {}, candidates: [], bundled: () => join(dir, 'never-downloaded') }),
    ).toBeNull();
  });

  it('returns null when nothing is found', () => {
    expect(
      findChromium({
        env: { CHROMIUM_PATH: '' },
        candidates: [join(dir, 'missing')],
        bundled: nothingBundled,
      }),
    ).toBeNull();
  });

  it('treats only executable regular files as browsers', () => {
    expect(isExecutableFile(fakeChrome)).toBe(true);
    expect(isExecutableFile(dir)).toBe(false);
    expect(isExecutableFile(notExecutable)).toBe(false);
    expect(isExecutableFile(undefined)).toBe(false);
    expect(isExecutableFile(join(dir, 'missing'))).toBe(false);
  });

  it('tells the user how to get a browser', () => {
    expect(NOT_FOUND_MESSAGE).toContain('sudo apt-get install -y chromium');
    expect(NOT_FOUND_MESSAGE).toContain('CHROMIUM_PATH=');
    expect(NOT_FOUND_MESSAGE).toContain('npx playwright install chromium');
  });
});
