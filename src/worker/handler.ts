/**
 * The model worker's logic, free of `self` so it runs (and is tested) in Node too: holds the
 * objects the main thread sent, runs `runScene` for a scene request (memoised: the last few
 * scenes, so a rules request for the scene on screen reuses its lazily generated rules), and
 * shapes the answer into a structured-cloneable {@link SceneReply}.
 *
 * A thin adapter: every fact comes from `runScene` (src/model), unchanged.
 */
import { runScene } from '../model';
import type { SceneResult } from '../model';
import type { SceneOptions } from '../model/scenario/scene';
import type { ModeRuleset } from '../model/kube-proxy/types';
import { HeldObjectSets } from './objectSets';
import { packRules } from './pack';
import { splitArrays } from './parts';
import type { FromWorker, PackedRules, SceneReply, ToWorker } from './protocol';

/** Nodes (in cluster order, after the path's) whose rule counts come with every answer. */
export const COUNTED_NODES = 8;
/** The path's full rules come with the answer while they have at most this many lines. */
export const PATH_RULE_LINES = 20_000;
/** Scenes remembered (per worker). */
const SCENES = 4;
/** Object sets held (the main thread forgets the ones it drops; this bounds the rest). */
const OBJECT_SETS = 6;

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m === '' ? 'unknown error' : m;
}

function countOf(rs: ModeRuleset): { mode: string; rules: number } {
  let rules = 0;
  for (const l of rs.lines) if (l.ruleId !== undefined) rules++;
  return { mode: rs.mode, rules };
}

/** The nodes whose kube-proxy rules the trace walked, in path order. */
export function pathNodes(result: SceneResult): string[] {
  const out: string[] = [];
  for (const s of result.trace.steps)
    if (s.rule?.kind === 'kube-proxy' && !out.includes(s.rule.node)) out.push(s.rule.node);
  return out;
}

/** Every node the trace passes through (`at` = `node:NAME`), in path order. */
export function visitedNodes(result: SceneResult): string[] {
  const out: string[] = [];
  for (const s of result.trace.steps)
    if (s.at.startsWith('node:') && !out.includes(s.at.slice(5))) out.push(s.at.slice(5));
  return out;
}

/**
 * The reply for `result`: cluster, trace, Service key, balancer targets; the full rules of
 * `nodes` (those that exist) and of the path's nodes while they stay under
 * {@link PATH_RULE_LINES} lines; rule counts for those (the first {@link COUNTED_NODES}
 * follow, one at a time: {@link laterCounts}).
 */
export function sceneReply(result: SceneResult, nodes: readonly string[]): SceneReply {
  const names = new Set(result.cluster.nodes.map((n) => n.name));
  const full = nodes.filter((n) => names.has(n));
  let lines = 0;
  for (const n of pathNodes(result)) {
    if (full.includes(n)) continue;
    const size = result.rules[n]?.lines.length ?? 0;
    if (lines + size > PATH_RULE_LINES) continue;
    lines += size;
    full.push(n);
  }
  // Every node the packet passes is drawn in full with its rule count, including the Pod's
  // node, where no kube-proxy rule may act (its rules are written for the count alone).
  const counted = new Set([...full, ...pathNodes(result), ...visitedNodes(result)]);
  const ruleCounts: Record<string, { mode: string; rules: number }> = {};
  for (const n of counted) {
    const rs = result.rules[n];
    if (rs) ruleCounts[n] = countOf(rs);
  }
  const rules: PackedRules[] = [];
  for (const n of full) {
    const rs = result.rules[n];
    if (rs) rules.push(packRules(rs));
  }
  return {
    ok: true,
    cluster: result.cluster,
    trace: result.trace,
    serviceKey: result.serviceKey,
    lbTargets: result.lbTargets,
    rules,
    ruleCounts,
  };
}

/** The first {@link COUNTED_NODES} nodes a reply's `ruleCounts` lacks (counted after it). */
export function laterCounts(result: SceneResult, reply: SceneReply): string[] {
  if (!reply.ok) return [];
  return result.cluster.nodes
    .slice(0, COUNTED_NODES)
    .map((n) => n.name)
    .filter((n) => !(n in reply.ruleCounts));
}

/** One node's rule count under a scene the handler ran (generating its rules if need be). */
export function ruleCountOf(result: SceneResult, node: string) {
  const rs = result.rules[node];
  return rs ? countOf(rs) : undefined;
}

/**
 * The messages that carry `reply` to the main thread: a scene answer's large arrays first, in
 * `part` messages of at most `size` items, then the answer without them; any other message as
 * it is.
 */
export function outgoing(reply: FromWorker, size?: number): FromWorker[] {
  if (reply.type !== 'scene' || !reply.reply.ok) return [reply];
  const { value, parts } = splitArrays(reply.reply, size);
  return [
    ...parts.map((part): FromWorker => ({ type: 'part', req: reply.req, part })),
    { ...reply, reply: value },
  ];
}

/** One worker's state: the objects it holds and the scenes it ran. */
export class ModelHandler {
  private scenes: { objects: number; key: string; result: SceneResult | Error }[] = [];
  private readonly objects = new HeldObjectSets(OBJECT_SETS, (id) => this.dropScenes(id));

  private dropScenes(id: number): void {
    this.scenes = this.scenes.filter((s) => s.objects !== id);
  }

  /** The reply to `msg`, or undefined for messages that need none. */
  handle(msg: ToWorker): FromWorker | undefined {
    switch (msg.type) {
      case 'objects':
        this.objects.receive(msg);
        return undefined;
      case 'forget':
        this.objects.forget(msg.id);
        this.dropScenes(msg.id);
        return undefined;
      case 'scene': {
        const r = this.run(msg.objects, msg.scene);
        if (r === undefined) return { type: 'missing', req: msg.req, objects: msg.objects };
        if (r instanceof Error)
          return { type: 'scene', req: msg.req, reply: { ok: false, error: message(r) } };
        try {
          return { type: 'scene', req: msg.req, reply: sceneReply(r, msg.nodes) };
        } catch (e) {
          return { type: 'scene', req: msg.req, reply: { ok: false, error: message(e) } };
        }
      }
      case 'rules': {
        const r = this.run(msg.objects, msg.scene);
        if (r === undefined) return { type: 'missing', req: msg.req, objects: msg.objects };
        if (r instanceof Error)
          return { type: 'rules', req: msg.req, reply: { ok: false, error: message(r) } };
        try {
          const rs = r.rules[msg.node];
          return rs
            ? { type: 'rules', req: msg.req, reply: { ok: true, rules: packRules(rs) } }
            : { type: 'rules', req: msg.req, reply: { ok: false, error: `no node ${msg.node}` } };
        } catch (e) {
          return { type: 'rules', req: msg.req, reply: { ok: false, error: message(e) } };
        }
      }
    }
  }

  /** runScene, memoised on (objects id, scene as JSON); undefined when the objects are unknown. */
  run(id: number, scene: SceneOptions): SceneResult | Error | undefined {
    const objects = this.objects.get(id);
    if (!objects) return undefined;
    const key = JSON.stringify(scene);
    const hit = this.scenes.find((s) => s.objects === id && s.key === key);
    if (hit) return hit.result;
    let result: SceneResult | Error;
    try {
      result = runScene(objects, scene);
    } catch (e) {
      result = e instanceof Error ? e : new Error(String(e));
    }
    this.scenes = [{ objects: id, key, result }, ...this.scenes].slice(0, SCENES);
    return result;
  }
}

/**
 * One side of the model's messages — the worker, or the same handler in the page's thread
 * (client.ts, where there is no `Worker`): answers each message, and after a scene's answer
 * counts the rules of the first nodes the answer lacked ({@link laterCounts}), one node per
 * task (`later`), posting each as a `counts` message. A newer scene *from the same channel*
 * (the same store) stops the counting for its older one; another store's scene (a tutorial's
 * live scene beside the app's stage) or a rules request does not — either left a node of the
 * drawing reading "counting rules…" for good.
 */
export function serveMessages(
  post: (m: FromWorker) => void,
  later: (fn: () => void) => void = (fn) => setTimeout(fn, 0),
): (msg: ToWorker) => void {
  const handler = new ModelHandler();
  /** Bumped by each scene, per channel (the store that asked): its older counting stops. */
  const generations = new Map<number, number>();
  return (msg) => {
    const channel = msg.type === 'scene' ? (msg.channel ?? 0) : 0;
    if (msg.type === 'scene') generations.set(channel, (generations.get(channel) ?? 0) + 1);
    const reply = handler.handle(msg);
    if (!reply) return;
    for (const m of outgoing(reply)) post(m);
    if (msg.type !== 'scene' || reply.type !== 'scene') return;
    const result = handler.run(msg.objects, msg.scene);
    if (!result || result instanceof Error) return;
    const todo = laterCounts(result, reply.reply);
    const mine = generations.get(channel);
    const step = () => {
      if (generations.get(channel) !== mine) return;
      const node = todo.shift();
      if (node === undefined) return;
      const c = ruleCountOf(result, node);
      if (c) post({ type: 'counts', req: msg.req, counts: { [node]: c } });
      later(step);
    };
    later(step);
  };
}
