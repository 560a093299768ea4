/**
 * The main thread's side of the model worker: an {@link AsyncEngine} for the store
 * (`src/store/engine.ts`). One Worker serves every store; each store gets a channel.
 *
 * Superseding: each channel has slots (`scene`, and one per kind of rules request); a slot
 * keeps at most one request in flight. A request made while another is in flight waits in the
 * slot, replacing any request already waiting there (that one is never sent: the worker skips
 * stale work), and the in-flight one's reply is dropped when it arrives (stale replies never
 * land). So a burst of toggles costs the worker at most the one it was on, plus the last.
 *
 * Where `Worker` is missing the same handler runs in this thread, loaded on first use and
 * answering asynchronously, so the store sees one behaviour.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { ModeRuleset } from '../model/kube-proxy/types';
import type { Derived } from '../store/derived';
import type { AsyncEngine, EngineChannel, RulesAnswer } from '../store/engine';
import { takeModelWorker } from './earlyWorker';
import { unpackRules } from './pack';
import { objectSetSender } from './objectSets';
import { joinArrays } from './parts';
import type { ArrayPart } from './parts';
import { OBJECTS_PER_PART } from './protocol';
import type { FromWorker, SceneReply, ToWorker } from './protocol';

interface Transport {
  post(m: ToWorker): void;
  listen(fn: (m: FromWorker) => void): void;
}

function workerTransport(worker: Worker): Transport {
  return {
    post: (m) => worker.postMessage(m),
    listen: (fn) => worker.addEventListener('message', (e: MessageEvent<FromWorker>) => fn(e.data)),
  };
}

/**
 * The worker's handler in this thread (no `Worker`): the same messages, answered in a task,
 * with the same counting after a scene's answer (`serveMessages`).
 */
function inThreadTransport(): Transport {
  let listener: (m: FromWorker) => void = () => {};
  const serve = import('./handler').then((m) => m.serveMessages((r) => listener(r)));
  return {
    post: (m) => {
      void serve.then((s) => setTimeout(() => s(m), 0));
    },
    listen: (fn) => {
      listener = fn;
    },
  };
}

/** The store's view of a scene reply. */
export function derivedOf(reply: SceneReply): Derived {
  if (!reply.ok) return { ok: false, error: reply.error };
  const rules: Record<string, ModeRuleset> = {};
  for (const p of reply.rules) rules[p.nodeName] = unpackRules(p);
  return {
    ok: true,
    result: {
      cluster: reply.cluster,
      trace: reply.trace,
      serviceKey: reply.serviceKey,
      lbTargets: reply.lbTargets,
      rules,
      ruleCounts: reply.ruleCounts,
    },
  };
}

interface Job {
  objects: ScenarioObject[];
  message: (req: number, objects: number) => ToWorker;
  deliver: (m: FromWorker) => void;
}

interface Slot {
  inflight: number | null;
  waiting: Job | null;
}

/** An object set, or a part of one (the same message for the time view's worker). */
type ObjectsMessage = Extract<ToWorker, { type: 'objects' }>;

/**
 * Posts messages in order (`M`: this worker's messages), an object set's parts one per task (a set of 10,000 Pods cloned in
 * one message blocked the page for ~360 ms); every other message goes at once unless parts are
 * still queued before it.
 */
export function createOutbox<M extends { type: string; more?: boolean } = ToWorker>(
  post: (m: M | ObjectsMessage) => void,
  later: (fn: () => void) => void = (fn) => setTimeout(fn, 0),
): { post(m: M | ObjectsMessage): void; sendObjects(id: number, objects: ScenarioObject[]): void } {
  const queue: (M | ObjectsMessage)[] = [];
  let waiting = false;
  const pump = () => {
    waiting = false;
    for (let m = queue.shift(); m; m = queue.shift()) {
      post(m);
      // The next part (and whatever waits behind it) goes in a later task.
      if (m.type === 'objects' && m.more) {
        waiting = true;
        return later(pump);
      }
    }
  };
  const push = (m: M | ObjectsMessage) => {
    queue.push(m);
    if (!waiting) pump();
  };
  return {
    post: push,
    sendObjects(id, objects) {
      if (objects.length === 0) return push({ type: 'objects', id, objects });
      for (let i = 0; i < objects.length; i += OBJECTS_PER_PART) {
        const more = i + OBJECTS_PER_PART < objects.length;
        push({
          type: 'objects',
          id,
          objects: objects.slice(i, i + OBJECTS_PER_PART),
          ...(more ? { more } : {}),
        });
      }
    },
  };
}

/**
 * An engine backed by one Web Worker (`model.worker.ts`), or by the same handler in this
 * thread when `Worker` is not available. `later` runs work in a later task (an object set's
 * next part; a decoded answer's landing); tests may pass their own.
 */
export function createWorkerEngine(
  later: (fn: () => void) => void = (fn) => setTimeout(fn, 0),
): AsyncEngine {
  const worker = takeModelWorker();
  const transport = worker ? workerTransport(worker) : inThreadTransport();
  const outbox = createOutbox((m) => transport.post(m), later);
  /** Parts of large arrays of replies not yet arrived, by request. */
  const partsFor = new Map<number, ArrayPart[]>();
  const objectSets = objectSetSender(outbox.sendObjects, outbox.post);
  const jobs = new Map<number, { slot: Slot; job: Job }>();
  /** The latest delivered scene request per slot, whose later counts still apply. */
  const countsFor = new Map<number, (m: FromWorker) => void>();
  let nextReq = 1;
  let nextChannel = 1;

  const start = (slot: Slot, job: Job) => {
    const id = objectSets.ensure(job.objects);
    const req = nextReq++;
    jobs.set(req, { slot, job });
    slot.inflight = req;
    outbox.post(job.message(req, id));
  };

  const submit = (slot: Slot, job: Job) => {
    if (slot.inflight !== null) slot.waiting = job;
    else start(slot, job);
  };

  transport.listen((m) => {
    if (m.type === 'counts') return countsFor.get(m.req)?.(m);
    if (m.type === 'part') {
      const parts = partsFor.get(m.req) ?? [];
      parts.push(m.part);
      partsFor.set(m.req, parts);
      return;
    }
    const parts = partsFor.get(m.req);
    partsFor.delete(m.req);
    if (parts && m.type === 'scene' && m.reply.ok) joinArrays(m.reply, parts);
    const entry = jobs.get(m.req);
    if (!entry) return;
    jobs.delete(m.req);
    const { slot, job } = entry;
    slot.inflight = null;
    if (m.type === 'missing') {
      objectSets.lost(m.objects);
      // A newer request waiting goes first; else ask again, objects included.
      const again = slot.waiting ?? job;
      slot.waiting = null;
      return start(slot, again);
    }
    if (slot.waiting) {
      const next = slot.waiting;
      slot.waiting = null;
      return start(slot, next); // this reply is stale: dropped
    }
    job.deliver(m);
  });

  return {
    kind: 'async',
    channel(): EngineChannel {
      const channelId = nextChannel++;
      const sceneSlot: Slot = { inflight: null, waiting: null };
      const ruleSlots = new Map<string, Slot>();
      let lastCounts: number | undefined;
      return {
        scene(objects, scene, nodes, reply, counts) {
          submit(sceneSlot, {
            objects,
            message: (req, id) => ({
              type: 'scene',
              req,
              objects: id,
              scene,
              nodes: [...nodes],
              channel: channelId,
            }),
            deliver: (m) => {
              if (m.type !== 'scene') return;
              if (lastCounts !== undefined) countsFor.delete(lastCounts);
              lastCounts = m.req;
              // Unpacked here, drawn in the next task: at 1,000 nodes each is ~50-150 ms, and
              // together they were one long task. Counts that come in between wait for it.
              const derived = derivedOf(m.reply);
              let landed = false;
              const early: Record<string, { mode: string; rules: number }>[] = [];
              if (counts)
                countsFor.set(m.req, (c) => {
                  if (c.type !== 'counts') return;
                  if (landed) counts(c.counts);
                  else early.push(c.counts);
                });
              later(() => {
                reply(derived);
                landed = true;
                for (const c of early) counts?.(c);
              });
            },
          });
        },
        rules(slotName, objects, scene, node, reply) {
          let slot = ruleSlots.get(slotName);
          if (!slot) {
            slot = { inflight: null, waiting: null };
            ruleSlots.set(slotName, slot);
          }
          submit(slot, {
            objects,
            message: (req, id) => ({ type: 'rules', req, objects: id, scene, node }),
            deliver: (m) => {
              if (m.type !== 'rules') return;
              const r: RulesAnswer = m.reply.ok
                ? { ok: true, rules: unpackRules(m.reply.rules) }
                : { ok: false, error: m.reply.error };
              reply(r);
            },
          });
        },
      };
    },
  };
}
