/**
 * The timeline, derived: the model's `simulate` over the scenario and the time view's inputs,
 * memoised on their references (like the trace in `store/derive.ts`), plus the read-only views
 * the panels share (the epoch at a time, the times worth stepping to). Nothing here decides
 * anything the model has not decided.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import { resolveCluster } from '../model/scenario/resolve';
import { namedBy, simulate } from '../model/time';
import type {
  Epoch,
  HealthCheckSettings,
  SimMs,
  Timeline,
  TimelineEvent,
  TimelineInput,
} from '../model/time/types';
import { isIPv4 } from '../model/net/ip';
import type { TimeState } from './types';

/** A scheduled event the run leaves out, and why (it names a node or Pod the scenario lacks). */
export interface SkippedEvent {
  /** Its index in the store's `time.events`. */
  index: number;
  event: TimelineEvent;
  /** e.g. "node-1 is not in this cluster". */
  reason: string;
}

/**
 * The model's timeline, or the error it threw (bad input must not blank the page); either
 * way the events left out of the run and the notices about other inputs that do not apply.
 */
export type DerivedTimeline =
  | {
      ok: true;
      timeline: Timeline;
      input: TimelineInput;
      skipped: SkippedEvent[];
      notices: string[];
    }
  | { ok: false; error: string; input: TimelineInput; skipped: SkippedEvent[]; notices: string[] };

type TimeInputs = Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>;

/**
 * The inputs that apply to this scenario: events naming a node the cluster lacks are left out
 * (and listed), and a workload client the scenario lacks falls back to its Internet client.
 * @throws {ScenarioError} when the objects do not resolve.
 */
export function applicableInputs(
  objects: readonly ScenarioObject[],
  time: TimeInputs,
): { time: TimeInputs; skipped: SkippedEvent[]; notices: string[] } {
  const cluster = resolveCluster(objects);
  const nodes = new Set(cluster.nodes.map((n) => n.name));
  const clients = new Set(cluster.clients.map((c) => c.name));
  const skipped: SkippedEvent[] = [];
  time.events.forEach((event, index) => {
    if ('node' in event && !nodes.has(event.node))
      skipped.push({ index, event, reason: `${event.node} is not in this cluster` });
  });
  const notices: string[] = [];
  let workload = time.workload;
  const known = (c: string | undefined) => c === undefined || isIPv4(c) || clients.has(c);
  if (!known(workload.client)) {
    notices.push(
      `The client “${workload.client ?? ''}” is not in this cluster: the connections come from the scenario’s Internet client.`,
    );
    const { client: _c, ...rest } = workload;
    workload = rest;
  }
  if (!known(workload.longLivedClient)) {
    notices.push(
      `The client “${workload.longLivedClient ?? ''}” is not in this cluster: no long-lived connection is followed.`,
    );
    const { longLivedClient: _l, ...rest } = workload;
    workload = rest;
  }
  const events =
    skipped.length === 0
      ? time.events
      : time.events.filter((_, i) => !skipped.some((x) => x.index === i));
  return {
    time:
      events === time.events && workload === time.workload ? time : { ...time, events, workload },
    skipped,
    notices,
  };
}

/** Kill-pod events naming a Pod that never backs the Service in `timeline`. */
function absentPods(timeline: Timeline, events: readonly TimelineEvent[]): SkippedEvent[] {
  const names = new Set<string>();
  for (const e of timeline.epochs)
    for (const p of e.state.pods) {
      names.add(p.key);
      names.add(p.name);
    }
  const out: SkippedEvent[] = [];
  events.forEach((event, index) => {
    const pod = namedBy(event, 'pod');
    if (pod !== null && !names.has(pod))
      out.push({ index, event, reason: `Pod ${pod} is not in this cluster` });
  });
  return out;
}

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
  time: TimeInputs,
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

/**
 * {@link runTimeline} over the inputs that apply ({@link applicableInputs}; kill-pod events for a
 * Pod that never backs the Service are left out too), computed again only when one of its
 * inputs changed; errors as values. Left-out events keep their place in the store: they are
 * flagged, never deleted, so switching back to a scenario that has the node brings them back.
 */
export function deriveTimeline(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
  time: TimeInputs,
): DerivedTimeline {
  const key = [objects, scene, time.controller, time.healthCheck, time.events, time.workload];
  if (last && last.key.every((k, i) => k === key[i])) return last.value;
  let value: DerivedTimeline;
  let skipped: SkippedEvent[] = [];
  let notices: string[] = [];
  let applied: TimeInputs = time;
  try {
    ({ time: applied, skipped, notices } = applicableInputs(objects, time));
    let run = runTimeline(objects, scene, applied);
    const pods = absentPods(run.timeline, time.events);
    if (pods.length > 0) {
      skipped = [...skipped, ...pods].sort((a, b) => a.index - b.index);
      const drop = new Set(skipped.map((x) => x.index));
      applied = { ...applied, events: time.events.filter((_, i) => !drop.has(i)) };
      run = runTimeline(objects, scene, applied);
    }
    value = { ok: true, ...run, skipped, notices };
  } catch (e) {
    value = {
      ok: false,
      error: e instanceof Error ? e.message : String(e),
      input: timelineInput(objects, scene, applied),
      skipped,
      notices,
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
