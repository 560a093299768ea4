/**
 * The model worker, started while the page's script is still being evaluated: `src/main.tsx`
 * imports this module first, so the worker's script downloads, compiles and is ready for the
 * first scene while the rest of the app's modules evaluate and React renders (at 4× CPU
 * throttle that is most of a second the first answer no longer waits for).
 *
 * One worker serves the page (`client.ts` takes it). Where `Worker` is missing (Node, old
 * browsers) there is none and `client.ts` answers in this thread.
 */

let early: Worker | undefined = start();

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
