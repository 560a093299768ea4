/**
 * The shape of the model's answer as the store holds it, with no model code behind it: the
 * main thread imports these types and helpers, while `runScene` itself runs wherever the
 * store's engine runs it (`engine.ts`: in process in Node, in a Web Worker in the browser).
 */
import type { SceneResult } from '../model';
import type { Trace } from '../model/trace/types';

/**
 * What the view draws for one scene: the model's {@link SceneResult}, plus, when the answer
 * came from a worker, each node's rule count for the nodes it generated (a worker's `rules`
 * holds only the nodes it was asked for and those on the trace's path).
 */
export interface ViewResult extends SceneResult {
  /** Rule lines with a rule id per node (`ruleCounts[node].rules`), for the nodes generated. */
  ruleCounts?: Record<string, { mode: string; rules: number }>;
}

/**
 * The model's answer, or the error it threw (bad input must not blank the page). The error
 * message is never empty; {@link WAITING} (empty message) means no answer has arrived yet.
 */
export type Derived = { ok: true; result: ViewResult } | { ok: false; error: string };

/** Before the first answer of an asynchronous engine lands. */
export const WAITING: Derived = Object.freeze({ ok: false, error: '' }) as Derived;

/** Whether `d` is {@link WAITING} (nothing computed yet), not a real error. */
export function isWaiting(d: Derived): boolean {
  return !d.ok && d.error === '';
}

/** `e` as a non-empty message. */
export function errorMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m === '' ? 'unknown error' : m;
}

/** The trace shown when the model failed: no steps, an outcome that carries the error. */
export function errorTrace(error: string): Trace {
  return {
    steps: [],
    conntrack: [],
    outcome: { kind: 'no-address', reason: error, summary: `The model could not run: ${error}` },
  };
}

/** The trace shown before the first answer: no steps yet. */
export const WAITING_TRACE: Trace = {
  steps: [],
  conntrack: [],
  outcome: { kind: 'no-address', reason: 'computing', summary: 'Computing the trace…' },
};
