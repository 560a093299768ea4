/**
 * The main thread's way to analyse a text: in a Web Worker (./analyse.worker.ts) where the
 * browser has `Worker`, else in this thread (vitest, old browsers), loaded on first use.
 *
 * Newest request wins: a request for another text cancels the one in flight (its promise
 * rejects with {@link CancelledError}; the worker, stuck in a parse that cannot be
 * interrupted, is terminated and a fresh one started). A request for the text already in
 * flight waits for it instead, and is answered from the worker's memory of that text.
 */
import type { ShownAnalysis } from './limits';
import { joinArrays } from '../../worker/parts';
import type { ArrayPart } from '../../worker/parts';

/** A message to the worker: analyse `text`; send the objects too when `objects`. */
export interface AnalyseRequest {
  id: number;
  text: string;
  objects: boolean;
}

/**
 * The worker's answer to the request `id` (its `text` left empty: it is the request's); before
 * it, a large array of it (the objects of a 10,000-Pod cluster) in parts, each its own task
 * here (../../worker/parts.ts).
 */
export type AnalyseReply =
  { id: number; analysis: ShownAnalysis } | { id: number; part: ArrayPart };

/** The promise of a request that a newer one replaced. */
export class CancelledError extends Error {
  constructor() {
    super('replaced by a newer request');
    this.name = 'CancelledError';
  }
}

/** True for the rejection of a superseded request (nothing to report). */
export function isCancelled(e: unknown): e is CancelledError {
  return e instanceof CancelledError;
}

interface InFlight {
  id: number;
  text: string;
  done: Promise<unknown>;
  resolve: (a: ShownAnalysis) => void;
  reject: (e: unknown) => void;
  /** Parts of the answer's large arrays received so far. */
  parts: ArrayPart[];
}

/** Analyses texts, one at a time, newest first. */
export interface AnalyseClient {
  /** The analysis of `text` (problems cut to the first 100; objects only when `objects`). */
  analyse(text: string, options?: { objects?: boolean }): Promise<ShownAnalysis>;
  /** Stops the worker; pending requests are cancelled. */
  dispose(): void;
}

function inThread(): AnalyseClient {
  let latest = 0;
  return {
    async analyse(text, options) {
      const id = ++latest;
      const [{ analyse }, { shown }] = await Promise.all([import('./analyse'), import('./limits')]);
      // Let a newer request (made while the module loaded) win here too.
      if (id !== latest) throw new CancelledError();
      return shown(analyse(text), options?.objects ?? false);
    },
    dispose() {
      latest++;
    },
  };
}

function inWorker(): AnalyseClient {
  let worker: Worker | undefined;
  let next = 0;
  let current: InFlight | undefined;

  const start = (): Worker => {
    const w = new Worker(new URL('./analyse.worker.ts', import.meta.url), { type: 'module' });
    w.addEventListener('message', (e: MessageEvent<AnalyseReply>) => {
      const c = current;
      const m = e.data;
      if (!c || m.id !== c.id) return; // a stale answer
      if ('part' in m) {
        c.parts.push(m.part);
        return;
      }
      current = undefined;
      // The worker leaves the text out of its answer (it is the text asked about).
      c.resolve(joinArrays({ ...m.analysis, text: c.text }, c.parts));
    });
    w.addEventListener('error', (e) => {
      const c = current;
      current = undefined;
      worker?.terminate();
      worker = undefined;
      c?.reject(new Error(`the checker stopped: ${e.message || 'worker error'}`));
    });
    return w;
  };

  const send = (text: string, objects: boolean): Promise<ShownAnalysis> => {
    if (current) {
      // The worker is busy with another text: it cannot be interrupted, so it goes.
      current.reject(new CancelledError());
      current = undefined;
      worker?.terminate();
      worker = undefined;
    }
    const id = ++next;
    worker ??= start();
    let resolve!: (a: ShownAnalysis) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<ShownAnalysis>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    current = { id, text, done: done.catch(() => undefined), resolve, reject, parts: [] };
    worker.postMessage({ id, text, objects } satisfies AnalyseRequest);
    return done;
  };

  return {
    async analyse(text, options) {
      const objects = options?.objects ?? false;
      // Same text in flight: wait for it, then ask again (answered from the worker's memory).
      while (current && current.text === text) await current.done;
      return send(text, objects);
    },
    dispose() {
      current?.reject(new CancelledError());
      current = undefined;
      worker?.terminate();
      worker = undefined;
    },
  };
}

/** A client: the worker where `Worker` exists, else this thread. */
export function createAnalyseClient(): AnalyseClient {
  return typeof Worker === 'undefined' ? inThread() : inWorker();
}

let shared: AnalyseClient | undefined;

/** The page's one client (its worker starts on first use), shared by the editor and file loads. */
export function sharedAnalyseClient(): AnalyseClient {
  shared ??= createAnalyseClient();
  return shared;
}
