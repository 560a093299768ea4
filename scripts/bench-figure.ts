/**
 * One figure of `npm run bench` (scripts/bench.ts), measured in a process of its own so that a
 * figure that takes minutes can be stopped without stopping the others, and so that one
 * figure's heap does not weigh on the next. Started by scripts/bench.ts with
 * `node --import tsx --expose-gc`; not meant to be run by hand.
 *
 *   bench-figure.ts FIGURE FILE RUNS [CLI-ARGS…]
 *
 * FIGURE is `parse`, `runScene`, `import`, `simulate`, `heap` or `cli` (in-process CLI: the
 * CLI's `runCli` called with CLI-ARGS, output kept, not printed); FILE is a manifest written by
 * scripts/gen-cluster.ts. Each timed figure runs once unmeasured (warm-up: JIT, caches) and then
 * RUNS times; everything that is not the measured call (reading the file, loading and filling
 * the objects, the scene) is prepared outside the clock.
 *
 * Reports go to the parent over the IPC channel, one message per run as it ends, so the
 * parent has every finished run even when it stops this process at its timeout:
 * `{ type: 'run', warm: boolean, ms }`, `{ type: 'heap', bytes, baselineBytes }`,
 * `{ type: 'error', message }`, and `{ type: 'done' }` last.
 */
import { readFileSync } from 'node:fs';
import type { ScenarioObject } from '../src/model/index.ts';

// The model's modules are imported by the figure that needs them (below), so that one figure's
// import error (a module mid-edit) fails that figure alone.
const model = () => import('../src/model/index.ts');
// The scene: the model's own reading of the objects (what the CLI's `stats` uses), equal here to
// the app's `sceneForObjects` (src/store/importScenario.ts: the internet client dialling the load
// balancer, the Service's policy and delivery), which Node cannot import: src/store reads
// Vite's `import.meta.env`.
const store = async () => {
  const { sceneFromObjects } = await import('../src/model/time/scenario.ts');
  return { sceneForObjects: sceneFromObjects };
};

/** A message to scripts/bench.ts. */
export type FigureMessage =
  | { type: 'run'; warm: boolean; ms: number }
  | { type: 'heap'; bytes: number; baselineBytes: number }
  | { type: 'error'; message: string }
  | { type: 'done' };

function send(m: FigureMessage): void {
  if (process.send) process.send(m);
  else console.log(JSON.stringify(m));
}

/** What the app would hold after an import: the text's objects with their gaps filled. */
async function objectsOf(text: string): Promise<ScenarioObject[]> {
  const { fillGaps } = await import('../src/model/import/fill.ts');
  const { loadObjects } = await import('../src/model/import/load.ts');
  return fillGaps(loadObjects(text).objects).objects;
}

/** The workload of issue 11's simulate figure: 100,000 connections over 2 minutes, node-1 failing at 12 s and back at 90 s. */
async function simulateInput(objects: ScenarioObject[]) {
  const { sceneForObjects } = await store();
  return {
    objects,
    scene: sceneForObjects(objects, 1),
    events: [
      { at: 12_000, kind: 'fail-node' as const, node: 'node-1' },
      { at: 90_000, kind: 'restore-node' as const, node: 'node-1' },
    ],
    workload: { count: 100_000, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
    horizonMs: 120_000,
  };
}

/** Runs `fn` once unmeasured, then `runs` times, reporting each run's wall time. */
function timed(runs: number, fn: () => unknown): void {
  let sink: unknown;
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    sink = fn();
    const ms = performance.now() - t0;
    send({ type: 'run', warm: i === 0, ms });
  }
  if (sink === Symbol.for('never')) console.log(sink);
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('global.gc is missing: run with node --expose-gc');
  g();
  g();
}

async function measure(figure: string, file: string, runs: number, rest: string[]) {
  const text = readFileSync(file, 'utf8');
  if (figure === 'parse') {
    const { parse } = await import('yaml');
    return timed(runs, () => parse(text));
  }
  if (figure === 'import') {
    const { importText } = await import('./bench-import.ts');
    return timed(runs, () => importText(text));
  }
  if (figure === 'runScene') {
    const { runScene } = await model();
    const { sceneForObjects } = await store();
    const objects = await objectsOf(text);
    const scene = sceneForObjects(objects, 1);
    return timed(runs, () => runScene(objects, scene));
  }
  if (figure === 'simulate') {
    const { simulate } = await import('../src/model/time/index.ts');
    const input = await simulateInput(await objectsOf(text));
    return timed(runs, () => simulate(input));
  }
  if (figure === 'heap') {
    const { runScene } = await model();
    const { sceneForObjects } = await store();
    const { importText } = await import('./bench-import.ts');
    gc();
    const baselineBytes = process.memoryUsage().heapUsed;
    // What the page holds once the trace is drawn: the text, the imported objects, the scene.
    const held = importText(text);
    const result = runScene(held.objects, sceneForObjects(held.objects, 1));
    gc();
    const bytes = process.memoryUsage().heapUsed;
    send({ type: 'heap', bytes, baselineBytes });
    if ([held, result].length === 0) console.log(held, result);
    return;
  }
  if (figure === 'cli') {
    // The CLI's commands in this process (src/cli/run.ts), what they print kept, not written.
    const { runCli } = await import('../src/cli/run.ts');
    return timed(runs, () => {
      const r = runCli([...rest, file]);
      if (r.status !== 0)
        throw new Error(`datapath ${rest.join(' ')}: exit ${r.status}: ${r.stderr}`);
    });
  }
  throw new Error(`unknown figure ${figure}`);
}

const [figure = '', file = '', runsArg = '5', ...rest] = process.argv.slice(2);
try {
  await measure(figure, file, Number(runsArg), rest);
} catch (e) {
  send({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}
send({ type: 'done' });
process.disconnect?.();
