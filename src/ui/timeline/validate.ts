/**
 * Checks what a person typed into the time view's forms. Every check returns either the value
 * or a message that names the field, what is allowed and what was typed; the field keeps the
 * text, so nothing typed is lost.
 */
import { HEALTH_CHECK_RANGES } from '../../model/time/limits';
import type { HealthCheckSettings } from '../../model/time/types';

/** A checked field: its value, or a message for the person. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

interface IntRule {
  /** The field's name as the label shows it. */
  name: string;
  min: number;
  max: number;
  /** The unit after the number in the message: `seconds`. */
  unit?: string;
}

/**
 * A whole number in [min, max]. Accepts `1000`, `1,000`, `1 000` and `1_000` (thousands
 * separators people type), nothing else.
 */
export function checkInt(text: string, rule: IntRule): Checked<number> {
  const range = `a whole number from ${rule.min.toLocaleString('en-US')} to ${rule.max.toLocaleString('en-US')}${rule.unit ? ` ${rule.unit}` : ''}`;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: `${rule.name} is empty: enter ${range}.` };
  const plain = trimmed.replace(/(?<=\d)[,_ ](?=\d{3}(?:\D|$))/g, '');
  if (!/^-?\d+$/.test(plain))
    return { ok: false, message: `${rule.name} must be ${range}; “${trimmed}” is not.` };
  const value = Number(plain);
  if (value < rule.min || value > rule.max)
    return { ok: false, message: `${rule.name} must be ${range}; ${trimmed} is out of range.` };
  return { ok: true, value };
}

/** The health-check fields as typed (strings), in the order of the form. */
export interface HealthCheckDraft {
  intervalSeconds: string;
  timeoutSeconds: string;
  healthyThreshold: string;
  unhealthyThreshold: string;
  clusterTarget: HealthCheckSettings['clusterTarget'];
}

/** The draft of `settings`, for the form's first render. */
export function draftOf(settings: HealthCheckSettings): HealthCheckDraft {
  return {
    intervalSeconds: String(settings.intervalSeconds),
    timeoutSeconds: String(settings.timeoutSeconds),
    healthyThreshold: String(settings.healthyThreshold),
    unhealthyThreshold: String(settings.unhealthyThreshold),
    clusterTarget: settings.clusterTarget,
  };
}

/** A message per field that is wrong (none when the draft is valid). */
export type HealthCheckProblems = Partial<Record<keyof HealthCheckDraft, string>>;

/**
 * Checks a health-check draft against the ranges Google Cloud's `compute.healthChecks` API
 * accepts (`HEALTH_CHECK_RANGES` in src/model/time/limits.ts: `checkIntervalSec` and
 * `timeoutSec` 1–300 s, thresholds 1–10), and "it is invalid for timeoutSec to have greater
 * value than checkIntervalSec" (HealthCheck resource reference,
 * cloud.google.com/compute/docs/reference/rest/v1/healthChecks).
 */
export function checkHealthCheck(
  draft: HealthCheckDraft,
): { ok: true; value: HealthCheckSettings } | { ok: false; problems: HealthCheckProblems } {
  const r = HEALTH_CHECK_RANGES;
  const interval = checkInt(draft.intervalSeconds, {
    name: 'Interval',
    ...r.intervalSeconds,
    unit: 'seconds',
  });
  const timeout = checkInt(draft.timeoutSeconds, {
    name: 'Timeout',
    ...r.timeoutSeconds,
    unit: 'seconds',
  });
  const healthy = checkInt(draft.healthyThreshold, {
    name: 'Healthy threshold',
    ...r.healthyThreshold,
  });
  const unhealthy = checkInt(draft.unhealthyThreshold, {
    name: 'Unhealthy threshold',
    ...r.unhealthyThreshold,
  });
  const problems: HealthCheckProblems = {};
  if (!interval.ok) problems.intervalSeconds = interval.message;
  if (!timeout.ok) problems.timeoutSeconds = timeout.message;
  else if (interval.ok && timeout.value > interval.value)
    problems.timeoutSeconds = `Timeout (${timeout.value} s) must not be longer than the interval (${interval.value} s): the next probe would start before this one gives up.`;
  if (!healthy.ok) problems.healthyThreshold = healthy.message;
  if (!unhealthy.ok) problems.unhealthyThreshold = unhealthy.message;
  if (
    Object.keys(problems).length > 0 ||
    !interval.ok ||
    !timeout.ok ||
    !healthy.ok ||
    !unhealthy.ok
  )
    return { ok: false, problems };
  return {
    ok: true,
    value: {
      intervalSeconds: interval.value,
      timeoutSeconds: timeout.value,
      healthyThreshold: healthy.value,
      unhealthyThreshold: unhealthy.value,
      clusterTarget: draft.clusterTarget,
    },
  };
}
