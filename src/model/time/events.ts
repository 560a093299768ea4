/**
 * The events format, shared by the CLI (`timeline --events`) and the view.
 *
 * Compact form, comma-separated `KIND:ARG@TIME`:
 *   `fail:node-1@10s,restore:node-1@90s,drain:node-2@30s,uncordon:node-2@2m,kill:web-6d8f9c7b5-x2k4p@5s,scale:4@20s,policy:Local@40s`
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
 * Times are durations (`12s`, `1m30s`, `250ms`) or numbers of milliseconds.
 */
import { parse as parseYaml } from 'yaml';
import { parseDuration } from './duration';
import type { SimMs, TimelineEvent, TimelineInput } from './types';

const COMPACT_KINDS: Record<string, TimelineEvent['kind']> = {
  fail: 'fail-node',
  restore: 'restore-node',
  drain: 'drain-node',
  uncordon: 'uncordon-node',
  kill: 'kill-pod',
  scale: 'scale',
  policy: 'set-policy',
};

const KINDS: readonly TimelineEvent['kind'][] = [
  'fail-node',
  'restore-node',
  'drain-node',
  'uncordon-node',
  'kill-pod',
  'scale',
  'set-policy',
];

/** A time: a duration string or a number of milliseconds. @throws {Error} otherwise. */
export function toMs(v: unknown, what: string): SimMs {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return Math.round(v);
  if (typeof v === 'string') {
    try {
      return parseDuration(v);
    } catch (e) {
      throw new Error(`${what}: ${(e as Error).message}`, { cause: e });
    }
  }
  throw new Error(`${what}: expected a duration such as 10s or a number of milliseconds`);
}

/** Builds one event from its kind, argument and time. @throws {Error} naming what is wrong. */
function makeEvent(
  kind: TimelineEvent['kind'],
  arg: unknown,
  at: SimMs,
  where: string,
): TimelineEvent {
  const str = (name: string): string => {
    if (typeof arg !== 'string' || arg.trim() === '')
      throw new Error(`${where}: ${kind} needs ${name}`);
    return arg.trim();
  };
  switch (kind) {
    case 'fail-node':
    case 'restore-node':
    case 'drain-node':
    case 'uncordon-node':
      return { at, kind, node: str('a node name') };
    case 'kill-pod':
      return { at, kind, pod: str('a Pod name') };
    case 'scale': {
      const n = typeof arg === 'string' ? Number(arg) : arg;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 100)
        throw new Error(`${where}: scale needs a replica count from 0 to 100`);
      return { at, kind, replicas: n };
    }
    case 'set-policy': {
      const p = str('a policy');
      if (p !== 'Cluster' && p !== 'Local')
        throw new Error(`${where}: policy must be Cluster or Local, not "${p}"`);
      return { at, kind, policy: p };
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
      if (!m)
        throw new Error(
          `"${item}": write KIND:ARG@TIME, e.g. fail:node-1@10s (kinds: ${Object.keys(COMPACT_KINDS).join(', ')})`,
        );
      const kind = COMPACT_KINDS[m[1] ?? ''];
      if (!kind)
        throw new Error(
          `"${item}": unknown kind "${m[1] ?? ''}" (kinds: ${Object.keys(COMPACT_KINDS).join(', ')})`,
        );
      const at = toMs(m[3] ?? '', `"${item}"`);
      return makeEvent(kind, m[2], at, `"${item}"`);
    });
}

function eventFromObject(o: unknown, i: number): TimelineEvent {
  const where = `events[${i}]`;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new Error(`${where}: expected an object with at and kind`);
  const r = o as Record<string, unknown>;
  const kindRaw = r['kind'];
  const kind =
    typeof kindRaw === 'string'
      ? (KINDS.find((k) => k === kindRaw) ?? COMPACT_KINDS[kindRaw])
      : undefined;
  if (!kind) throw new Error(`${where}.kind: must be one of ${KINDS.join(', ')}`);
  const at = toMs(r['at'], `${where}.at`);
  const arg =
    kind === 'kill-pod'
      ? r['pod']
      : kind === 'scale'
        ? r['replicas']
        : kind === 'set-policy'
          ? r['policy']
          : r['node'];
  return makeEvent(kind, arg, at, where);
}

/** The parts of a {@link TimelineInput} an events file can carry. */
export type TimelineSpec = Pick<
  TimelineInput,
  'events' | 'healthCheck' | 'provisioning' | 'controlPlane' | 'workload' | 'seed' | 'horizonMs'
>;

function msFields(
  o: unknown,
  names: Record<string, string>,
  where: string,
): Record<string, unknown> {
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new Error(`${where}: expected an object`);
  const out: Record<string, unknown> = { ...(o as Record<string, unknown>) };
  for (const [short, long] of Object.entries(names)) {
    const v = out[short];
    if (v !== undefined) {
      out[long] = toMs(v, `${where}.${short}`);
      delete out[short];
    }
  }
  return out;
}

/**
 * Parses an events file or string: the compact form, or YAML/JSON (a list, or an object
 * with `events` and settings). In `workload`, `start`/`period`/`hold` take durations
 * (or use `startMs`/`periodMs`/`holdMs` in ms); `horizon` likewise.
 * @throws {Error} naming the bad entry.
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
    throw new Error(`not YAML/JSON nor the compact form: ${(e as Error).message}`, { cause: e });
  }
  if (Array.isArray(doc)) return { events: doc.map(eventFromObject) };
  if (typeof doc !== 'object' || doc === null)
    throw new Error('expected a list of events or an object with "events"');
  const r = doc as Record<string, unknown>;
  const known = [
    'events',
    'healthCheck',
    'provisioning',
    'controlPlane',
    'workload',
    'seed',
    'horizon',
    'horizonMs',
  ];
  for (const k of Object.keys(r))
    if (!known.includes(k)) throw new Error(`unknown field "${k}" (fields: ${known.join(', ')})`);
  const events = r['events'] ?? [];
  if (!Array.isArray(events)) throw new Error('events: expected a list');
  const spec: TimelineSpec = { events: events.map(eventFromObject) };
  if (r['healthCheck'] !== undefined)
    spec.healthCheck = msFields(r['healthCheck'], {}, 'healthCheck') as NonNullable<
      TimelineSpec['healthCheck']
    >;
  if (r['provisioning'] !== undefined)
    spec.provisioning = msFields(
      r['provisioning'],
      {
        informerDelay: 'informerDelayMs',
        provisionDelay: 'provisionDelayMs',
        registerDelay: 'registerDelayMs',
      },
      'provisioning',
    ) as NonNullable<TimelineSpec['provisioning']>;
  if (r['controlPlane'] !== undefined)
    spec.controlPlane = msFields(
      r['controlPlane'],
      {
        endpointPropagation: 'endpointPropagationMs',
        readinessDelay: 'readinessDelayMs',
        appExitAfterSigterm: 'appExitAfterSigtermMs',
      },
      'controlPlane',
    ) as NonNullable<TimelineSpec['controlPlane']>;
  if (r['workload'] !== undefined) {
    const w = msFields(
      r['workload'],
      { start: 'startMs', period: 'periodMs', hold: 'holdMs' },
      'workload',
    );
    const long = w['longLived'];
    if (long !== undefined) {
      if (!Array.isArray(long)) throw new Error('workload.longLived: expected a list');
      w['longLived'] = long.map((l, i) => {
        const o = msFields(l, {}, `workload.longLived[${i}]`);
        if (typeof o['client'] !== 'string')
          throw new Error(
            `workload.longLived[${i}].client: expected a Client name or an IPv4 address`,
          );
        o['openedAt'] = toMs(o['openedAt'], `workload.longLived[${i}].openedAt`);
        if (o['closesAt'] !== undefined)
          o['closesAt'] = toMs(o['closesAt'], `workload.longLived[${i}].closesAt`);
        return o;
      });
    }
    spec.workload = w as NonNullable<TimelineSpec['workload']>;
  }
  if (r['seed'] !== undefined) {
    const s = r['seed'];
    if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0)
      throw new Error('seed: expected a whole number');
    spec.seed = s;
  }
  const horizon = r['horizon'] ?? r['horizonMs'];
  if (horizon !== undefined) spec.horizonMs = toMs(horizon, 'horizon');
  return spec;
}

/** Parses the events only (see {@link parseTimelineSpec}). @throws {Error} naming the bad entry. */
export function parseEvents(text: string): TimelineEvent[] {
  return parseTimelineSpec(text).events as TimelineEvent[];
}
