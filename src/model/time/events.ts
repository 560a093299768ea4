/**
 * The events format, shared by the CLI (`timeline --events`) and the view.
 *
 * Compact form, comma-separated `ACTION:TARGET@TIME`:
 *   `fail:node-1@10s,restore:node-1@90s,drain:node-2@30s,uncordon:node-2@2m,scaledown:node-3@1m,kill:web-6d8f9c7b5-x2k4p@5s,scale:4@20s,policy:Local@40s`
 *
 * YAML or JSON: a list of events, or an object with `events:` and optional settings
 * (`healthCheck`, `provisioning`, `controlPlane`, `workload`, `horizon`, `seed`), e.g.
 *
 * ```yaml
 * healthCheck: { intervalSeconds: 5, timeoutSeconds: 2, healthyThreshold: 2, unhealthyThreshold: 2 }
 * workload: { count: 600, start: 0s, period: 60s, hold: 30s }
 * events:
 *   - { at: 12s, kind: fail-node, node: node-1 }
 *   - { at: 90s, kind: restore-node, node: node-1 }
 * ```
 *
 * Times are durations (`12s`, `1m30s`, `250ms`) or numbers of milliseconds, at most 24 h
 * ({@link MAX_SIM_MS}). Parsing is strict: an unknown field, a number written as a string
 * (`intervalSeconds: "8"`) or a time past 24 h is an error that names the field's path.
 */
import { parse as parseYaml } from 'yaml';
import { parseDuration } from './duration';
import { MAX_SIM_MS } from './limits';
import {
  CLUSTER_HEALTH_CHECK_TARGETS,
  CONTROLLER_KINDS,
  EVENT_KINDS,
  EVENT_SPECS,
  makeEvent as eventOf,
} from './registry';
import { ARG_NOUNS, EVENT_ACTIONS, argProblem, isEventKind, kindOfAction } from './eventArgs';
import type { EventArg, EventKind } from './registry';
import type { SimMs, TimelineEvent, TimelineInput } from './types';

/** The compact form's grammar, for messages. */
const COMPACT_HINT = `expected ACTION:TARGET@TIME, e.g. fail:node-1@10s (actions: ${EVENT_ACTIONS.join(', ')})`;

/**
 * A time: a duration string or a number of milliseconds, from 0 to {@link MAX_SIM_MS}.
 * @throws {Error} naming `what` otherwise.
 */
export function toMs(v: unknown, what: string): SimMs {
  let ms: number;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0)
      throw new Error(`${what}: expected a duration ≥ 0 such as 10s, not ${v}`);
    ms = Math.round(v);
  } else if (typeof v === 'string') {
    try {
      ms = parseDuration(v);
    } catch (e) {
      throw new Error(`${what}: ${(e as Error).message}`, { cause: e });
    }
  } else throw new Error(`${what}: expected a duration such as 10s or a number of milliseconds`);
  if (ms > MAX_SIM_MS)
    throw new Error(
      `${what}: ${typeof v === 'string' ? v : `${ms} ms`} is past 24h, the longest run the model simulates`,
    );
  return ms;
}

/**
 * Builds one event from its kind, argument and time, checking the argument as the registry
 * says (./registry.ts). A replica count may be written as digits (the compact form).
 * @throws {Error} naming what is wrong.
 */
function makeEvent(kind: EventKind, arg: unknown, at: SimMs, where: string): TimelineEvent {
  const { field, arg: spec } = EVENT_SPECS[kind];
  const needs = `${where}: ${kind} needs ${ARG_NOUNS[field]}`;
  switch (spec.type) {
    case 'name': {
      if (typeof arg !== 'string' || arg.trim() === '') throw new Error(needs);
      const name = arg.trim();
      const problem = argProblem(EVENT_SPECS[kind], name);
      if (problem) throw new Error(`${where}: ${kind} ${field} ${problem}`);
      return eventOf(kind, at, name as EventArg<typeof kind>) as TimelineEvent;
    }
    case 'int': {
      const n = typeof arg === 'string' && /^\d+$/.test(arg.trim()) ? Number(arg) : arg;
      if (argProblem(EVENT_SPECS[kind], n) !== null)
        throw new Error(`${needs} from ${spec.min} to ${spec.max}`);
      return eventOf(kind, at, n as EventArg<typeof kind>) as TimelineEvent;
    }
    case 'oneOf': {
      if (typeof arg !== 'string' || arg.trim() === '') throw new Error(needs);
      const p = arg.trim();
      if (!(spec.options as readonly string[]).includes(p))
        throw new Error(`${where}: ${field} must be ${spec.options.join(' or ')}, not "${p}"`);
      return eventOf(kind, at, p as EventArg<typeof kind>) as TimelineEvent;
    }
  }
}

/** Parses the compact form. @throws {Error} naming the bad entry. */
export function parseCompactEvents(text: string): TimelineEvent[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((item) => {
      const m = /^([a-z]+):([^@]+)@(.+)$/.exec(item);
      if (!m) throw new Error(`"${item}": ${COMPACT_HINT}`);
      const kind = kindOfAction(m[1] ?? '');
      if (!kind)
        throw new Error(
          `"${item}": unknown kind "${m[1] ?? ''}" (actions: ${EVENT_ACTIONS.join(', ')})`,
        );
      const at = toMs(m[3] ?? '', `"${item}"`);
      return makeEvent(kind, m[2], at, `"${item}"`);
    });
}

function isObject(o: unknown): o is Record<string, unknown> {
  return typeof o === 'object' && o !== null && !Array.isArray(o);
}

/** Rejects keys outside `allowed`. */
function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      throw new Error(`${where}: unknown field "${k}" (fields: ${allowed.join(', ')})`);
}

/** A number field (never a string holding one). */
function num(v: unknown, where: string): number {
  if (typeof v === 'string')
    throw new Error(`${where}: expected a number, not the string "${v}" (write it without quotes)`);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${where}: expected a number`);
  return v;
}

function str(v: unknown, where: string): string {
  if (typeof v !== 'string' || v === '') throw new Error(`${where}: expected a non-empty string`);
  return v;
}

function bool(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') throw new Error(`${where}: expected true or false`);
  return v;
}

/** How one settings field is read: a number, a duration (ms), a string, a boolean or one of some words. */
type FieldKind = 'number' | 'duration' | 'string' | 'boolean' | readonly string[];

/**
 * Reads a settings object field by field: `fields` maps each accepted key to its kind and
 * the key it is stored under (durations written `start` become `startMs`).
 */
function readFields(
  o: unknown,
  fields: Record<string, { kind: FieldKind; as?: string }>,
  where: string,
): Record<string, unknown> {
  if (!isObject(o)) throw new Error(`${where}: expected an object`);
  onlyKeys(o, Object.keys(fields), where);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const f = fields[k];
    if (!f || v === undefined) continue;
    const path = `${where}.${k}`;
    const key = f.as ?? k;
    if (key in out) throw new Error(`${path}: given twice (as ${k} and as ${key})`);
    if (f.kind === 'number') out[key] = num(v, path);
    else if (f.kind === 'duration') out[key] = toMs(v, path);
    else if (f.kind === 'string') out[key] = str(v, path);
    else if (f.kind === 'boolean') out[key] = bool(v, path);
    else {
      if (typeof v !== 'string' || !f.kind.includes(v))
        throw new Error(`${path}: must be one of ${f.kind.join(', ')}`);
      out[key] = v;
    }
  }
  return out;
}

function eventFromObject(o: unknown, i: number): TimelineEvent {
  const where = `events[${i}]`;
  if (!isObject(o)) throw new Error(`${where}: expected an object with at and kind`);
  const kindRaw = o['kind'];
  const kind =
    typeof kindRaw === 'string'
      ? isEventKind(kindRaw)
        ? kindRaw
        : kindOfAction(kindRaw)
      : undefined;
  if (!kind) throw new Error(`${where}.kind: must be one of ${EVENT_KINDS.join(', ')}`);
  const argKey = EVENT_SPECS[kind].field;
  onlyKeys(o, ['at', 'kind', argKey], where);
  const at = toMs(o['at'], `${where}.at`);
  const arg = o[argKey];
  if (EVENT_SPECS[kind].arg.type === 'int' && typeof arg === 'string')
    throw new Error(
      `${where}.${argKey}: expected a number, not the string "${arg}" (write it without quotes)`,
    );
  return makeEvent(kind, arg, at, where);
}

/** The parts of a {@link TimelineInput} an events file can carry. */
export type TimelineSpec = Pick<
  TimelineInput,
  'events' | 'healthCheck' | 'provisioning' | 'controlPlane' | 'workload' | 'seed' | 'horizonMs'
>;

const HEALTH_CHECK_FIELDS = {
  intervalSeconds: { kind: 'number' },
  timeoutSeconds: { kind: 'number' },
  healthyThreshold: { kind: 'number' },
  unhealthyThreshold: { kind: 'number' },
  clusterTarget: { kind: CLUSTER_HEALTH_CHECK_TARGETS },
} as const;

const PROVISIONING_FIELDS = {
  controller: { kind: CONTROLLER_KINDS },
  fromCreation: { kind: 'boolean' },
  informerDelay: { kind: 'duration', as: 'informerDelayMs' },
  informerDelayMs: { kind: 'duration' },
  provisionDelay: { kind: 'duration', as: 'provisionDelayMs' },
  provisionDelayMs: { kind: 'duration' },
  registerDelay: { kind: 'duration', as: 'registerDelayMs' },
  registerDelayMs: { kind: 'duration' },
} as const;

const METALLB_FIELDS = {
  poolName: { kind: 'string' },
  poolRange: { kind: 'string' },
  failoverDetect: { kind: 'duration', as: 'failoverDetectMs' },
  failoverDetectMs: { kind: 'duration' },
  ignoreExcludeLb: { kind: 'boolean' },
} as const;

const CONTROL_PLANE_FIELDS = {
  nodeMonitorGracePeriodSeconds: { kind: 'number' },
  unreachableTolerationSeconds: { kind: 'number' },
  terminationGracePeriodSeconds: { kind: 'number' },
  endpointPropagation: { kind: 'duration', as: 'endpointPropagationMs' },
  endpointPropagationMs: { kind: 'duration' },
  readinessDelay: { kind: 'duration', as: 'readinessDelayMs' },
  readinessDelayMs: { kind: 'duration' },
  appExitAfterSigterm: { kind: 'duration', as: 'appExitAfterSigtermMs' },
  appExitAfterSigtermMs: { kind: 'duration' },
} as const;

const WORKLOAD_FIELDS = {
  count: { kind: 'number' },
  start: { kind: 'duration', as: 'startMs' },
  startMs: { kind: 'duration' },
  period: { kind: 'duration', as: 'periodMs' },
  periodMs: { kind: 'duration' },
  hold: { kind: 'duration', as: 'holdMs' },
  holdMs: { kind: 'duration' },
  client: { kind: 'string' },
} as const;

const LONG_LIVED_FIELDS = {
  client: { kind: 'string' },
  openedAt: { kind: 'duration' },
  closesAt: { kind: 'duration' },
} as const;

const TOP_FIELDS = [
  'events',
  'healthCheck',
  'provisioning',
  'controlPlane',
  'workload',
  'seed',
  'horizon',
  'horizonMs',
];

/**
 * Parses an events file or string: the compact form, or YAML/JSON (a list, or an object
 * with `events` and settings). In `workload`, `start`/`period`/`hold` take durations
 * (or use `startMs`/`periodMs`/`holdMs`); `horizon` likewise.
 * @throws {Error} naming the bad entry and its field path.
 */
export function parseTimelineSpec(text: string): TimelineSpec {
  const t = text.trim();
  if (t === '') return { events: [] };
  if (/^[a-z]+:[^@\s]+@\S+(\s*,\s*[a-z]+:[^@\s]+@\S+)*$/.test(t) && !t.includes('\n'))
    return { events: parseCompactEvents(t) };
  let doc: unknown;
  try {
    doc = parseYaml(t);
  } catch (e) {
    // A one-liner that is not YAML is meant as the compact form: say what that expects.
    if (!t.includes('\n') && /^[a-z]+:/.test(t)) return { events: parseCompactEvents(t) };
    throw new Error(`not YAML/JSON nor the compact form: ${(e as Error).message}`, { cause: e });
  }
  // A plain word such as `fail:node-1` (no @TIME) is a YAML string: read it as the compact form.
  if (typeof doc === 'string') return { events: parseCompactEvents(doc) };
  if (Array.isArray(doc)) return { events: doc.map(eventFromObject) };
  if (!isObject(doc))
    throw new Error(`expected a list of events, an object with "events", or ${COMPACT_HINT}`);
  const r = doc;
  onlyKeys(r, TOP_FIELDS, 'the events file');
  const events = r['events'] ?? [];
  if (!Array.isArray(events)) throw new Error('events: expected a list');
  const spec: TimelineSpec = { events: events.map(eventFromObject) };
  if (r['healthCheck'] !== undefined)
    spec.healthCheck = readFields(
      r['healthCheck'],
      HEALTH_CHECK_FIELDS,
      'healthCheck',
    ) as NonNullable<TimelineSpec['healthCheck']>;
  if (r['provisioning'] !== undefined) {
    const raw = r['provisioning'];
    const { metallb, ...rest } = isObject(raw) ? raw : { metallb: undefined };
    const p = readFields(isObject(raw) ? rest : raw, PROVISIONING_FIELDS, 'provisioning');
    if (metallb !== undefined)
      p['metallb'] = readFields(metallb, METALLB_FIELDS, 'provisioning.metallb');
    spec.provisioning = p as NonNullable<TimelineSpec['provisioning']>;
  }
  if (r['controlPlane'] !== undefined)
    spec.controlPlane = readFields(
      r['controlPlane'],
      CONTROL_PLANE_FIELDS,
      'controlPlane',
    ) as NonNullable<TimelineSpec['controlPlane']>;
  if (r['workload'] !== undefined) {
    const raw = r['workload'];
    const { longLived, ...rest } = isObject(raw) ? raw : { longLived: undefined };
    const w = readFields(isObject(raw) ? rest : raw, WORKLOAD_FIELDS, 'workload');
    if (longLived !== undefined) {
      if (!Array.isArray(longLived)) throw new Error('workload.longLived: expected a list');
      w['longLived'] = longLived.map((l, i) => {
        const where = `workload.longLived[${i}]`;
        const o = readFields(l, LONG_LIVED_FIELDS, where);
        if (o['client'] === undefined)
          throw new Error(`${where}.client: expected a Client name or an IPv4 address`);
        if (o['openedAt'] === undefined)
          throw new Error(`${where}.openedAt: expected a duration such as 5s`);
        return o;
      });
    }
    spec.workload = w as NonNullable<TimelineSpec['workload']>;
  }
  if (r['seed'] !== undefined) {
    const s = num(r['seed'], 'seed');
    if (!Number.isSafeInteger(s) || s < 0) throw new Error('seed: expected a whole number ≥ 0');
    spec.seed = s;
  }
  if (r['horizon'] !== undefined && r['horizonMs'] !== undefined)
    throw new Error('horizon: given twice (as horizon and as horizonMs)');
  const horizon = r['horizon'] ?? r['horizonMs'];
  if (horizon !== undefined)
    spec.horizonMs = toMs(horizon, r['horizon'] !== undefined ? 'horizon' : 'horizonMs');
  return spec;
}

/** Parses the events only (see {@link parseTimelineSpec}). @throws {Error} naming the bad entry. */
export function parseEvents(text: string): TimelineEvent[] {
  return parseTimelineSpec(text).events as TimelineEvent[];
}
