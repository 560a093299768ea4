/**
 * Resolving a {@link TimeLink} against a scenario: what the "Time & failures" view opens (the
 * scenario and scene for `openView`, the time view's inputs, where the clock stands), checked
 * against the model — every node and Pod an event names exists, the health-check settings are
 * ones the model accepts, and `at` lies within the run the view shows.
 *
 * "The run the view shows" is defined once, by the time view itself (`runTimeline` in
 * src/ui/timeline/derive.ts: provisioning from the Service's creation, the workload opening when
 * the Service is ready). This module calls it rather than copying it, so the horizon a link is
 * checked against is the one the view clamps its clock to. That file is plain TypeScript (no
 * React, no DOM), so the tutorial's core stays runnable in Node.
 */
import { DEFAULT_SCENE, resolveCluster } from '../model';
import type { ScenarioObject, SceneOptions } from '../model';
import { formatSimTime, namedBy, svcRowAt } from '../model/time';
import type { HealthCheckSettings, SimMs, Timeline, TimelineEvent } from '../model/time/types';
import { SHARE_VERSION } from '../store/share/link';
import type { SharedState } from '../store/share/link';
import { INITIAL_TIME } from '../store/timelineSlice';
import type { TimeState } from '../store/types';
import { epochAt, healthCheckDefaults, runTimeline } from '../store/timelineDerive';
import type { ResolveOptions } from './sceneResolve';
import type { TimeLink, TimeLinkError } from './timeLink';
import { formatTimeEvent, formatTimeEvents, parseTimeQuery } from './timeLink';
import { CANONICAL_SCENARIO, loadNamedScenario, sceneForScenario } from './scenario';

/** The time view's inputs as the store holds them (`time` in src/store/types.ts). */
export type TimeInputs = Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>;

/** What a time link opens. */
export interface TimeOpen {
  /** The scenario and scene the time view simulates, for `openView` (before the first step). */
  view: SharedState;
  /** The time view's inputs; unset keys take the view's initial values (`INITIAL_TIME`). */
  time: TimeInputs;
  /** Where the clock stands, simulated ms from the Service's creation. */
  simMs: SimMs;
}

/** A time link resolved. */
export interface ResolvedTime {
  /** The scenario's name (`canonical` when the link names none). */
  scenario: string;
  open: TimeOpen;
  /** The scenario's objects. */
  objects: readonly ScenarioObject[];
  /**
   * The run the view shows for these inputs, computed without the many-connections workload
   * (connections change neither the horizon nor the probes, the rotation or the control plane).
   */
  timeline: Timeline;
  /** The end of the run, simulated ms (the view's `data-horizon`). */
  horizonMs: SimMs;
}

/** Either the resolved link or every problem found. */
export type ResolveTimeResult =
  { ok: true; time: ResolvedTime } | { ok: false; errors: TimeLinkError[] };

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Resolves `link`: the scenario (`scenario=`, else canonical) and its own scene (DEFAULT_SCENE
 * for the canonical scenario, as scene links do) with `policy` on top; the time view's inputs
 * (controller, health-check overrides, events, the workload with `connections`); then the view's
 * run. Problems, each with its key and value: an event naming a node that is not in the
 * scenario, or a Pod that does not back the Service at the event's time; a health-check timeout
 * longer than the interval (the model refuses it); `at` beyond the end of the run; anything else
 * the model refuses. Never throws.
 */
export function resolveTimeLink(link: TimeLink, options: ResolveOptions = {}): ResolveTimeResult {
  const errors: TimeLinkError[] = [];
  const bad = (key: keyof TimeLink, value: string, message: string) =>
    errors.push({ key, value, message: `${key}=${value}: ${message}` });
  const name = link.scenario ?? CANONICAL_SCENARIO;
  const canonical = name === CANONICAL_SCENARIO;
  let objects: readonly ScenarioObject[];
  let scene: SceneOptions;
  let nodes: string[];
  try {
    objects = loadNamedScenario(name, options.loadScenario);
  } catch (e) {
    bad('scenario', name, msg(e));
    return { ok: false, errors };
  }
  try {
    nodes = resolveCluster([...objects]).nodes.map((n) => n.name);
    scene = canonical ? { ...DEFAULT_SCENE } : sceneForScenario(objects);
  } catch (e) {
    bad('scenario', name, `the model cannot read it: ${msg(e)}`);
    return { ok: false, errors };
  }
  if (link.policy) scene.externalTrafficPolicy = link.policy;

  const events = [...(link.events ?? [])]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
  for (const e of events)
    if ('node' in e && !nodes.includes(e.node))
      errors.push({
        key: 'events',
        value: formatTimeEvent(e),
        message: `events: ${formatTimeEvent(e)}: no node "${e.node}" in the scenario (nodes: ${nodes.join(', ')})`,
      });

  let defaults: HealthCheckSettings;
  try {
    defaults = healthCheckDefaults(objects, scene);
  } catch (e) {
    bad('scenario', name, `the model cannot simulate it: ${msg(e)}`);
    return { ok: false, errors };
  }
  const healthCheck: Partial<HealthCheckSettings> = {
    ...(link.interval !== undefined ? { intervalSeconds: link.interval } : {}),
    ...(link.timeout !== undefined ? { timeoutSeconds: link.timeout } : {}),
    ...(link.healthy !== undefined ? { healthyThreshold: link.healthy } : {}),
    ...(link.unhealthy !== undefined ? { unhealthyThreshold: link.unhealthy } : {}),
  };
  const interval = healthCheck.intervalSeconds ?? defaults.intervalSeconds;
  const timeout = healthCheck.timeoutSeconds ?? defaults.timeoutSeconds;
  // The model (resolveSettings) and Google Cloud's API both refuse a timeout over the interval.
  if (timeout > interval) {
    const key = link.timeout !== undefined ? 'timeout' : 'interval';
    bad(
      key,
      String(link[key]),
      `the timeout (${timeout} s) must not be longer than the interval (${interval} s)`,
    );
  }
  if (errors.length > 0) return { ok: false, errors };

  const time: TimeInputs = {
    controller: link.controller ?? INITIAL_TIME.controller,
    healthCheck,
    events,
    workload: {
      ...INITIAL_TIME.workload,
      count: link.connections ?? INITIAL_TIME.workload.count,
    },
  };
  let timeline: Timeline;
  try {
    timeline = runTimeline(objects, scene, {
      ...time,
      workload: { ...time.workload, count: 0 },
    }).timeline;
  } catch (e) {
    errors.push({ message: `the model cannot simulate this: ${msg(e)}` });
    return { ok: false, errors };
  }
  for (const e of events) {
    const pod = namedBy(e, 'pod');
    if (pod !== null) checkPod(timeline, e, pod, errors);
  }
  const horizonMs = timeline.settings.horizonMs;
  const at = link.at ?? 0;
  if (at > horizonMs)
    bad(
      'at',
      formatSimTime(at),
      `beyond the end of the run (${formatSimTime(horizonMs)}); use at most ${formatSimTime(horizonMs)}`,
    );
  if (errors.length > 0) return { ok: false, errors };
  const view: SharedState = {
    v: SHARE_VERSION,
    ...(canonical ? {} : { objects: [...objects] }),
    scene: structuredClone(scene),
    step: -1,
    story: null,
  };
  return {
    ok: true,
    time: {
      scenario: name,
      open: { view, time, simMs: at },
      objects,
      timeline,
      horizonMs,
    },
  };
}

/**
 * An event naming a Pod (`kill`) must name one that backs the Service at that time (by name or
 * namespace/name).
 */
function checkPod(
  timeline: Timeline,
  e: TimelineEvent,
  pod: string,
  errors: TimeLinkError[],
): void {
  const known = new Set<string>();
  for (const ep of timeline.epochs)
    if (ep.from <= e.at) for (const p of ep.state.pods) known.add(p.name);
  const exists = timeline.epochs.some(
    (ep) => ep.from <= e.at && ep.state.pods.some((p) => p.name === pod || p.key === pod),
  );
  if (!exists)
    errors.push({
      key: 'events',
      value: formatTimeEvent(e),
      message: `events: ${formatTimeEvent(e)}: no Pod "${pod}" backs ${timeline.service} by then (Pods: ${[...known].join(', ') || 'none'})`,
    });
}

/** {@link parseTimeQuery} then {@link resolveTimeLink}; the parse errors stop it. */
export function resolveTimeQuery(query: string, options: ResolveOptions = {}): ResolveTimeResult {
  const parsed = parseTimeQuery(query);
  if (parsed.errors.length > 0) return { ok: false, errors: parsed.errors };
  return resolveTimeLink(parsed.link, options);
}

/**
 * Two lines for people (the check script): the inputs, then what the model shows at `at` —
 * `kubectl get svc`'s EXTERNAL-IP, the nodes in the balancer's rotation (MetalLB: the
 * announcing node) and the nodes that are down.
 */
export function describeTime(resolved: ResolvedTime): string[] {
  const { open, timeline } = resolved;
  const hc = timeline.settings.healthCheck;
  const events = formatTimeEvents(open.time.events);
  const inputs = [
    `scenario ${resolved.scenario}`,
    open.view.scene.externalTrafficPolicy,
    `controller ${open.time.controller}`,
    events ? `events ${events}` : 'no events',
    `health check every ${hc.intervalSeconds} s, timeout ${hc.timeoutSeconds} s, healthy ${hc.healthyThreshold}, unhealthy ${hc.unhealthyThreshold}`,
    `${open.time.workload.count} connections`,
  ].join(', ');
  const at = open.simMs;
  const epoch = epochAt(timeline, at);
  const row = svcRowAt(timeline, at);
  const state = [
    `EXTERNAL-IP ${row['EXTERNAL-IP']}`,
    `in rotation: ${epoch?.inRotation.join(', ') || 'none'}`,
    `down: ${epoch?.failedNodes.join(', ') || 'none'}`,
  ].join('; ');
  return [inputs, `at ${formatSimTime(at)} of ${formatSimTime(resolved.horizonMs)}: ${state}`];
}
