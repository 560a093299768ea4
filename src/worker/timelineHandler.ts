/**
 * The time view's worker logic, free of `self` so it runs (and is tested) in Node too: holds
 * the object sets the main thread sent and answers a `timeline` request with
 * {@link timeAnswer} (the model's `simulate`, through `store/timelineDerive.ts`), unchanged.
 * {@link timelineOutgoing} cuts the answer into messages whose decoding on the main thread is
 * each a short task.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import { timeAnswer } from '../store/timeAnswer';
import type { TimeAnswer } from '../store/timeAnswer';
import { splitArrays } from './parts';
import type { ArrayPart } from './parts';
import { EPOCHS_PER_PART } from './timelineProtocol';
import type { FromTimelineWorker, ToTimelineWorker } from './timelineProtocol';

/** Object sets held (the main thread forgets the ones it drops; this bounds the rest). */
const OBJECT_SETS = 4;

/** Where the epochs are in an answer (they go in parts of {@link EPOCHS_PER_PART}). */
const EPOCHS_PATH = ['derived', 'timeline', 'epochs'];

/**
 * The messages that carry `reply` to the main thread. For an answer: the epochs in parts of
 * `epochsPerPart` (each holds a whole cluster state), then every other array longer than
 * `size` items in parts (the connection records, the base objects), then the answer without
 * them, and without `derived.input.objects` (the request's own objects, which the client puts
 * back). Anything else as it is. `reply` itself is not changed.
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
  if (d.ok) {
    const epochs = d.timeline.epochs;
    for (let i = 0; i < epochs.length; i += epochsPerPart)
      parts.push({ path: EPOCHS_PATH, items: epochs.slice(i, i + epochsPerPart) });
    light = {
      ...answer,
      derived: {
        ...d,
        timeline: { ...d.timeline, epochs: [] },
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
    { type: 'timeline', req, answer: split.value },
  ];
}

/** One time-view worker's state: the object sets it holds. */
export class TimelineHandler {
  private readonly objects = new Map<number, ScenarioObject[]>();
  /** Sets whose parts are still arriving, by id. */
  private readonly partial = new Map<number, ScenarioObject[]>();

  /** The reply to `msg`, or undefined for messages that need none. */
  handle(msg: ToTimelineWorker): FromTimelineWorker | undefined {
    switch (msg.type) {
      case 'objects': {
        const soFar = this.partial.get(msg.id) ?? [];
        for (const o of msg.objects) soFar.push(o);
        if (msg.more) {
          this.partial.set(msg.id, soFar);
          return undefined;
        }
        this.partial.delete(msg.id);
        this.objects.delete(msg.id);
        this.objects.set(msg.id, soFar);
        while (this.objects.size > OBJECT_SETS)
          this.objects.delete(this.objects.keys().next().value as number);
        return undefined;
      }
      case 'forget':
        this.partial.delete(msg.id);
        this.objects.delete(msg.id);
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
