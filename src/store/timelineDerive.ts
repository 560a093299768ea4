/**
 * The timeline, derived: the model's `simulate` over the scenario and the time view's inputs,
 * memoised on their references (like the trace in `store/derive.ts`), plus the read-only views
 * the panels share (the epoch at a time, the times worth stepping to). Nothing here decides
 * anything the model has not decided.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import { simulate } from '../model/time';
import type {
  Epoch,
  HealthCheckSettings,
  SimMs,
  Timeline,
  TimelineInput,
} from '../model/time/types';
import type { TimeState } from './types';

/** The model's timeline, or the error it threw (bad input must not blank the page). */
export type DerivedTimeline =
  | { ok: true; timeline: Timeline; input: TimelineInput }
  | { ok: false; error: string; input: TimelineInput };

/** The inputs of `simulate` as the store holds them; the workload opens from `startMs`. */
export function timelineInput(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
  time: Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>,
  startMs: SimMs = 0,
): TimelineInput {
  const w = time.workload;
  return {
    objects,
    // The time view is about the balancer: its connections dial the load balancer's address.
    scene:
      scene.dial.kind === 'LoadBalancer' ? scene : { ...scene, dial: { kind: 'LoadBalancer' } },
    events: time.events,
    healthCheck: time.healthCheck,
    provisioning: { controller: time.controller, fromCreation: true },
    workload: {
      count: w.count,
      startMs,
      periodMs: w.periodMs,
      holdMs: w.holdMs,
      ...(w.client !== undefined ? { client: w.client } : {}),
      ...(w.longLivedClient !== undefined
        ? { longLived: [{ client: w.longLivedClient, openedAt: startMs }] }
        : {}),
    },
    seed: w.seed,
  };
}

/**
 * When the Service is ready for the workload, read from a run without connections: the address
 * is published and the balancer's rotation has settled (the last change of rotation before the
 * first scheduled event), rounded up to a whole second. 0 when nothing is ever published.
 */
export function readyAt(timeline: Timeline): SimMs {
  const published = timeline.entries.find((e) => e.kind === 'published')?.at;
  if (published === undefined) return 0;
  const firstEvent = timeline.base.events[0]?.at ?? Infinity;
  let ready = published;
  for (const r of timeline.rotation) if (r.at < firstEvent && r.at > ready) ready = r.at;
  return Math.ceil(ready / 1000) * 1000;
}

/**
 * The run the time view shows: a first pass without connections finds when the Service is
 * ready ({@link readyAt}); the workload (and the long-lived connection) opens from then, so the
 * shares compare like with like. Same inputs, same timeline.
 * @throws whatever `simulate` throws (objects that do not resolve, bad settings).
 */
export function runTimeline(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
  time: Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>,
): { timeline: Timeline; input: TimelineInput } {
  const probe = simulate(
    timelineInput(objects, scene, { ...time, workload: { ...time.workload, count: 0 } }),
  );
  const input = timelineInput(objects, scene, time, readyAt(probe));
  return { timeline: simulate(input), input };
}

/**
 * The health-check settings the model uses for this scenario when the person changed none:
 * its defaults, or what the scenario's CloudLoadBalancer object sets (a run of no length).
 */
export function healthCheckDefaults(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
): HealthCheckSettings {
  return simulate({ objects, scene, events: [], workload: { count: 0 }, horizonMs: 0 }).settings
    .healthCheck;
}

let last: { key: readonly unknown[]; value: DerivedTimeline } | undefined;

/** {@link runTimeline}, computed again only when one of its inputs changed; errors as values. */
export function deriveTimeline(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
  time: Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>,
): DerivedTimeline {
  const key = [objects, scene, time.controller, time.healthCheck, time.events, time.workload];
  if (last && last.key.every((k, i) => k === key[i])) return last.value;
  let value: DerivedTimeline;
  try {
    value = { ok: true, ...runTimeline(objects, scene, time) };
  } catch (e) {
    value = {
      ok: false,
      error: e instanceof Error ? e.message : String(e),
      input: timelineInput(objects, scene, time),
    };
  }
  last = { key, value };
  return value;
}

/** The epoch that holds `at` (the last one for any time at or past the end). */
export function epochAt(timeline: Timeline, at: SimMs): Epoch | undefined {
  const { epochs } = timeline;
  let lo = 0;
  let hi = epochs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((epochs[mid]?.from ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return epochs[lo];
}

/** The distinct times of the timeline's entries, ascending: where ← / → step to. */
export function entryTimes(timeline: Timeline): SimMs[] {
  const out: SimMs[] = [];
  for (const e of timeline.entries) if (out[out.length - 1] !== e.at) out.push(e.at);
  return out;
}

/** The first time in `times` after `at`, or undefined. */
export function nextTime(times: readonly SimMs[], at: SimMs): SimMs | undefined {
  return times.find((t) => t > at);
}

/** The last time in `times` before `at`, or undefined. */
export function prevTime(times: readonly SimMs[], at: SimMs): SimMs | undefined {
  for (let i = times.length - 1; i >= 0; i--) {
    const t = times[i];
    if (t !== undefined && t < at) return t;
  }
  return undefined;
}
