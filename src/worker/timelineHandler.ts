/**
 * The time view's worker logic, free of `self` so it runs (and is tested) in Node too: holds
 * the object sets the main thread sent and answers a `timeline` request with
 * {@link timeAnswer} (the model's `simulate`, through `store/timelineDerive.ts`), unchanged.
 * {@link timelineOutgoing} cuts the answer into messages whose decoding on the main thread is
 * each a short task.
 */
import { timeAnswer } from '../store/timeAnswer';
import type { TimeAnswer } from '../store/timeAnswer';
import { HeldObjectSets } from './objectSets';
import { splitArrays } from './parts';
import type { ArrayPart } from './parts';
import { packRecords } from './records';
import type { PackedRecords } from './records';
import { EPOCHS_PER_PART } from './timelineProtocol';
import type { FromTimelineWorker, SharedState, ToTimelineWorker } from './timelineProtocol';
import type { Epoch } from '../model/time/types';

/** Object sets held (the main thread forgets the ones it drops; this bounds the rest). */
const OBJECT_SETS = 4;

/** Where the epochs are in an answer (they go in parts of {@link EPOCHS_PER_PART}). */
const EPOCHS_PATH = ['derived', 'timeline', 'epochs'];

/** The arrays of an epoch's cluster state that repeat from epoch to epoch. */
const STATE_ARRAYS = ['nodes', 'pods', 'endpoints'] as const;

/**
 * `epochs` with each state array equal to an earlier epoch's left empty, and where to take it
 * from (`[epoch, key, earlier epoch]`). At 100 nodes a run's ~100 epochs hold ~10 distinct
 * Pod lists of 1,000 (the rotation changes, the Pods do not): 18 MB to decode, where 1 MB
 * does. `epochs` is not changed (the handler's answer is memoised).
 */
export function shareStates(epochs: readonly Epoch[]): {
  epochs: Epoch[];
  shared: SharedState[];
} {
  const shared: SharedState[] = [];
  const first = new Map<string, number>();
  const out = epochs.map((e, i) => {
    let state: Epoch['state'] | undefined;
    for (const key of STATE_ARRAYS) {
      const prev = epochs[i - 1]?.state[key];
      const value = e.state[key];
      let from: number | undefined;
      // The model often keeps the previous epoch's array: no need to compare its text.
      if (prev === value) from = shared.find((x) => x[0] === i - 1 && x[1] === key)?.[2] ?? i - 1;
      else {
        const text = JSON.stringify(value);
        from = first.get(`${key}\n${text}`);
        if (from === undefined) first.set(`${key}\n${text}`, i);
      }
      if (from === undefined) continue;
      shared.push([i, key, from]);
      state ??= { ...e.state };
      state[key] = [];
    }
    return state ? withState(e, state) : e;
  });
  return { epochs: out, shared };
}

/** A shallow copy of `e` with `state` (enumerable keys only: `paths` is rebuilt on arrival). */
function withState(e: Epoch, state: Epoch['state']): Epoch {
  return { ...e, state };
}

/**
 * The messages that carry `reply` to the main thread. For an answer: the epochs in parts of
 * `epochsPerPart` (each holds a whole cluster state), then every other array longer than
 * `size` items in parts (the base objects; the connection records when they cannot be packed),
 * then the answer without them, with its connection records packed by column, and without
 * `derived.input.objects` (the request's own objects, which the client puts back). Anything
 * else as it is. `reply` itself is not changed.
 */
export function timelineOutgoing(
  reply: FromTimelineWorker,
  size?: number,
  epochsPerPart = EPOCHS_PER_PART,
): FromTimelineWorker[] {
  if (reply.type !== 'timeline') return [reply];
  const { answer, req } = reply;
  const d = answer.derived;
  const parts: ArrayPart[] = [];
  let light: TimeAnswer;
  let connections: PackedRecords | null = null;
  let shared: SharedState[] = [];
  if (d.ok) {
    const { epochs, shared: sharedStates } = shareStates(d.timeline.epochs);
    shared = sharedStates;
    for (let i = 0; i < epochs.length; i += epochsPerPart)
      parts.push({ path: EPOCHS_PATH, items: epochs.slice(i, i + epochsPerPart) });
    connections = packRecords(d.timeline.connections);
    light = {
      ...answer,
      derived: {
        ...d,
        timeline: {
          ...d.timeline,
          epochs: [],
          connections: connections ? [] : d.timeline.connections,
        },
        input: { ...d.input, objects: [] },
      },
    };
  } else {
    light = { ...answer, derived: { ...d, input: { ...d.input, objects: [] } } };
  }
  const split = splitArrays(light, size);
  parts.push(...split.parts);
  return [
    ...parts.map((part): FromTimelineWorker => ({ type: 'part', req, part })),
    {
      type: 'timeline',
      req,
      answer: split.value,
      ...(connections ? { connections } : {}),
      ...(shared.length > 0 ? { shared } : {}),
    },
  ];
}

/** One time-view worker's state: the object sets it holds. */
export class TimelineHandler {
  private readonly objects = new HeldObjectSets(OBJECT_SETS);

  /** The reply to `msg`, or undefined for messages that need none. */
  handle(msg: ToTimelineWorker): FromTimelineWorker | undefined {
    switch (msg.type) {
      case 'objects':
        this.objects.receive(msg);
        return undefined;
      case 'forget':
        this.objects.forget(msg.id);
        return undefined;
      case 'timeline': {
        const objects = this.objects.get(msg.objects);
        if (!objects) return { type: 'missing', req: msg.req, objects: msg.objects };
        // timeAnswer never throws: the model's errors come back as values.
        return { type: 'timeline', req: msg.req, answer: timeAnswer(objects, msg.scene, msg.time) };
      }
    }
  }
}
