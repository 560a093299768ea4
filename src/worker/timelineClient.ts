/**
 * The main thread's side of the time view's worker (`timeline.worker.ts`): channels, one per
 * time view on screen, each asking for the {@link TimeAnswer} of its latest inputs.
 *
 * Superseding, as for the model worker (`client.ts`): a channel keeps at most one request in
 * flight. A request made meanwhile waits, replacing any request already waiting (that one is
 * never sent: its work is skipped), and the in-flight one's answer is dropped when it arrives
 * (it never lands). So a burst of changes costs the worker at most the run it was on, plus the
 * last.
 *
 * Decoding stays in short tasks: objects go in parts ({@link createOutbox}), the answer comes
 * in parts (`timelineHandler.ts`), each part its own message, joined on arrival.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import { withFlatPaths } from '../model/time/pathSet';
import type { TimeAnswer, TimeInputs } from '../store/timeAnswer';
import { createOutbox } from './client';
import { objectSetSender } from './objectSets';
import { joinArrays } from './parts';
import type { ArrayPart } from './parts';
import { recordUnpacker } from './records';
import type { PackedRecords } from './records';
import { RECORDS_PER_TASK } from './timelineProtocol';
import type { FromTimelineWorker, SharedState, ToTimelineWorker } from './timelineProtocol';

/** How messages reach the worker and come back (a Worker, or a stand-in in tests). */
export interface TimelineTransport {
  post(m: ToTimelineWorker): void;
  listen(fn: (m: FromTimelineWorker) => void): void;
}

/** One time view's line to the worker. */
export interface TimelineChannel {
  /**
   * Asks for the answer for these inputs; `reply` gets it unless a newer request on this
   * channel (or {@link close}) came first.
   */
  request(
    objects: ScenarioObject[],
    scene: SceneOptions,
    time: TimeInputs,
    reply: (a: TimeAnswer) => void,
  ): void;
  /**
   * Drops what is waiting and any answer still to come (the view went away); a later
   * {@link request} opens the channel again (React's StrictMode runs effects twice).
   */
  close(): void;
}

/** Hands out channels to one worker. */
export interface TimelineClient {
  channel(): TimelineChannel;
}

interface Job {
  objects: ScenarioObject[];
  scene: SceneOptions;
  time: TimeInputs;
  reply: (a: TimeAnswer) => void;
}

interface Slot {
  inflight: number | null;
  waiting: Job | null;
  closed: boolean;
}

/**
 * The answer as it arrived (`light`, its arrays emptied) with its parts put back, and the
 * request's own objects as `derived.input.objects`, each shared epoch state array in its
 * place (one array for the epochs that share it, read-only like the rest), (mutates and
 * returns `light`); packed
 * connection records are made into objects a slice at a time ({@link RECORDS_PER_TASK}):
 * `more()` does the next slice and says whether any are left.
 */
export function joinAnswer(
  light: TimeAnswer,
  parts: readonly ArrayPart[],
  objects: readonly ScenarioObject[],
  connections?: PackedRecords,
  shared: readonly SharedState[] = [],
): { answer: TimeAnswer; more: () => boolean } {
  const answer = joinArrays(light, parts);
  answer.derived.input = { ...answer.derived.input, objects };
  if (!answer.derived.ok) return { answer, more: () => false };
  const { epochs } = answer.derived.timeline;
  for (const [i, key, from] of shared) {
    const to = epochs[i];
    const src = epochs[from];
    if (!to || !src) throw new Error(`no epoch ${i} or ${from} to share a state between`);
    Object.assign(to.state, { [key]: src.state[key] });
  }
  // Epoch.paths (the model's lazy getter) does not cross postMessage: put back.
  for (const e of epochs) withFlatPaths(e);
  if (!connections) return { answer, more: () => false };
  const out = answer.derived.timeline.connections as unknown as Record<string, unknown>[];
  const next = recordUnpacker(connections, out);
  return { answer, more: () => next(RECORDS_PER_TASK) };
}

/**
 * A client over `transport`. `later` runs work in a later task (the next part of an object
 * set; an answer's landing, after the task that joined it); tests may pass their own.
 */
export function createTimelineClient(
  transport: TimelineTransport,
  later: (fn: () => void) => void = (fn) => setTimeout(fn, 0),
): TimelineClient {
  const outbox = createOutbox<ToTimelineWorker>((m) => transport.post(m), later);
  const partsFor = new Map<number, ArrayPart[]>();
  const objectSets = objectSetSender(outbox.sendObjects, outbox.post);
  const jobs = new Map<number, { slot: Slot; job: Job }>();
  let nextReq = 1;

  const start = (slot: Slot, job: Job) => {
    const id = objectSets.ensure(job.objects);
    const req = nextReq++;
    jobs.set(req, { slot, job });
    slot.inflight = req;
    outbox.post({ type: 'timeline', req, objects: id, scene: job.scene, time: job.time });
  };

  transport.listen((m) => {
    if (m.type === 'part') {
      const parts = partsFor.get(m.req) ?? [];
      parts.push(m.part);
      partsFor.set(m.req, parts);
      return;
    }
    const parts = partsFor.get(m.req) ?? [];
    partsFor.delete(m.req);
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
      if (!slot.closed) start(slot, again);
      return;
    }
    if (slot.waiting) {
      const next = slot.waiting;
      slot.waiting = null;
      start(slot, next); // this answer is stale: dropped
      return;
    }
    if (slot.closed) return;
    const { answer, more } = joinAnswer(m.answer, parts, job.objects, m.connections, m.shared);
    // Each slice of records in its own task; a newer request (or close) drops the rest.
    const stale = () => slot.closed || slot.inflight !== null || slot.waiting !== null;
    const step = () => {
      if (stale()) return;
      if (more()) return later(step);
      job.reply(answer);
    };
    later(step);
  });

  return {
    channel(): TimelineChannel {
      const slot: Slot = { inflight: null, waiting: null, closed: false };
      return {
        request(objects, scene, time, reply) {
          slot.closed = false;
          const job = { objects, scene, time, reply };
          if (slot.inflight !== null) slot.waiting = job;
          else start(slot, job);
        },
        close() {
          slot.closed = true;
          slot.waiting = null;
        },
      };
    },
  };
}

let shared: TimelineClient | undefined;

/**
 * The page's time-view client, its worker started on first call (the time view opening);
 * undefined where `Worker` is missing (Node: the caller computes in this thread).
 */
export function timelineWorkerClient(): TimelineClient | undefined {
  if (shared) return shared;
  if (typeof Worker !== 'function') return undefined;
  const worker = new Worker(new URL('./timeline.worker.ts', import.meta.url), { type: 'module' });
  shared = createTimelineClient({
    post: (m) => worker.postMessage(m),
    listen: (fn) =>
      worker.addEventListener('message', (e: MessageEvent<FromTimelineWorker>) => fn(e.data)),
  });
  return shared;
}
