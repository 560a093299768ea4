/**
 * The model's bounds on a run (review rev-time finding 2): every time at most 24 h of
 * simulated time, at most 300,000 probes; refused before anything runs, with the field named.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../index';
import { MAX_EVENTS, MAX_PROBES, MAX_SIM_MS, simulate } from './index';
import type { TimelineInput } from './types';
import { analyse } from './scenario';
import { resolveSettings } from './settings';

const run = (patch: Partial<TimelineInput>) => () =>
  simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [],
    workload: { count: 0 },
    ...patch,
  });

describe('run limits', () => {
  it('24 h of simulated time, 1,000 events, 300,000 probes', () => {
    expect(MAX_SIM_MS).toBe(24 * 60 * 60 * 1000);
    expect([MAX_EVENTS, MAX_PROBES]).toEqual([1000, 300_000]);
  });

  // Simulating to 1e12 ms would take far longer than the test's own timeout, so passing
  // at all shows the refusal came first (no stopwatch: those flake on a busy machine).
  it('refuses an event past 24 h, naming it, instead of running for minutes', () => {
    expect(run({ events: [{ at: 1e12, kind: 'fail-node', node: 'node-1' }] })).toThrow(
      'events[0].at (fail-node) must be at most 24h (86400000 ms)',
    );
  });

  it('refuses a horizon, a workload or a delay past 24 h', () => {
    expect(run({ horizonMs: MAX_SIM_MS + 1 })).toThrow('horizon must be at most 24h');
    expect(run({ workload: { count: 10, periodMs: MAX_SIM_MS + 1 } })).toThrow(
      'workload.periodMs must be at most 24h',
    );
    expect(run({ workload: { count: 10, startMs: MAX_SIM_MS, periodMs: 1000 } })).toThrow(
      'workload.startMs + workload.periodMs must be at most 24h',
    );
    expect(run({ controlPlane: { nodeMonitorGracePeriodSeconds: 1e9 } })).toThrow(
      'controlPlane.nodeMonitorGracePeriodSeconds (as ms) must be at most 24h',
    );
  });

  it('caps the default horizon at 24 h (an event at 23 h 59 m leaves no full tail)', () => {
    const tl = run({ events: [{ at: MAX_SIM_MS - 60_000, kind: 'scale', replicas: 3 }] })();
    expect(tl.settings.horizonMs).toBe(MAX_SIM_MS);
  });

  it('refuses more probes than a run may send, with the arithmetic', () => {
    // 3 nodes × 86,400 one-second intervals = 259,200: allowed; 4 nodes would be 345,600.
    const input: TimelineInput = {
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: [],
      workload: { count: 0 },
      healthCheck: { intervalSeconds: 1, timeoutSeconds: 1 },
      horizonMs: MAX_SIM_MS,
    };
    // The settings are checked before anything runs (running it takes seconds).
    expect(resolveSettings(input, analyse(input.objects, input.scene).base).horizonMs).toBe(
      MAX_SIM_MS,
    );
    const objects = canonicalObjects();
    const node = objects.find((o) => o.kind === 'Node')!;
    objects.push({ ...structuredClone(node), metadata: { name: 'node-4' } });
    expect(() =>
      simulate({
        objects,
        scene: DEFAULT_SCENE,
        events: [],
        workload: { count: 0 },
        healthCheck: { intervalSeconds: 1, timeoutSeconds: 1 },
        horizonMs: MAX_SIM_MS,
      }),
    ).toThrow('4 nodes probed every 1 s for 86400 s make 345600 probes');
  });
});
