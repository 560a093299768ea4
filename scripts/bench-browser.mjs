#!/usr/bin/env node
// The browser benchmarks. A benchmark, not a test: it prints numbers and exits 0 on a slow
// machine (1 only when it could not run).
//
// 1. Initial load (issue 11; scripts/bench-load.mjs): the app's initial JS (gzip) and its time
//    to first drawing at 4× CPU throttle (BENCH_THROTTLE), side by side with a bare React 19
//    page that this script builds itself (bench/baseline/, Vite, into a temporary folder and
//    served by a second `vite preview` on BENCH_BASELINE_PORT, default BENCH_PORT + 1); medians of BENCH_LOAD_RUNS (5), each
//    with its target (≤ 120 KB gzip; ready ≤ 1.5× the bare page), ratio and PASS/FAIL.
// 2. Connections (issue 6): how many connections the model simulates per second in Chromium.
//
// `--load-only` or `--connections-only` runs one half.
//
// The app is not built here: it serves an existing build (default `dist/`, or BENCH_DIST) with
// `vite preview` on 127.0.0.1 and its own port (BENCH_PORT, default 4191), opens the app in
// headless Chromium (scripts/find-chromium.mjs), switches to the "Time & failures" view so the
// lazy chunk loads and installs its hooks (`window.__lbTimeBench`, `window.__lbTimeBenchSimulate`),
// and runs two of the model's benchmarks there, timed with the page's `performance.now`:
// - sampling (`benchmarkSampling`): drawing N connections' paths from probabilities computed
//   beforehand (the paths traced outside the clock) — the cost of N itself;
// - full simulate (`benchmarkSimulate`): a whole 2-minute run with N connections, node-1 failing
//   and returning — every epoch's paths traced through the model, every connection drawn and its
//   record and fate settled — what the time view does when you press Send.
//
//   npm run build && npm run bench:browser            # 100,000 connections
//   BENCH_CONNECTIONS=20000 npm run bench:browser
//
// Output: one line per run and a summary per benchmark, e.g.
//   sampling (Chromium 131): 100,000 connections in 7.2 ms → 13,900,000 connections/s (median of 15)
//   full simulate (Chromium 131): 100,000 connections in 412.3 ms → 242,541 connections/s (median of 5)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { NOT_FOUND_MESSAGE, findChromium } from './find-chromium.mjs';
import { buildBaseline, measureLoad } from './bench-load.mjs';

const DIST = resolve(process.env.BENCH_DIST ?? 'dist');
const PORT = Number(process.env.BENCH_PORT ?? 4191);
const COUNT = Number(process.env.BENCH_CONNECTIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SIM_RUNS = Number(process.env.BENCH_SIM_RUNS ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const BASE = `http://127.0.0.1:${PORT}/`;
const BASELINE_PORT = Number(process.env.BENCH_BASELINE_PORT ?? PORT + 1);
const BASELINE_URL = `http://127.0.0.1:${BASELINE_PORT}/`;
const LOAD_RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 5);
const THROTTLE = Number(process.env.BENCH_THROTTLE ?? 4);
const LOAD = !process.argv.includes('--connections-only');
const CONNECTIONS = !process.argv.includes('--load-only');

/** @param {number} n @param {number} [digits] */
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Waits until the preview server answers, or throws after `ms`.
 * @param {string} url
 * @param {number} ms
 */
async function waitForServer(url, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`vite preview did not answer on ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error(`No build in ${DIST}: run \`npm run build\` first (this script builds nothing).`);
    process.exit(1);
  }
  if (!Number.isInteger(COUNT) || COUNT < 1 || COUNT > 100_000) {
    console.error('BENCH_CONNECTIONS must be a whole number from 1 to 100,000.');
    process.exit(1);
  }
  const executablePath = findChromium();
  if (!executablePath) {
    console.error(NOT_FOUND_MESSAGE);
    process.exit(1);
  }

  /** `vite preview` of `dir` on `port`; its stderr is kept for an error message. */
  const preview = (/** @type {string} */ dir, /** @type {number} */ port) => {
    const p = spawn(
      process.execPath,
      [
        join('node_modules', 'vite', 'bin', 'vite.js'),
        'preview',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--strictPort',
        '--outDir',
        dir,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    p.stderr.on('data', (d) => (serverErr += d));
    p.on('exit', (code) => {
      if (code) previewFailed = `vite preview on port ${port} exited with ${code}: ${serverErr}`;
    });
    return p;
  };
  let serverErr = '';
  let previewFailed = '';
  const server = preview(DIST, PORT);
  const baseDist = LOAD ? mkdtempSync(join(tmpdir(), 'lb-bench-baseline-')) : '';
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let baseServer;
  let browser;
  try {
    await waitForServer(BASE, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    if (previewFailed) throw new Error(previewFailed);
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    console.log(`Chromium ${browser.version()}`);
    if (LOAD) {
      await buildBaseline(baseDist);
      baseServer = preview(baseDist, BASELINE_PORT);
      await waitForServer(BASELINE_URL, 30_000);
      // A port taken by another server answers too: make sure our own preview is the one up.
      await new Promise((r) => setTimeout(r, 1000));
      if (previewFailed) throw new Error(previewFailed);
      const { missed } = await measureLoad(browser, {
        appUrl: BASE,
        appDist: DIST,
        baseUrl: BASELINE_URL,
        baseDist,
        runs: LOAD_RUNS,
        rate: THROTTLE,
      });
      console.log(missed === 0 ? 'load: all targets met' : `load: ${missed} of 2 targets missed`);
    }
    if (!CONNECTIONS) return;
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(BASE);
    await page.getByTestId('time-toggle').click();
    await page.waitForFunction(
      () =>
        typeof globalThis.window.__lbTimeBench === 'function' &&
        typeof globalThis.window.__lbTimeBenchSimulate === 'function',
      null,
      { timeout: 30_000 },
    );
    const version = browser.version();
    /** @param {'sampling' | 'simulate'} kind @param {number} n */
    const run = async (kind, n) => {
      const r = await page.evaluate(
        ({ kind, n, seed }) =>
          kind === 'sampling'
            ? globalThis.window.__lbTimeBench?.(n, seed)
            : globalThis.window.__lbTimeBenchSimulate?.(n, seed),
        { kind, n, seed: SEED },
      );
      if (!r) throw new Error('the time view did not install its benchmark hooks');
      return r;
    };
    const summaries = [];
    for (const [kind, label, runs] of /** @type {const} */ ([
      ['sampling', 'sampling', RUNS],
      ['simulate', 'full simulate', SIM_RUNS],
    ])) {
      // One small warm-up run so the JIT has seen the code.
      await run(kind, Math.min(COUNT, 2_000));
      const results = [];
      for (let i = 0; i < runs; i++) {
        const r = await run(kind, COUNT);
        results.push(r);
        console.log(
          `${label} run ${i + 1}: ${fmt(r.connections)} connections in ${fmt(r.elapsedMs, 1)} ms → ${fmt(r.connectionsPerSecond)} connections/s`,
        );
      }
      const sorted = [...results].sort((a, b) => a.connectionsPerSecond - b.connectionsPerSecond);
      const median = sorted[Math.floor(sorted.length / 2)];
      if (!median) throw new Error('no run');
      summaries.push(
        `${label} (Chromium ${version}): ${fmt(median.connections)} connections in ${fmt(median.elapsedMs, 1)} ms → ${fmt(median.connectionsPerSecond)} connections/s (median of ${runs})`,
      );
    }
    for (const line of summaries) console.log(line);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    if (serverErr) console.error(serverErr);
    process.exitCode = 1;
  } finally {
    await browser?.close();
    server.kill();
    baseServer?.kill();
    if (baseDist) rmSync(baseDist, { recursive: true, force: true });
  }
}

await main();
