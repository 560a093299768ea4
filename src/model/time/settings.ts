/**
 * Filling a {@link TimelineInput}'s optional parts with the defaults, checking them, and
 * choosing the run's horizon.
 */
import {
  DEFAULT_CONTROL_PLANE,
  DEFAULT_HEALTH_CHECK,
  DEFAULT_METALLB,
  DEFAULT_PROVISIONING,
} from './defaults';
import { MAX_CONNECTIONS, MAX_EVENTS, MAX_PROBES, MAX_SIM_MS } from './limits';
import {
  CLUSTER_HEALTH_CHECK_TARGETS,
  CONTROLLER_KINDS,
  EVENT_KINDS,
  EVENT_SPECS,
} from './registry';
import { argProblem, eventArg, isEventKind, namedBy } from './eventArgs';
import type { EventKind } from './registry';
import type { Base } from './scenario';
import type {
  ConnectionWorkload,
  ControlPlaneSettings,
  HealthCheckSettings,
  ProvisioningSettings,
  SimMs,
  TimelineEvent,
  TimelineInput,
} from './types';

/** Every setting of a run, filled in. */
export interface Settings {
  healthCheck: HealthCheckSettings;
  provisioning: ProvisioningSettings;
  controlPlane: ControlPlaneSettings;
  workload: ConnectionWorkload;
  seed: number;
  horizonMs: SimMs;
  events: TimelineEvent[];
}

/**
 * What an event adds to the run's default horizon after its `at`, beyond the minute every event
 * gets: a node failure that is never restored waits for the node lifecycle controller and the
 * Pods' replacement (`node-down`); a kind that terminates Pods waits for their grace period and
 * their replacements' readiness (`pods-replaced`). A record, so a new kind must choose.
 */
const HORIZON_TAIL: Record<EventKind, 'node-down' | 'pods-replaced' | 'minute'> = {
  'fail-node': 'node-down',
  'restore-node': 'minute',
  'drain-node': 'pods-replaced',
  'uncordon-node': 'minute',
  'scale-down-node': 'pods-replaced',
  'kill-pod': 'pods-replaced',
  scale: 'pods-replaced',
  'set-policy': 'minute',
};

/** `86400000` ms as `24h (86400000 ms)`, for messages. */
const MAX_TEXT = `24h (${MAX_SIM_MS} ms)`;

/** Throws unless `v` is a time from 0 to {@link MAX_SIM_MS}. */
function simTime(v: number, what: string): void {
  nonNegative(v, what);
  if (v > MAX_SIM_MS)
    throw new Error(
      `${what} must be at most ${MAX_TEXT}: the model simulates up to 24 h, not ${v} ms`,
    );
}

function positiveInt(v: number, what: string, min = 1): void {
  if (!Number.isInteger(v) || v < min)
    throw new Error(`${what} must be a whole number ≥ ${min}, not ${v}`);
}

function nonNegative(v: number, what: string): void {
  if (!Number.isFinite(v) || v < 0) throw new Error(`${what} must be ≥ 0, not ${v}`);
}

/**
 * Fills in and checks the settings.
 * @throws {Error} on a setting out of range (every time at most {@link MAX_SIM_MS}), an event
 *   naming an unknown node, more than {@link MAX_EVENTS} events, a workload over
 *   {@link MAX_CONNECTIONS}, or a run over {@link MAX_PROBES} probes; the message starts with
 *   the field's path.
 */
export function resolveSettings(input: TimelineInput, base: Base): Settings {
  const fromObject: Partial<HealthCheckSettings> = {};
  for (const k of [
    'intervalSeconds',
    'timeoutSeconds',
    'healthyThreshold',
    'unhealthyThreshold',
  ] as const) {
    const v = base.lbHealthCheck[k];
    if (v !== undefined) fromObject[k] = v;
  }
  const healthCheck: HealthCheckSettings = {
    ...DEFAULT_HEALTH_CHECK,
    ...fromObject,
    ...(input.healthCheck ?? {}),
  };
  positiveInt(healthCheck.intervalSeconds, 'healthCheck.intervalSeconds');
  simTime(healthCheck.intervalSeconds * 1000, 'healthCheck.intervalSeconds (as ms)');
  nonNegative(healthCheck.timeoutSeconds, 'healthCheck.timeoutSeconds');
  if (healthCheck.timeoutSeconds <= 0 || healthCheck.timeoutSeconds > healthCheck.intervalSeconds)
    throw new Error(
      `healthCheck.timeoutSeconds must be > 0 and ≤ intervalSeconds (${healthCheck.intervalSeconds}), not ${healthCheck.timeoutSeconds}`,
    );
  positiveInt(healthCheck.healthyThreshold, 'healthCheck.healthyThreshold');
  positiveInt(healthCheck.unhealthyThreshold, 'healthCheck.unhealthyThreshold');
  if (!(CLUSTER_HEALTH_CHECK_TARGETS as readonly string[]).includes(healthCheck.clusterTarget))
    throw new Error(`healthCheck.clusterTarget must be healthz or nodePort`);

  const p = input.provisioning ?? {};
  const metallb = { ...DEFAULT_METALLB, ...(p.metallb ?? {}) };
  if (metallb.poolRange === '')
    metallb.poolRange = `${base.nodeNetPrefix}240-${base.nodeNetPrefix}249`;
  const provisioning: ProvisioningSettings = {
    ...DEFAULT_PROVISIONING,
    ...p,
    metallb,
  };
  if (!(CONTROLLER_KINDS as readonly string[]).includes(provisioning.controller))
    throw new Error(`provisioning.controller must be cloud, none or metallb-l2`);
  for (const k of ['informerDelayMs', 'provisionDelayMs', 'registerDelayMs'] as const)
    simTime(provisioning[k], `provisioning.${k}`);
  simTime(metallb.failoverDetectMs, 'provisioning.metallb.failoverDetectMs');
  if (typeof metallb.ignoreExcludeLb !== 'boolean')
    throw new Error('provisioning.metallb.ignoreExcludeLb must be true or false');

  const controlPlane: ControlPlaneSettings = {
    ...DEFAULT_CONTROL_PLANE,
    ...(input.controlPlane ?? {}),
  };
  for (const k of [
    'nodeMonitorGracePeriodSeconds',
    'unreachableTolerationSeconds',
    'terminationGracePeriodSeconds',
  ] as const) {
    nonNegative(controlPlane[k], `controlPlane.${k}`);
    simTime(controlPlane[k] * 1000, `controlPlane.${k} (as ms)`);
  }
  simTime(controlPlane.endpointPropagationMs, 'controlPlane.endpointPropagationMs');
  simTime(controlPlane.readinessDelayMs, 'controlPlane.readinessDelayMs');
  if (controlPlane.appExitAfterSigtermMs !== undefined)
    simTime(controlPlane.appExitAfterSigtermMs, 'controlPlane.appExitAfterSigtermMs');

  const nodes = new Set(base.nodes.map((n) => n.name));
  if (input.events.length > MAX_EVENTS)
    throw new Error(`events: at most ${MAX_EVENTS} events, not ${input.events.length}`);
  input.events.forEach((e, i) => {
    if (!isEventKind(e.kind))
      throw new Error(
        `events[${i}].kind must be one of ${EVENT_KINDS.join(', ')}, not ${JSON.stringify(e.kind)}`,
      );
    simTime(e.at, `events[${i}].at (${e.kind})`);
    const spec = EVENT_SPECS[e.kind];
    const problem = argProblem(spec, eventArg(e));
    if (problem) throw new Error(`events[${i}].${spec.field} (${e.kind}) ${problem}`);
    const node = namedBy(e, 'node');
    if (node !== null && !nodes.has(node))
      throw new Error(`event ${e.kind}: no node "${node}" (nodes: ${[...nodes].join(', ')})`);
  });
  const events = [...input.events]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);

  const cp = controlPlane;
  let horizon = 60_000;
  if (provisioning.fromCreation)
    horizon = Math.max(
      horizon,
      provisioning.informerDelayMs +
        provisioning.provisionDelayMs +
        provisioning.registerDelayMs +
        (healthCheck.healthyThreshold + 1) * healthCheck.intervalSeconds * 1000 +
        30_000,
    );
  events.forEach((e, i) => {
    let tail = 60_000;
    const tailKind = HORIZON_TAIL[e.kind];
    if (tailKind === 'node-down' && 'node' in e) {
      const restored = events
        .slice(i + 1)
        .some((x) => x.kind === 'restore-node' && x.node === e.node);
      if (!restored)
        tail =
          (cp.nodeMonitorGracePeriodSeconds + cp.unreachableTolerationSeconds) * 1000 +
          cp.readinessDelayMs +
          30_000;
    }
    if (tailKind === 'pods-replaced')
      tail = cp.terminationGracePeriodSeconds * 1000 + cp.readinessDelayMs + 30_000;
    horizon = Math.max(horizon, e.at + tail);
  });
  horizon = Math.min(horizon, MAX_SIM_MS);
  const w = input.workload ?? {};
  const startMs = w.startMs ?? 0;
  if (input.horizonMs !== undefined) {
    simTime(input.horizonMs, 'horizon');
    horizon = input.horizonMs;
  }
  const workload: ConnectionWorkload = {
    count: w.count ?? 1000,
    startMs,
    periodMs: w.periodMs ?? Math.max(0, horizon - startMs),
    holdMs: w.holdMs ?? 0,
    ...(w.client !== undefined ? { client: w.client } : {}),
    longLived: w.longLived ?? [],
  };
  positiveInt(workload.count, 'workload.count', 0);
  if (workload.count > MAX_CONNECTIONS)
    throw new Error(`workload.count must be at most ${MAX_CONNECTIONS}, not ${workload.count}`);
  simTime(workload.startMs, 'workload.startMs');
  simTime(workload.periodMs, 'workload.periodMs');
  simTime(workload.holdMs, 'workload.holdMs');
  simTime(workload.startMs + workload.periodMs, 'workload.startMs + workload.periodMs');
  (workload.longLived ?? []).forEach((l, i) => {
    simTime(l.openedAt, `workload.longLived[${i}].openedAt`);
    if (l.closesAt !== undefined) simTime(l.closesAt, `workload.longLived[${i}].closesAt`);
  });
  if (input.horizonMs === undefined)
    horizon = Math.max(horizon, workload.startMs + workload.periodMs);
  const probes = Math.ceil(horizon / (healthCheck.intervalSeconds * 1000)) * base.nodes.length;
  if (provisioning.controller === 'cloud' && probes > MAX_PROBES)
    throw new Error(
      `healthCheck.intervalSeconds: ${base.nodes.length} nodes probed every ${healthCheck.intervalSeconds} s for ${horizon / 1000} s make ${probes} probes, more than the ${MAX_PROBES} one run may send; shorten the horizon or lengthen the interval`,
    );
  const seed = input.seed ?? input.scene.seed;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be a whole number, not ${seed}`);
  return { healthCheck, provisioning, controlPlane, workload, seed, horizonMs: horizon, events };
}
