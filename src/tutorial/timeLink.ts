/**
 * Time links: `[Watch node-1 fail](time:events=fail:node-1@60s,restore:node-1@150s&at=90s)` opens
 * the "Time & failures" view with those inputs and the clock at `at`. The part after `time:` is
 * a URL query string whose keys are listed in content/AUTHORING.md ("Time links"); this module
 * reads it into a typed {@link TimeLink}. The events and the durations are read by the model's
 * own parsers (`parseCompactEvents`, `parseDuration` in src/model/time), so a link accepts
 * exactly what the CLI's `timeline --events` accepts. Resolving a link against a scenario is
 * `resolveTimeLink` (./timeResolve.ts).
 */
import {
  COMPACT_ACTIONS,
  CONTROLLER_KINDS,
  HEALTH_CHECK_RANGES,
  VIEW_WORKLOAD_RANGES,
  eventArg,
  formatSimTime,
  parseCompactEvents,
  parseDuration,
} from '../model/time';
import type { ControllerKind, IntRange, SimMs, TimelineEvent } from '../model/time';
import type { SceneLinkError } from './sceneLink';

/** A time link, read but not yet checked against a scenario. Every key is optional. */
export interface TimeLink {
  /** An example file name without `.yaml` (`canonical`, `bare-metal-pending`, …). */
  scenario?: string;
  /** `spec.externalTrafficPolicy` of the Service at t = 0. */
  policy?: 'Cluster' | 'Local';
  /** Who implements `type: LoadBalancer`: the cloud-controller-manager, nothing, or MetalLB layer 2. */
  controller?: ControllerKind;
  /** The scheduled changes, as the model's compact events parser reads them. */
  events?: TimelineEvent[];
  /** Health check: seconds between two probes of a node (GCP `checkIntervalSec`). */
  interval?: number;
  /** Health check: seconds to wait for an answer (GCP `timeoutSec`). */
  timeout?: number;
  /** Health check: successes in a row that put a node back in rotation (`healthyThreshold`). */
  healthy?: number;
  /** Health check: failures in a row that take a node out of rotation (`unhealthyThreshold`). */
  unhealthy?: number;
  /** New connections in the many-connections panel, 1 … 100,000 (`VIEW_WORKLOAD_RANGES.count`). */
  connections?: number;
  /** Where the clock stands, simulated ms from the Service's creation (t = 0). */
  at?: SimMs;
}

/** The keys a time link may use, in the order AUTHORING.md lists them. */
export const TIME_KEYS = [
  'scenario',
  'policy',
  'controller',
  'events',
  'interval',
  'timeout',
  'healthy',
  'unhealthy',
  'connections',
  'at',
] as const satisfies readonly (keyof TimeLink)[];

/** A problem with a time link, naming the key and the value concerned when there is one. */
export type TimeLinkError = SceneLinkError;

/** The result of {@link parseTimeQuery}: the keys that could be read, and every problem. */
export interface ParsedTimeLink {
  link: TimeLink;
  errors: TimeLinkError[];
}

/** The protocol of time links in Markdown. */
export const TIME_PREFIX = 'time:';

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
/** A whole number in [min, max], or a message saying what it must be. */
function wholeNumber({ min, max }: IntRange, unit = '') {
  return (v: string): { ok: number } | string => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    return n >= min && n <= max
      ? { ok: n }
      : `must be a whole number from ${min} to ${max.toLocaleString('en-US')}${unit}`;
  };
}

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Each key's reader: the value, or a message (a string) saying what it must be. The ranges are
 * the time view's own (`HEALTH_CHECK_RANGES`, `VIEW_WORKLOAD_RANGES` in src/model/time/limits.ts:
 * the health checks as Google Cloud's `compute.healthChecks` API accepts them), the same as its
 * forms and its share links.
 */
const READERS: { [K in keyof TimeLink]-?: (v: string) => { ok: TimeLink[K] } | string } = {
  scenario: (v) =>
    NAME.test(v) ? { ok: v } : 'must be an example file name (lower-case letters, digits, - and .)',
  policy: (v) => (v === 'Cluster' || v === 'Local' ? { ok: v } : 'must be Cluster or Local'),
  controller: (v) =>
    (CONTROLLER_KINDS as readonly string[]).includes(v)
      ? { ok: v as ControllerKind }
      : `must be ${CONTROLLER_KINDS.slice(0, -1).join(', ')} or ${CONTROLLER_KINDS.at(-1)}`,
  events: (v) => {
    try {
      const events = parseCompactEvents(v);
      return events.length > 0
        ? { ok: events }
        : 'names no event (write KIND:ARG@TIME, e.g. fail:node-1@60s)';
    } catch (e) {
      return msg(e);
    }
  },
  interval: wholeNumber(HEALTH_CHECK_RANGES.intervalSeconds, ' seconds'),
  timeout: wholeNumber(HEALTH_CHECK_RANGES.timeoutSeconds, ' seconds'),
  healthy: wholeNumber(HEALTH_CHECK_RANGES.healthyThreshold),
  unhealthy: wholeNumber(HEALTH_CHECK_RANGES.unhealthyThreshold),
  connections: wholeNumber(VIEW_WORKLOAD_RANGES.count),
  at: (v) => {
    try {
      return { ok: parseDuration(v) };
    } catch (e) {
      return msg(e);
    }
  },
};

/**
 * Reads a time query (`events=fail:node-1@60s&at=90s`, with or without a leading `time:`) with
 * URLSearchParams. Unknown keys, repeated keys, empty and bad values are reported with the key
 * and the value (`controller=metallb: must be cloud, none or metallb-l2`); the keys that could be
 * read are returned either way. Never throws.
 */
export function parseTimeQuery(query: string): ParsedTimeLink {
  const link: TimeLink = {};
  const errors: TimeLinkError[] = [];
  const text = query.startsWith(TIME_PREFIX) ? query.slice(TIME_PREFIX.length) : query;
  if (text.trim() === '') return { link, errors };
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(text)) {
    const shown = `${key}=${value}`;
    if (!(TIME_KEYS as readonly string[]).includes(key)) {
      errors.push({
        key,
        value,
        message: `${shown}: unknown key "${key}" (keys: ${TIME_KEYS.join(', ')})`,
      });
      continue;
    }
    const k = key as keyof TimeLink;
    if (seen.has(k)) {
      errors.push({ key, value, message: `${shown}: "${key}" is given more than once` });
      continue;
    }
    seen.add(k);
    if (value === '') {
      errors.push({ key, value, message: `${key}= has no value` });
      continue;
    }
    const r = (READERS[k] as (v: string) => { ok: unknown } | string)(value);
    if (typeof r === 'string') errors.push({ key, value, message: `${shown}: ${r}` });
    else (link as Record<string, unknown>)[k] = r.ok;
  }
  return { link, errors };
}

/**
 * One event in the compact form the model's `parseCompactEvents` reads back
 * (`fail:node-1@1m30s`, `scale:4@20s`, `policy:Local@40s`).
 */
export function formatTimeEvent(event: TimelineEvent): string {
  return `${COMPACT_ACTIONS[event.kind]}:${eventArg(event)}@${formatSimTime(event.at)}`;
}

/** Events in the compact form, comma-separated (empty for none). */
export function formatTimeEvents(events: readonly TimelineEvent[]): string {
  return events.map(formatTimeEvent).join(',');
}

/** The link as a query string again, keys in AUTHORING.md's order (for messages and tests). */
export function formatTimeLink(link: TimeLink): string {
  const parts: string[] = [];
  for (const key of TIME_KEYS) {
    const v = link[key];
    if (v === undefined) continue;
    const text =
      key === 'events'
        ? formatTimeEvents(v as TimelineEvent[])
        : key === 'at'
          ? formatSimTime(v as number)
          : String(v);
    parts.push(`${key}=${text}`);
  }
  return parts.join('&');
}
