import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../model';
import { DEFAULT_HEALTH_CHECK, DEFAULT_PROVISIONING } from '../../model/time';
import { INITIAL_TIME } from '../../store/timelineSlice';
import {
  deriveTimeline,
  epochAt,
  healthCheckDefaults,
  readyAt,
  runTimeline,
} from '../../store/timelineDerive';
import { provisioningStages, stageAt } from './provisioning';

const objects = canonicalObjects();
const run = (patch: Partial<typeof INITIAL_TIME> = {}) =>
  runTimeline(objects, DEFAULT_SCENE, { ...INITIAL_TIME, ...patch });

// The model's cloud defaults: informer 0.2 s + building 30 s + registering 5 s, then GCP's
// health check every 8 s, the first probes of the three nodes spread over one interval.
const PUBLISHED =
  DEFAULT_PROVISIONING.informerDelayMs +
  DEFAULT_PROVISIONING.provisionDelayMs +
  DEFAULT_PROVISIONING.registerDelayMs;
const LAST_JOIN = PUBLISHED + Math.floor((2 * DEFAULT_HEALTH_CHECK.intervalSeconds * 1000) / 3);

describe('the run the time view shows', () => {
  it('opens the workload once the address is published and every node has joined', () => {
    const { timeline, input } = run();
    expect(PUBLISHED).toBe(35_200);
    expect(timeline.rotation.filter((r) => r.inRotation).map((r) => r.at)).toEqual([
      PUBLISHED,
      PUBLISHED + Math.floor((DEFAULT_HEALTH_CHECK.intervalSeconds * 1000) / 3),
      LAST_JOIN,
    ]);
    expect(readyAt(timeline)).toBe(Math.ceil(LAST_JOIN / 1000) * 1000);
    expect(input.workload).toMatchObject({ startMs: 41_000, count: 1000, periodMs: 60_000 });
    // Nothing is sent to a <pending> address: every connection is delivered.
    expect(timeline.stats.delivered).toBe(1000);
    expect(timeline.connections.every((c) => c.openedAt >= 41_000)).toBe(true);
  });

  it('dials the load balancer whatever the trace view dials', () => {
    const { input } = runTimeline(
      objects,
      { ...DEFAULT_SCENE, dial: { kind: 'NodePort', nodeName: 'node-2' } },
      INITIAL_TIME,
    );
    expect(input.scene.dial).toEqual({ kind: 'LoadBalancer' });
  });

  it('is the same for the same inputs, and memoised on their references', () => {
    expect(JSON.stringify(run().timeline)).toBe(JSON.stringify(run().timeline));
    const time = { ...INITIAL_TIME };
    const a = deriveTimeline(objects, DEFAULT_SCENE, time);
    expect(deriveTimeline(objects, DEFAULT_SCENE, time)).toBe(a);
  });

  it('keeps a bad setting as an error value instead of throwing, the events still listed', () => {
    // Google Cloud's API refuses a timeout longer than the interval; so does the model.
    const d = deriveTimeline(objects, DEFAULT_SCENE, {
      ...INITIAL_TIME,
      healthCheck: { intervalSeconds: 2, timeoutSeconds: 5 },
      events: [{ at: 1000, kind: 'fail-node', node: 'node-1' }],
    });
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toContain('healthCheck.timeoutSeconds');
    expect(d.skipped).toEqual([]);
  });

  it('flags and skips events naming a node or Pod the scenario lacks, and keeps the rest', () => {
    // After a switch from another scenario: node-9 and the Pod web-gone are not in canonical.
    const events = [
      { at: 1000, kind: 'fail-node' as const, node: 'node-9' },
      { at: 50_000, kind: 'fail-node' as const, node: 'node-1' },
      { at: 60_000, kind: 'kill-pod' as const, pod: 'web-gone' },
    ];
    const d = deriveTimeline(objects, DEFAULT_SCENE, { ...INITIAL_TIME, events });
    expect(d.ok).toBe(true);
    expect(d.skipped).toEqual([
      { index: 0, event: events[0], reason: 'node-9 is not in this cluster' },
      { index: 2, event: events[2], reason: 'Pod web-gone is not in this cluster' },
    ]);
    if (!d.ok) return;
    // The run has the applicable event only, exactly as if it had been the only one.
    expect(d.timeline.base.events).toEqual([events[1]]);
    const alone = run({ events: [events[1]!] }).timeline;
    expect(JSON.stringify(d.timeline)).toBe(JSON.stringify(alone));
  });

  it('falls back to the Internet client when the workload’s client is not in the scenario', () => {
    const d = deriveTimeline(objects, DEFAULT_SCENE, {
      ...INITIAL_TIME,
      workload: { ...INITIAL_TIME.workload, client: 'gone', longLivedClient: 'gone-too' },
    });
    expect(d.ok).toBe(true);
    expect(d.notices).toHaveLength(2);
    expect(d.notices[0]).toContain('“gone” is not in this cluster');
    if (d.ok) expect(d.timeline.settings.workload.client).toBe('internet');
  });

  it('reads the model’s health-check defaults for the scenario', () => {
    expect(healthCheckDefaults(objects, DEFAULT_SCENE)).toEqual(DEFAULT_HEALTH_CHECK);
  });
});

describe('provisioning stages', () => {
  it('follow the model: noticed and building at 0.2 s, registered, passing and published at 35.2 s', () => {
    const { timeline } = run();
    const stages = provisioningStages(timeline);
    expect(stages.map((s) => [s.id, s.at])).toEqual([
      ['created', 0],
      ['noticed', 200],
      ['building', 200],
      ['registered', PUBLISHED],
      ['healthy', PUBLISHED],
      ['published', PUBLISHED],
    ]);
    expect(stageAt(stages, 30_000)?.id).toBe('building');
    expect(stageAt(stages, PUBLISHED)?.id).toBe('published');
    expect(epochAt(timeline, PUBLISHED - 1)?.published).toBe(false);
    expect(epochAt(timeline, PUBLISHED)?.published).toBe(true);
  });

  it('never get past "created" without a controller', () => {
    const { timeline } = run({ controller: 'none' });
    const stages = provisioningStages(timeline);
    expect(stages.filter((s) => s.at !== null).map((s) => s.id)).toEqual(['created']);
    expect(readyAt(timeline)).toBe(0);
    expect(timeline.stats.delivered).toBe(0);
  });
});
