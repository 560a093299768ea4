/**
 * `npm run bench`: issue 11's figures on generated clusters, each with its target, the
 * measured value, the ratio the target is stated in, and PASS/FAIL; then a last line "all
 * targets met" or "N targets missed". A benchmark, not a test: it exits 0 whenever it ran.
 *
 *   npm run bench                       # every figure at 10, 100 and 1,000 nodes
 *   npm run bench -- --quick            # only the figures that have a target
 *   npm run bench -- --timeout 300 --runs 7 --vitest
 *
 * Options: `--quick`; `--runs N` measured runs a figure (default 5, after one unmeasured
 * warm-up run); `--timeout S` seconds a figure may take in all (default 180, or
 * BENCH_TIMEOUT_S) — past it the figure's process is stopped and the row says TIMEOUT, with
 * the median of the runs that did finish; `--vitest` runs `vitest bench --run` afterwards
 * (`npm run bench:vitest` alone runs just that); `--keep` keeps the generated manifests.
 *
 * Clusters ({@link SIZES}): 10 nodes / 1,000 Pods, 100 / 1,000 and 1,000 / 10,000, written by
 * scripts/gen-cluster.ts as `kubectl get svc,endpointslices,nodes,pods -o yaml` prints them.
 * Each figure runs in a process of its own (scripts/bench-figure.ts, `node --import tsx
 * --expose-gc`), which times the call in-process with `performance.now` and reports each run;
 * only the CLI figure starts a process per run, since process start is part of what it measures.
 * How each figure is measured, and results: docs/benchmarks.md.
 */
import { fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { FigureMessage } from './bench-figure.ts';
import { clusterManifest } from './gen-cluster.ts';

/** The cluster sizes of the report: nodes and Pods (= endpoints of Service web). */
export const SIZES = [
  { nodes: 10, pods: 1_000 },
  { nodes: 100, pods: 1_000 },
  { nodes: 1_000, pods: 10_000 },
] as const;
type Size = (typeof SIZES)[number];

const ROOT = resolve(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
/** The heap limit of a figure's process (MB): far above the 150 MB target, below the machine's memory. */
const HEAP_LIMIT_MB = 6144;

/** The processes this run started and has not yet seen end: stopped with it on Ctrl-C. */
const children = new Set<ChildProcess>();
let tempDir = '';
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const c of children) c.kill('SIGKILL');
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    process.exit(130);
  });

/** What one figure's process reported. */
interface Measured {
  /** Measured runs (ms), warm-up excluded. */
  runs: number[];
  /** The warm-up run (ms), when it finished. */
  warm?: number;
  heap?: { bytes: number; baselineBytes: number };
  error?: string;
  timedOut: boolean;
}

/** One printed row. */
interface Row {
  figure: string;
  size: string;
  target: string;
  measured: string;
  ratio: string;
  /** PASS, FAIL, TIMEOUT, ERROR; '' for a figure without a target. */
  result: string;
}

const fmtInt = (n: number) => n.toLocaleString('en-US');
const sizeLabel = (s: Size) => `${fmtInt(s.nodes)} n / ${fmtInt(s.pods)} ep`;

function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/** The median (mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

/** Runs one figure in its own process; stops it after `timeoutMs`. */
function runFigure(
  figure: string,
  file: string,
  runs: number,
  timeoutMs: number,
  extra: string[] = [],
): Promise<Measured> {
  return new Promise((done) => {
    const m: Measured = { runs: [], timedOut: false };
    const child = fork(
      join(ROOT, 'scripts', 'bench-figure.ts'),
      [figure, file, String(runs), ...extra],
      {
        cwd: ROOT,
        execArgv: ['--import', 'tsx', '--expose-gc', `--max-old-space-size=${HEAP_LIMIT_MB}`],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(() => {
      m.timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (msg: FigureMessage) => {
      if (msg.type === 'run') {
        if (msg.warm) m.warm = msg.ms;
        else m.runs.push(msg.ms);
      } else if (msg.type === 'heap')
        m.heap = { bytes: msg.bytes, baselineBytes: msg.baselineBytes };
      else if (msg.type === 'error') m.error = msg.message;
    });
    children.add(child);
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      if (!m.timedOut && code !== 0 && !m.error)
        m.error = /heap out of memory/i.test(stderr)
          ? `out of memory (heap limit ${HEAP_LIMIT_MB} MB)`
          : `exit ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}`;
      done(m);
    });
  });
}

/** Times `tsx ARGS…` as a whole process, `runs` times after one warm-up; stops after `timeoutMs` in all. */
async function runProcess(args: string[], runs: number, timeoutMs: number): Promise<Measured> {
  const m: Measured = { runs: [], timedOut: false };
  const end = Date.now() + timeoutMs;
  for (let i = 0; i <= runs; i++) {
    const r = await new Promise<{ ms: number; code: number | null; err: string; killed: boolean }>(
      (ok) => {
        const t0 = performance.now();
        const p = spawn(TSX, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        let killed = false;
        p.stdout.resume();
        p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
        const timer = setTimeout(
          () => ((killed = true), p.kill('SIGKILL')),
          Math.max(0, end - Date.now()),
        );
        children.add(p);
        p.on('exit', (code) => {
          children.delete(p);
          clearTimeout(timer);
          ok({ ms: performance.now() - t0, code, err, killed });
        });
      },
    );
    if (r.killed) return { ...m, timedOut: true };
    if (r.code !== 0) return { ...m, error: `exit ${r.code}: ${r.err.trim().split('\n')[0]}` };
    if (i === 0) m.warm = r.ms;
    else m.runs.push(r.ms);
  }
  return m;
}

/** The measured value of a timed figure, or why there is none. */
function value(m: Measured, runs: number, timeoutMs: number): { ms?: number; text: string } {
  if (m.error) return { text: `error: ${m.error.slice(0, 120)}` };
  if (m.runs.length > 0) {
    const ms = median(m.runs);
    const partial = m.runs.length < runs ? ` (${m.runs.length} of ${runs} runs)` : '';
    return { ms, text: `${fmtMs(ms)}${partial}` };
  }
  if (m.warm !== undefined)
    return { text: `cold run ${fmtMs(m.warm)}; no warm run within ${fmtMs(timeoutMs)}` };
  return { text: `> ${fmtMs(timeoutMs)} (no run finished)` };
}

/** PASS/FAIL for `ms` against `limit`, TIMEOUT or ERROR when there is no value. */
function verdict(m: Measured, ms: number | undefined, limit: number | undefined): string {
  if (m.error) return 'ERROR';
  if (m.timedOut) return 'TIMEOUT';
  if (ms === undefined || limit === undefined) return 'ERROR';
  return ms <= limit ? 'PASS' : 'FAIL';
}

function printTable(rows: Row[]): void {
  const head: Row = {
    figure: 'figure',
    size: 'cluster',
    target: 'target',
    measured: 'measured',
    ratio: 'ratio',
    result: 'result',
  };
  const cols = ['figure', 'size', 'target', 'measured', 'ratio', 'result'] as const;
  const all = [head, ...rows];
  const w = cols.map((c) => Math.max(...all.map((r) => r[c].length)));
  for (const [i, r] of all.entries()) {
    console.log(
      cols
        .map((c, j) => r[c].padEnd(w[j] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) console.log(w.map((n) => '-'.repeat(n)).join('  '));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
      vitest: { type: 'boolean' },
      keep: { type: 'boolean' },
    },
  });
  const runs = Math.max(1, Number(values.runs ?? 5));
  const timeoutMs = 1000 * Number(values.timeout ?? process.env.BENCH_TIMEOUT_S ?? 180);
  const quick = values.quick ?? false;

  const dir = mkdtempSync(join(tmpdir(), 'lb-bench-'));
  tempDir = dir;
  const files = new Map<Size, string>();
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
  const loadAtStart = load();
  console.log(`Generating clusters in ${dir} …`);
  for (const s of SIZES) {
    const f = join(dir, `cluster-${s.nodes}n-${s.pods}p.yaml`);
    writeFileSync(f, clusterManifest(s));
    files.set(s, f);
  }
  const [, mid, big] = SIZES;
  const fileOf = (s: Size) => files.get(s) ?? '';
  const sizes = (all: readonly Size[], targetOnes: readonly Size[]) => (quick ? targetOnes : all);
  const rows: Row[] = [];
  const targetRows: Row[] = [];
  const push = (r: Row, hasTarget: boolean) => {
    rows.push(r);
    if (hasTarget) targetRows.push(r);
    console.log(`  ${r.figure} @ ${r.size}: ${r.measured}${r.result ? ` ${r.result}` : ''}`);
  };
  const started = Date.now();

  // The reference: the `yaml` library parsing the manifest text (YAML.parse, to plain objects).
  const parseMs = new Map<Size, number>();
  for (const s of sizes(SIZES, [big])) {
    const m = await runFigure('parse', fileOf(s), runs, timeoutMs);
    const v = value(m, runs, timeoutMs);
    // A reference that timed out still has the median of the runs that finished.
    if (v.ms !== undefined) parseMs.set(s, v.ms);
    push(
      {
        figure: 'yaml parse (reference)',
        size: sizeLabel(s),
        target: '—',
        measured: v.text,
        ratio: '—',
        result: m.error ? 'ERROR' : m.timedOut ? 'TIMEOUT' : '',
      },
      false,
    );
  }
  const ratioTo = (ms: number | undefined, s: Size) => {
    const p = parseMs.get(s);
    return ms !== undefined && p ? `${(ms / p).toFixed(2)}× parse` : '—';
  };

  // runScene, one trace (the rules of the nodes on its path).
  for (const s of sizes(SIZES, [mid, big])) {
    const m = await runFigure('runScene', fileOf(s), runs, timeoutMs);
    const v = value(m, runs, timeoutMs);
    const limit = s === mid ? 50 : s === big ? 500 : undefined;
    push(
      {
        figure: 'runScene (one trace)',
        size: sizeLabel(s),
        target: limit ? `≤ ${fmtMs(limit)}` : '—',
        measured: v.text,
        ratio:
          limit && v.ms !== undefined ? `${(v.ms / limit).toFixed(2)}× target` : ratioTo(v.ms, s),
        result: limit ? verdict(m, v.ms, limit) : m.error ? 'ERROR' : m.timedOut ? 'TIMEOUT' : '',
      },
      limit !== undefined,
    );
    if (s === big) {
      const p = parseMs.get(s);
      push(
        {
          figure: 'runScene vs yaml parse',
          size: sizeLabel(s),
          target: '≤ 3× parse',
          measured: v.text,
          ratio: ratioTo(v.ms, s),
          result: p === undefined ? 'ERROR' : verdict(m, v.ms, 3 * p),
        },
        true,
      );
    }
  }

  // Loading + validating + filling: the import pipeline's entry (scripts/bench-import.ts).
  for (const s of sizes(SIZES, [big])) {
    const m = await runFigure('import', fileOf(s), runs, timeoutMs);
    const v = value(m, runs, timeoutMs);
    const p = parseMs.get(s);
    const has = s === big;
    push(
      {
        figure: 'import: validate + load + fill',
        size: sizeLabel(s),
        target: has ? '≤ 3× parse' : '—',
        measured: v.text,
        ratio: ratioTo(v.ms, s),
        result: has
          ? p === undefined
            ? 'ERROR'
            : verdict(m, v.ms, 3 * p)
          : m.error
            ? 'ERROR'
            : m.timedOut
              ? 'TIMEOUT'
              : '',
      },
      has,
    );
  }

  // simulate, 100,000 connections over 2 minutes, node-1 failing at 12 s and back at 90 s.
  for (const s of sizes(SIZES, [mid])) {
    const m = await runFigure('simulate', fileOf(s), runs, timeoutMs);
    const v = value(m, runs, timeoutMs);
    const has = s === mid;
    push(
      {
        figure: 'simulate 100,000 connections',
        size: sizeLabel(s),
        target: has ? '≤ 1.00 s' : '—',
        measured: v.text,
        ratio: has && v.ms !== undefined ? `${(v.ms / 1000).toFixed(2)}× target` : '—',
        result: has ? verdict(m, v.ms, 1000) : m.error ? 'ERROR' : m.timedOut ? 'TIMEOUT' : '',
      },
      has,
    );
  }

  // Heap after an import and a runScene, garbage collected (heapUsed; 1 MB = 10^6 bytes).
  for (const s of sizes(SIZES, [big])) {
    const m = await runFigure('heap', fileOf(s), 1, timeoutMs);
    const has = s === big;
    const mb = m.heap ? m.heap.bytes / 1e6 : undefined;
    push(
      {
        figure: 'heap after import + runScene',
        size: sizeLabel(s),
        target: has ? '≤ 150 MB' : '—',
        measured:
          m.heap && mb !== undefined
            ? `${mb.toFixed(1)} MB (modules alone: ${(m.heap.baselineBytes / 1e6).toFixed(1)} MB)`
            : m.error
              ? `error: ${m.error.slice(0, 120)}`
              : `> ${fmtMs(timeoutMs)} (did not finish)`,
        ratio: has && mb !== undefined ? `${(mb / 150).toFixed(2)}× target` : '—',
        result: has
          ? m.error
            ? 'ERROR'
            : mb === undefined
              ? 'TIMEOUT'
              : mb <= 150
                ? 'PASS'
                : 'FAIL'
          : '',
      },
      has,
    );
  }

  // The CLI on the 1,000-node file: a whole process vs the same command in-process + process start.
  const start = await runProcess([join('scripts', 'bench-noop.ts')], runs, timeoutMs);
  const startMs = start.runs.length ? median(start.runs) : undefined;
  push(
    {
      figure: 'process start (tsx, no-op script)',
      size: '—',
      target: '—',
      measured: value(start, runs, timeoutMs).text,
      ratio: '—',
      result: start.error ? 'ERROR' : '',
    },
    false,
  );
  const cliArgs: [string, string[]][] = [
    ['rules', ['rules', '--node', 'node-1']],
    ['trace', ['trace']],
    [
      'flow',
      [
        'flow',
        '--node',
        'node-1',
        '--src',
        '198.51.100.23',
        '--dst',
        '192.168.0.1',
        '--dport',
        '31000',
      ],
    ],
    ['stats', ['stats', '--connections', '100000']],
  ];
  for (const [name, args] of cliArgs) {
    const inproc = await runFigure('cli', fileOf(big), runs, timeoutMs, args);
    const vi = value(inproc, runs, timeoutMs);
    const done = vi.ms !== undefined && !inproc.timedOut && !inproc.error;
    const proc = done
      ? await runProcess([join('src', 'cli', 'main.ts'), ...args, fileOf(big)], runs, timeoutMs)
      : undefined;
    const vp = proc ? value(proc, runs, timeoutMs) : undefined;
    const limit = vi.ms !== undefined && startMs !== undefined ? 2 * vi.ms + startMs : undefined;
    push(
      {
        figure: `CLI ${name}: process vs in-process`,
        size: sizeLabel(big),
        target:
          limit !== undefined && done
            ? `≤ 2×${fmtMs(vi.ms ?? 0)} + ${fmtMs(startMs ?? 0)} = ${fmtMs(limit)}`
            : '≤ 2× in-process + start',
        measured: vp ? vp.text : `in-process: ${vi.text}`,
        ratio:
          vp?.ms !== undefined && startMs !== undefined && vi.ms
            ? `${((vp.ms - startMs) / vi.ms).toFixed(2)}× in-process (+ start)`
            : '—',
        result: !done
          ? verdict(inproc, undefined, undefined)
          : proc
            ? verdict(proc, vp?.ms, limit)
            : 'ERROR',
      },
      true,
    );
  }

  console.log(
    `\nissue 11 figures (median of ${runs} warm runs each; ${Math.round((Date.now() - started) / 1000)} s in all; node ${process.version}; ${cpus().length} CPUs; load average ${loadAtStart} at start, ${load()} at end):\n`,
  );
  printTable(rows);
  const missed = targetRows.filter((r) => r.result !== 'PASS').length;
  console.log(
    `\n${missed === 0 ? 'all targets met' : `${missed} of ${targetRows.length} targets missed`}`,
  );

  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`manifests kept in ${dir}`);

  if (values.vitest) {
    console.log('\nvitest bench --run:');
    await new Promise<void>((ok) =>
      spawn(join(ROOT, 'node_modules', '.bin', 'vitest'), ['bench', '--run'], {
        cwd: ROOT,
        stdio: 'inherit',
      }).on('exit', () => ok()),
    );
  }
}

await main();
process.exitCode = 0;
