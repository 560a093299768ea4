/**
 * The "Time & failures" view's part of a share link (`time`), checked field by field against the
 * time model's own input format: the event kinds and their arguments from
 * src/model/time/registry.ts, the bounds from src/model/time/limits.ts (both import nothing, so
 * the link's validator does not load the time model). A link therefore carries exactly the
 * events the model runs: up to its 1,000, each as the model checks it.
 */
import {
  HEALTH_CHECK_RANGES,
  MAX_EVENTS,
  MAX_SIM_MS,
  VIEW_WORKLOAD_RANGES,
} from '../../model/time/limits';
import {
  CLUSTER_HEALTH_CHECK_TARGETS,
  CONTROLLER_KINDS,
  EVENT_KINDS,
  EVENT_SPECS,
  makeEvent,
} from '../../model/time/registry';
import type { EventArg } from '../../model/time/registry';
import type { ControllerKind, HealthCheckSettings, TimelineEvent } from '../../model/time/types';
import type { TimeWorkload } from '../types';
import { fail, has, integer, isPlainObject, name, oneOf, own, onlyKeys } from './fields';

/**
 * The "Time & failures" view in a link: which view, the inputs of the timeline (controller,
 * scheduled events, the health-check settings the person changed, the connections panel's
 * workload) and the clock. The timeline itself is derived again from these and the scenario.
 */
export interface SharedTime {
  view: 'time';
  controller: ControllerKind;
  /** Sorted by `at` when opened. */
  events: TimelineEvent[];
  /** Only the settings that differ from the model's defaults. */
  healthCheck: Partial<HealthCheckSettings>;
  workload: TimeWorkload;
  /** The virtual clock, simulated ms. */
  simMs: number;
}

/** Why `time.events` is refused when it holds more than the model's {@link MAX_EVENTS}. */
export function tooManyEvents(): string {
  return `time.events has more than ${MAX_EVENTS.toLocaleString('en-US')} entries, the most one run of the time model may hold`;
}

/** One scheduled event, checked as the time model's registry says (src/model/time/registry.ts). */
function eventOf(value: unknown, path: string): TimelineEvent {
  if (!isPlainObject(value)) return fail(`${path} must be an object`);
  const kind = oneOf(own(value, 'kind'), EVENT_KINDS, `${path}.kind`);
  const at = integer(own(value, 'at'), 0, MAX_SIM_MS, `${path}.at`);
  const { field, arg } = EVENT_SPECS[kind];
  onlyKeys(value, ['at', 'kind', field], path);
  const raw = own(value, field);
  const where = `${path}.${field}`;
  const checked =
    arg.type === 'name'
      ? name(raw, where, arg.maxChars)
      : arg.type === 'int'
        ? integer(raw, arg.min, arg.max, where)
        : oneOf(raw, arg.options, where);
  return makeEvent(kind, at, checked as EventArg<typeof kind>) as TimelineEvent;
}

function healthCheckOf(value: unknown): Partial<HealthCheckSettings> {
  const path = 'time.healthCheck';
  if (!isPlainObject(value)) return fail(`${path} must be an object`);
  onlyKeys(
    value,
    [
      'intervalSeconds',
      'timeoutSeconds',
      'healthyThreshold',
      'unhealthyThreshold',
      'clusterTarget',
    ],
    path,
  );
  const out: Partial<HealthCheckSettings> = {};
  for (const k of [
    'intervalSeconds',
    'timeoutSeconds',
    'healthyThreshold',
    'unhealthyThreshold',
  ] as const) {
    const { min, max } = HEALTH_CHECK_RANGES[k];
    if (has(value, k)) out[k] = integer(own(value, k), min, max, `${path}.${k}`);
  }
  if (has(value, 'clusterTarget'))
    out.clusterTarget = oneOf(
      own(value, 'clusterTarget'),
      CLUSTER_HEALTH_CHECK_TARGETS,
      `${path}.clusterTarget`,
    );
  return out;
}

function workloadOf(value: unknown): TimeWorkload {
  const path = 'time.workload';
  if (!isPlainObject(value)) return fail(`${path} must be an object`);
  onlyKeys(value, ['count', 'periodMs', 'holdMs', 'seed', 'client', 'longLivedClient'], path);
  const r = VIEW_WORKLOAD_RANGES;
  const w: TimeWorkload = {
    count: integer(own(value, 'count'), r.count.min, r.count.max, `${path}.count`),
    periodMs: integer(own(value, 'periodMs'), r.periodMs.min, r.periodMs.max, `${path}.periodMs`),
    holdMs: integer(own(value, 'holdMs'), r.holdMs.min, r.holdMs.max, `${path}.holdMs`),
    seed: integer(own(value, 'seed'), r.seed.min, r.seed.max, `${path}.seed`),
  };
  if (has(value, 'client')) w.client = name(own(value, 'client'), `${path}.client`);
  if (has(value, 'longLivedClient'))
    w.longLivedClient = name(own(value, 'longLivedClient'), `${path}.longLivedClient`);
  return w;
}

/**
 * A fresh {@link SharedTime} from `value` (a link's or the saved view's `time`).
 * @throws {Invalid} (./fields.ts) naming the first field that is wrong.
 */
export function timeOf(value: unknown): SharedTime {
  if (!isPlainObject(value)) return fail('time must be an object');
  onlyKeys(value, ['view', 'controller', 'events', 'healthCheck', 'workload', 'simMs'], 'time');
  const events = own(value, 'events');
  if (!Array.isArray(events)) return fail('time.events must be a list');
  if (events.length > MAX_EVENTS) fail(tooManyEvents());
  return {
    view: oneOf(own(value, 'view'), ['time'], 'time.view'),
    controller: oneOf(own(value, 'controller'), CONTROLLER_KINDS, 'time.controller'),
    events: events.map((e, i) => eventOf(e, `time.events[${i}]`)),
    healthCheck: healthCheckOf(own(value, 'healthCheck')),
    workload: workloadOf(own(value, 'workload')),
    simMs: integer(own(value, 'simMs'), 0, MAX_SIM_MS, 'time.simMs'),
  };
}
