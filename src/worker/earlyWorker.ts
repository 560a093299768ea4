/**
 * The model worker, started as early as the page can: in a production build by an inline
 * script in index.html, before the app's JavaScript has even downloaded
 * (scripts/earlyWorkerTag.ts); else here, while the page's script is still being evaluated
 * (`src/main.tsx` imports this module first). Either way the worker's script downloads,
 * compiles and is ready for the first scene while the app's modules load and evaluate.
 *
 * One worker serves the page (`client.ts` takes it). Where `Worker` is missing (Node, old
 * browsers) there is none and `client.ts` answers in this thread.
 */

let early: Worker | undefined = fromHtml() ?? start();

/**
 * The worker the built index.html started before any of the app's JavaScript loaded
 * (scripts/earlyWorkerTag.ts), taken once; undefined in the dev server and in Node.
 */
function fromHtml(): Worker | undefined {
  if (typeof window === 'undefined') return undefined;
  const w = window as { __lbModelWorker?: Worker };
  const worker = w.__lbModelWorker;
  delete w.__lbModelWorker;
  return worker;
}

function start(): Worker | undefined {
  if (typeof Worker !== 'function') return undefined;
  return new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module' });
}

/**
 * The model worker: the one started when this module was evaluated, the first time; a new
 * one after that. Undefined where `Worker` is missing.
 */
export function takeModelWorker(): Worker | undefined {
  const w = early ?? start();
  early = undefined;
  return w;
}
