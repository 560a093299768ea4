/**
 * The messages between the time view (`timelineClient.ts`) and its own Web Worker
 * (`timeline.worker.ts`, which answers with `timelineHandler.ts`). A worker of its own rather
 * than more messages for the model worker: it starts only when the time view first opens (its
 * chunk is lazy, and so is this worker's script, with `simulate` in it), the model worker's
 * protocol stays as it is, and a 100,000-connection run (seconds at 100 nodes) never queues a
 * toggle's trace behind it.
 *
 * As with the model worker: objects are sent once per array reference, in parts of
 * {@link OBJECTS_PER_PART}, and named by id; a reply's large arrays (the epochs with their
 * cluster states, the base objects) come first in `part` messages, each one main-thread task to
 * decode, then the answer without them, its connection records packed by column.
 */
import type { SceneOptions } from '../model/scenario/scene';
import type { TimeAnswer, TimeInputs } from '../store/timeAnswer';
import type { ArrayPart } from './parts';
import type { ToWorker } from './protocol';
import type { PackedRecords } from './records';

export { OBJECTS_PER_PART } from './protocol';

/** Epochs per part: at 100 nodes / 1,000 Pods an epoch's state is ~0.2 MB, a part ~1 MB. */
export const EPOCHS_PER_PART = 4;

/** Connection records made into objects per main-thread task, once their answer arrived. */
export const RECORDS_PER_TASK = 10_000;

export type ToTimelineWorker =
  /** An object set, or a part of one (as for the model worker). */
  | Extract<ToWorker, { type: 'objects' }>
  | Extract<ToWorker, { type: 'forget' }>
  /** The time view's answer for these objects (by id), scene and inputs. */
  | { type: 'timeline'; req: number; objects: number; scene: SceneOptions; time: TimeInputs };

/**
 * An epoch's state array sent once: `[epoch, key, from]` says `epochs[epoch].state[key]` is
 * `epochs[from].state[key]` (an earlier epoch's; sent empty, shared again on arrival).
 */
export type SharedState = [epoch: number, key: 'nodes' | 'pods' | 'endpoints', from: number];

export type FromTimelineWorker =
  /** A part of a large array of the answer to `req`, sent before it. */
  | { type: 'part'; req: number; part: ArrayPart }
  /**
   * The answer, its large arrays taken out (empty, filled by the parts before it) and its
   * `derived.input.objects` empty too: they are the request's, which the client holds. With
   * `connections`, the timeline's connection records come packed by column (records.ts), its
   * own `connections` left empty; with `shared`, the epochs' repeated state arrays are to be
   * filled from earlier epochs.
   */
  | {
      type: 'timeline';
      req: number;
      answer: TimeAnswer;
      connections?: PackedRecords;
      shared?: SharedState[];
    }
  /** The worker does not hold these objects: send them and ask again. */
  | { type: 'missing'; req: number; objects: number };
