/**
 * Who computes the model for a store. Two kinds behind one interface:
 * - a **sync** engine answers in the same call (`engineInProcess.ts`: `runScene` in this
 *   thread, memoised): what Node (vitest, scripts) uses, so reading a selector right after a
 *   change sees the new answer;
 * - an **async** engine answers later (`src/worker/client.ts`: a Web Worker): the store keeps
 *   the last answer on screen (`Store.model`) until the new one lands (`modelSync.ts`).
 *
 * The browser registers its engine once at start-up ({@link setDefaultEngine}, `src/main.tsx`);
 * without one, tests get the in-process engine.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { ModeRuleset } from '../model/kube-proxy/types';
import type { Derived } from './derived';

// Outside a production build (vitest, the dev server before main.tsx registers the worker)
// the in-process engine is the fallback. Loaded with a dynamic import so that a production
// build's main bundle never reaches it, nor `runScene` behind it (`PROD` is a build-time
// constant: the import is dropped there).
// Plain Node (tsx scripts) has no `import.meta.env`: not a production build either.
const fallback: SyncEngine | undefined =
  typeof import.meta.env === 'object' && import.meta.env.PROD
    ? undefined
    : (await import('./engineInProcess')).inProcessEngine;

/** Answers in the calling thread, at once. */
export interface SyncEngine {
  kind: 'sync';
  /** `runScene(objects, scene)` as a {@link Derived} (never throws). */
  derive(objects: ScenarioObject[], scene: SceneOptions): Derived;
}

/** A node's rules, or why there are none (the scene did not run, or the node is unknown). */
export type RulesAnswer = { ok: true; rules: ModeRuleset } | { ok: false; error: string };

/**
 * One store's line to an async engine. Each kind of request has slots: a newer request in a
 * slot supersedes the older one (its reply is never delivered, and work not yet started for
 * it is skipped).
 */
export interface EngineChannel {
  /**
   * Runs the scene; `reply` gets the answer, with the full rules of `nodes` (and of the
   * trace's path when they are small) and rule counts for the nodes it generated; `counts`
   * (if given) gets more nodes' rule counts afterwards, until a newer request is made.
   */
  scene(
    objects: ScenarioObject[],
    scene: SceneOptions,
    nodes: readonly string[],
    reply: (d: Derived) => void,
    counts?: (c: Record<string, { mode: string; rules: number }>) => void,
  ): void;
  /** One node's rules under `scene`, in slot `slot` (e.g. the selected node, a comparison). */
  rules(
    slot: string,
    objects: ScenarioObject[],
    scene: SceneOptions,
    node: string,
    reply: (r: RulesAnswer) => void,
  ): void;
}

/** Answers later, off the calling thread. */
export interface AsyncEngine {
  kind: 'async';
  /** A new channel (one per store). */
  channel(): EngineChannel;
}

export type ModelEngine = SyncEngine | AsyncEngine;

let registered: ModelEngine | undefined;

/** Sets the engine every store made from now on uses (the browser's worker, at start-up). */
export function setDefaultEngine(engine: ModelEngine | undefined): void {
  registered = engine;
}

/**
 * The engine a new store uses: the registered one, else the in-process engine. In a production
 * build only a registered engine is reachable (the in-process one, and the model behind it,
 * stay out of the main bundle: `import.meta.env.PROD` is a build-time constant).
 * @throws {Error} in a production build when no engine was registered.
 */
export function defaultEngine(): ModelEngine {
  if (registered) return registered;
  if (fallback) return fallback;
  throw new Error('no model engine: call setDefaultEngine first (src/main.tsx)');
}
