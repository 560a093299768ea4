/**
 * Keeps a store's model answer in step with its objects and scene when the engine is
 * asynchronous (a Web Worker): each change of `objects` or `scene` sends one request (changes
 * made in one synchronous block are coalesced into one, so an import's new objects and new
 * scene make one request, not an in-between one); the answer lands in `Store.model` when it
 * arrives, unless a newer change superseded it (stale replies are dropped). What depended on
 * the new answer — where the step goes (setScene's policy), a walkthrough step's trace step,
 * the first node after an import — is applied when it lands ({@link expectStep},
 * {@link whenModel}). With a sync engine everything here runs at once.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { Derived } from './derived';
import type { AsyncEngine, EngineChannel, RulesAnswer } from './engine';
import type { AppStore, Store } from './types';

/**
 * What to do with the step when the answer lands: `end` puts it on the new last step, `clamp`
 * keeps it inside the new trace; null leaves it.
 */
export type StepFix = 'end' | 'clamp' | null;

interface Waiting {
  fn: () => void;
  /** Run on the next answer even if the objects or scene changed meanwhile. */
  keep: boolean;
  objects: ScenarioObject[];
  scene: SceneOptions;
}

interface Controller {
  channel: EngineChannel;
  fix: StepFix;
  queue: Waiting[];
  /** The node whose rules were last asked for, and for which answer. */
  rulesAsked: { derived: Derived; node: string } | null;
}

const controllers = new WeakMap<AppStore, Controller>();

/** Whether the model answer in `s` is for its current objects and scene (always, when sync). */
export function isCurrent(s: Store): boolean {
  return s.model.compute !== null || (s.model.objects === s.objects && s.model.scene === s.scene);
}

/**
 * Runs `fn` once the answer for the store's current objects and scene is in `Store.model`:
 * now if it is (always with a sync engine), else when it lands. If the objects or scene change
 * before that, `fn` is dropped, unless `keep` (then it runs on the next answer that lands).
 */
export function whenModel(store: AppStore, fn: () => void, keep = false): void {
  const c = controllers.get(store);
  const s = store.getState();
  if (!c || isCurrent(s)) return fn();
  c.queue.push({ fn, keep, objects: s.objects, scene: s.scene });
}

/** Sets what happens to the step when the pending answer lands (no-op with a sync engine). */
export function expectStep(store: AppStore, fix: StepFix): void {
  const c = controllers.get(store);
  if (c) c.fix = fix;
}

/** Whether a fix is waiting for the pending answer. */
export function stepFixOf(store: AppStore): StepFix {
  return controllers.get(store)?.fix ?? null;
}

/**
 * Asks the store's async engine for `node`'s rules under `scene` in `slot` (a newer request
 * in the slot supersedes this one); false when the store has no async engine.
 */
export function requestRules(
  store: AppStore,
  slot: string,
  objects: ScenarioObject[],
  scene: SceneOptions,
  node: string,
  reply: (r: RulesAnswer) => void,
): boolean {
  const c = controllers.get(store);
  if (!c) return false;
  c.channel.rules(slot, objects, scene, node, reply);
  return true;
}

function stepCount(d: Derived): number {
  return d.ok ? d.result.trace.steps.length : 0;
}

/**
 * Connects `store` to `engine`: asks for the current state's answer now (in a microtask) and
 * after every change of objects or scene, lands each reply, and fetches the selected node's
 * rules when the answer on screen lacks them.
 */
export function attachEngine(store: AppStore, engine: AsyncEngine): void {
  const c: Controller = { channel: engine.channel(), fix: null, queue: [], rulesAsked: null };
  controllers.set(store, c);

  const land = (objects: ScenarioObject[], scene: SceneOptions, derived: Derived) => {
    const s = store.getState();
    if (s.objects !== objects || s.scene !== scene) return; // superseded
    const fix = c.fix;
    c.fix = null;
    const n = stepCount(derived);
    const index =
      fix === 'end'
        ? n - 1
        : fix === 'clamp'
          ? Math.min(s.playback.stepIndex, n - 1)
          : s.playback.stepIndex;
    store.setState({
      model: { compute: null, objects, scene, derived },
      ...(index !== s.playback.stepIndex ? { playback: { ...s.playback, stepIndex: index } } : {}),
    });
    const queue = c.queue;
    c.queue = [];
    for (const w of queue) if (w.keep || (w.objects === objects && w.scene === scene)) w.fn();
  };

  let scheduled = false;
  const request = () => {
    scheduled = false;
    const s = store.getState();
    const { objects, scene } = s;
    const nodes = s.ui.selectedNode ? [s.ui.selectedNode] : [];
    c.channel.scene(
      objects,
      scene,
      nodes,
      (d) => land(objects, scene, d),
      (counts) => {
        const now = store.getState();
        const d = now.model.derived;
        if (now.model.objects !== objects || now.model.scene !== scene || !d.ok) return;
        const ruleCounts = { ...d.result.ruleCounts, ...counts };
        store.setState({
          model: { ...now.model, derived: { ok: true, result: { ...d.result, ruleCounts } } },
        });
      },
    );
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(request);
  };

  const ensureRules = () => {
    const s = store.getState();
    const d = s.model.derived;
    const node = s.ui.selectedNode;
    if (!d.ok || !node || d.result.rules[node] || !s.model.objects || !s.model.scene) return;
    if (!d.result.cluster.nodes.some((n) => n.name === node)) return;
    if (c.rulesAsked?.derived === d && c.rulesAsked.node === node) return;
    c.rulesAsked = { derived: d, node };
    c.channel.rules('selected', s.model.objects, s.model.scene, node, (r) => {
      const now = store.getState();
      if (now.model.derived !== d || !r.ok || !d.ok) return;
      const result = { ...d.result, rules: { ...d.result.rules, [node]: r.rules } };
      store.setState({ model: { ...now.model, derived: { ok: true, result } } });
    });
  };

  store.subscribe((s, prev) => {
    if (s.objects !== prev.objects || s.scene !== prev.scene) schedule();
    if (s.model !== prev.model || s.ui.selectedNode !== prev.ui.selectedNode) ensureRules();
  });
  schedule();
}
