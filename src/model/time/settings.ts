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

/** The most connections one run may hold (issue 6: 1 … 100,000). */
export const MAX_CONNECTIONS = 100_000;

function positiveInt(v: number, what: string, min = 1): void {
  if (!Number.isInteger(v) || v < min)
    throw new Error(`${what} must be a whole number ≥ ${min}, not ${v}`);
}

function nonNegative(v: number, what: string): void {
  if (!Number.isFinite(v) || v < 0) throw new Error(`${what} must be ≥ 0, not ${v}`);
}

/**
 * Fills in and checks the settings.
 * @throws {Error} on a setting out of range, an event naming an unknown node, or a workload
 *   over {@link MAX_CONNECTIONS}.
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
  nonNegative(healthCheck.timeoutSeconds, 'healthCheck.timeoutSeconds');
  if (healthCheck.timeoutSeconds <= 0 || healthCheck.timeoutSeconds > healthCheck.intervalSeconds)
    throw new Error(
      `healthCheck.timeoutSeconds must be > 0 and ≤ intervalSeconds (${healthCheck.intervalSeconds}), not ${healthCheck.timeoutSeconds}`,
    );
  positiveInt(healthCheck.healthyThreshold, 'healthCheck.healthyThreshold');
  positiveInt(healthCheck.unhealthyThreshold, 'healthCheck.unhealthyThreshold');
  if (healthCheck.clusterTarget !== 'healthz' && healthCheck.clusterTarget !== 'nodePort')
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
  if (!['cloud', 'none', 'metallb-l2'].includes(provisioning.controller))
    throw new Error(`provisioning.controller must be cloud, none or metallb-l2`);
  for (const k of ['informerDelayMs', 'provisionDelayMs', 'registerDelayMs'] as const)
    nonNegative(provisioning[k], `provisioning.${k}`);
  nonNegative(metallb.failoverDetectMs, 'provisioning.metallb.failoverDetectMs');

  const controlPlane: ControlPlaneSettings = {
    ...DEFAULT_CONTROL_PLANE,
    ...(input.controlPlane ?? {}),
  };
  nonNegative(
    controlPlane.nodeMonitorGracePeriodSeconds,
    'controlPlane.nodeMonitorGracePeriodSeconds',
  );
  nonNegative(controlPlane.endpointPropagationMs, 'controlPlane.endpointPropagationMs');
  nonNegative(
    controlPlane.unreachableTolerationSeconds,
    'controlPlane.unreachableTolerationSeconds',
  );
  nonNegative(controlPlane.readinessDelayMs, 'controlPlane.readinessDelayMs');
  nonNegative(
    controlPlane.terminationGracePeriodSeconds,
    'controlPlane.terminationGracePeriodSeconds',
  );

  const nodes = new Set(base.nodes.map((n) => n.name));
  const events = [...input.events]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
  for (const e of events) {
    nonNegative(e.at, `event ${e.kind} at`);
    if ('node' in e && !nodes.has(e.node))
      throw new Error(`event ${e.kind}: no node "${e.node}" (nodes: ${[...nodes].join(', ')})`);
  }

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
    if (e.kind === 'fail-node') {
      const restored = events
        .slice(i + 1)
        .some((x) => x.kind === 'restore-node' && x.node === e.node);
      if (!restored)
        tail =
          (cp.nodeMonitorGracePeriodSeconds + cp.unreachableTolerationSeconds) * 1000 +
          cp.readinessDelayMs +
          30_000;
    }
    if (e.kind === 'drain-node' || e.kind === 'kill-pod' || e.kind === 'scale')
      tail = cp.terminationGracePeriodSeconds * 1000 + cp.readinessDelayMs + 30_000;
    horizon = Math.max(horizon, e.at + tail);
  });
  const w = input.workload ?? {};
  const startMs = w.startMs ?? 0;
  if (input.horizonMs !== undefined) {
    nonNegative(input.horizonMs, 'horizonMs');
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
  nonNegative(workload.startMs, 'workload.startMs');
  nonNegative(workload.periodMs, 'workload.periodMs');
  nonNegative(workload.holdMs, 'workload.holdMs');
  if (input.horizonMs === undefined)
    horizon = Math.max(horizon, workload.startMs + workload.periodMs);
  const seed = input.seed ?? input.scene.seed;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be a whole number, not ${seed}`);
  return { healthCheck, provisioning, controlPlane, workload, seed, horizonMs: horizon, events };
}
