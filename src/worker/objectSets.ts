/**
 * Object sets shared by both workers' protocols (`protocol.ts`: `objects` parts, `forget`,
 * `missing`): a set is sent once and named by an id afterwards, so a toggle or a Send carries a
 * number, not 10,000 Pods.
 *
 * - Main thread: {@link objectSetSender} numbers each objects array (by identity), sends a set
 *   the first time a request needs it, sends `forget` when the array is garbage-collected, and
 *   sends it again after the worker answered `missing` (it dropped the set).
 * - Worker: {@link HeldObjectSets} joins a set's parts and holds the newest few sets.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { ToWorker } from './protocol';

type ObjectsMessage = Extract<ToWorker, { type: 'objects' }>;
type ForgetMessage = Extract<ToWorker, { type: 'forget' }>;

/** The main thread's side: ids for object arrays, and which the worker holds. */
export interface ObjectSetSender {
  /** The id of `objects`, sent to the worker first unless it already holds them. */
  ensure(objects: ScenarioObject[]): number;
  /** The worker said it no longer holds set `id`: the next `ensure` sends it again. */
  lost(id: number): void;
}

/**
 * @param sendObjects sends a whole set (in parts, in order: the outbox's `sendObjects`)
 * @param post sends a `forget` once an array is garbage-collected (where FinalizationRegistry exists)
 */
export function objectSetSender(
  sendObjects: (id: number, objects: ScenarioObject[]) => void,
  post: (m: ForgetMessage) => void,
): ObjectSetSender {
  const ids = new WeakMap<ScenarioObject[], number>();
  const sent = new Set<number>();
  let nextId = 1;
  const forget =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry<number>((id) => {
          sent.delete(id);
          post({ type: 'forget', id });
        })
      : undefined;
  return {
    ensure(objects) {
      let id = ids.get(objects);
      if (id === undefined) {
        id = nextId++;
        ids.set(objects, id);
        forget?.register(objects, id);
      }
      if (!sent.has(id)) {
        sendObjects(id, objects);
        sent.add(id);
      }
      return id;
    },
    lost(id) {
      sent.delete(id);
    },
  };
}

/** The worker's side: the sets it holds (at most `max`, the oldest dropped first). */
export class HeldObjectSets {
  private readonly sets = new Map<number, ScenarioObject[]>();
  /** Sets whose parts are still arriving, by id. */
  private readonly partial = new Map<number, ScenarioObject[]>();

  /**
   * @param max sets held at once
   * @param dropped told each id dropped to make room (not the ones `forget` names)
   */
  constructor(
    private readonly max: number,
    private readonly dropped: (id: number) => void = () => {},
  ) {}

  /** Takes one part of a set; the set is held once its last part arrived. */
  receive(msg: ObjectsMessage): void {
    const soFar = this.partial.get(msg.id) ?? [];
    for (const o of msg.objects) soFar.push(o);
    if (msg.more) {
      this.partial.set(msg.id, soFar);
      return;
    }
    this.partial.delete(msg.id);
    this.sets.delete(msg.id);
    this.sets.set(msg.id, soFar);
    while (this.sets.size > this.max) {
      const oldest = this.sets.keys().next().value as number;
      this.sets.delete(oldest);
      this.dropped(oldest);
    }
  }

  /** Drops set `id` (and any parts of it). */
  forget(id: number): void {
    this.partial.delete(id);
    this.sets.delete(id);
  }

  /** Set `id`, or undefined when it is not held (the main thread is told `missing`). */
  get(id: number): ScenarioObject[] | undefined {
    return this.sets.get(id);
  }
}
