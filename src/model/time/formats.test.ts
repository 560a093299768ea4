/** kubectl's AGE (duration.HumanDuration) and the events format. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { humanDuration, parseDuration, parseEvents, parseTimelineSpec } from './index';

describe('humanDuration, as k8s.io/apimachinery util/duration TestHumanDuration(Boundaries)', () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  it.each([
    [s, '1s'],
    [70 * s, '70s'],
    [190 * s, '3m10s'],
    [70 * m, '70m'],
    [47 * h, '47h'],
    [49 * h, '2d1h'],
    [(8 * 24 + 2) * h, '8d'],
    [367 * d, '367d'],
    [(365 * 2 * 24 + 25) * h, '2y1d'],
    [(365 * 8 * 24 + 2) * h, '8y'],
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [0, '0s'],
    [2 * m - 1, '119s'],
    [2 * m, '2m'],
    [10 * m - 1, '9m59s'],
    [10 * m + s, '10m'],
    [3 * h - 1, '179m'],
    [3 * h + m, '3h1m'],
    [8 * h + 59 * m, '8h'],
    [8 * d - 1, '7d23h'],
    [2 * 365 * d - 1, '729d'],
    [8 * 365 * d - 1, '7y364d'],
  ])('%d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));
});

describe('the events format', () => {
  it('parses durations as Go does (ms, s, m, h)', () => {
    expect([
      parseDuration('10s'),
      parseDuration('1m30s'),
      parseDuration('250ms'),
      parseDuration('1.5s'),
      parseDuration('2h'),
    ]).toEqual([10_000, 90_000, 250, 1500, 7_200_000]);
    expect(() => parseDuration('10')).toThrow(/not a duration/);
  });

  it('reads the compact form', () => {
    expect(
      parseEvents(
        'fail:node-1@10s, restore:node-1@1m30s,scale:4@20s,policy:Local@40s,kill:web-abc@5s,drain:node-2@1m,uncordon:node-2@2m',
      ),
    ).toEqual([
      { at: 10_000, kind: 'fail-node', node: 'node-1' },
      { at: 90_000, kind: 'restore-node', node: 'node-1' },
      { at: 20_000, kind: 'scale', replicas: 4 },
      { at: 40_000, kind: 'set-policy', policy: 'Local' },
      { at: 5_000, kind: 'kill-pod', pod: 'web-abc' },
      { at: 60_000, kind: 'drain-node', node: 'node-2' },
      { at: 120_000, kind: 'uncordon-node', node: 'node-2' },
    ]);
  });

  it('reads YAML with settings, and JSON lists', () => {
    const spec = parseTimelineSpec(`
healthCheck: { intervalSeconds: 5, timeoutSeconds: 2 }
workload: { count: 600, period: 60s, hold: 30s }
horizon: 2m
events:
  - { at: 12s, kind: fail-node, node: node-1 }
  - { at: 90000, kind: restore-node, node: node-1 }
`);
    expect(spec.events).toEqual([
      { at: 12_000, kind: 'fail-node', node: 'node-1' },
      { at: 90_000, kind: 'restore-node', node: 'node-1' },
    ]);
    expect(spec.workload).toEqual({ count: 600, periodMs: 60_000, holdMs: 30_000 });
    expect(spec.horizonMs).toBe(120_000);
    expect(parseEvents('[{"at": "3s", "kind": "scale", "replicas": 3}]')).toEqual([
      { at: 3000, kind: 'scale', replicas: 3 },
    ]);
  });

  it('names the bad entry', () => {
    expect(() => parseEvents('explode:node-1@10s')).toThrow(/unknown kind "explode"/);
    expect(() => parseEvents('[{"at": "3s", "kind": "fail-node"}]')).toThrow(
      /events\[0\]: fail-node needs a node name/,
    );
    expect(() => parseEvents('policy:Sideways@1s')).toThrow(/Cluster or Local/);
  });
});

describe('the events format is strict', () => {
  it('a compact event without @TIME says what the form expects', () => {
    expect(() => parseEvents('fail:node-1')).toThrow(
      '"fail:node-1": expected ACTION:TARGET@TIME, e.g. fail:node-1@10s',
    );
    expect(() => parseEvents('fail:node-1@10s,restore:node-1')).toThrow(
      '"restore:node-1": expected ACTION:TARGET@TIME',
    );
  });

  it('unknown fields are errors, at every level, with their path', () => {
    expect(() => parseTimelineSpec('healthCheck: { intervall: 5 }')).toThrow(
      'healthCheck: unknown field "intervall"',
    );
    expect(() =>
      parseTimelineSpec('events: [{ at: 1s, kind: fail-node, node: node-1, extra: 1 }]'),
    ).toThrow('events[0]: unknown field "extra" (fields: at, kind, node)');
    expect(() =>
      parseTimelineSpec('workload: { longLived: [{ client: a, openedAt: 1s, x: 1 }] }'),
    ).toThrow('workload.longLived[0]: unknown field "x"');
    expect(() => parseTimelineSpec('horizn: 2m')).toThrow('unknown field "horizn"');
    expect(() => parseTimelineSpec('provisioning: { metallb: { pool: x } }')).toThrow(
      'provisioning.metallb: unknown field "pool"',
    );
  });

  it('a number written as a string is refused with the field’s path', () => {
    expect(() => parseTimelineSpec('healthCheck: { intervalSeconds: "8" }')).toThrow(
      'healthCheck.intervalSeconds: expected a number, not the string "8"',
    );
    expect(() => parseTimelineSpec('workload: { count: "600" }')).toThrow(
      'workload.count: expected a number, not the string "600"',
    );
    expect(() => parseTimelineSpec('events: [{ at: 1s, kind: scale, replicas: "3" }]')).toThrow(
      'events[0].replicas: expected a number, not the string "3"',
    );
    expect(() => parseTimelineSpec('seed: "7"')).toThrow('seed: expected a number');
  });

  it('times past 24 h are refused at once, naming the field', () => {
    expect(() => parseEvents('fail:node-1@10000h')).toThrow('10000h is past 24h');
    expect(() =>
      parseTimelineSpec('events: [{ at: 1e12, kind: fail-node, node: node-1 }]'),
    ).toThrow('events[0].at: 1000000000000 ms is past 24h');
    expect(() => parseTimelineSpec('horizon: 25h')).toThrow('horizon: 25h is past 24h');
    expect(() => parseTimelineSpec('workload: { period: 48h }')).toThrow('workload.period');
    // 24 h itself is allowed.
    expect(parseTimelineSpec('horizon: 24h').horizonMs).toBe(86_400_000);
  });

  it('reads scaledown and the MetalLB flag', () => {
    expect(parseEvents('scaledown:node-3@1m')).toEqual([
      { at: 60_000, kind: 'scale-down-node', node: 'node-3' },
    ]);
    expect(
      parseTimelineSpec(
        'provisioning: { controller: metallb-l2, metallb: { ignoreExcludeLb: true } }',
      ).provisioning,
    ).toEqual({ controller: 'metallb-l2', metallb: { ignoreExcludeLb: true } });
  });
});

describe('the README example of the events format', () => {
  it('parses as documented', () => {
    const readme = readFileSync('README.md', 'utf8');
    const start = readme.indexOf('### The events format');
    const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? '';
    const spec = parseTimelineSpec(block);
    expect(spec.events.map((e) => [e.at, e.kind])).toEqual([
      [12_000, 'fail-node'],
      [20_000, 'kill-pod'],
      [30_000, 'scale'],
      [40_000, 'set-policy'],
      [90_000, 'restore-node'],
    ]);
    expect(spec.workload).toEqual({
      count: 600,
      startMs: 0,
      periodMs: 60_000,
      holdMs: 30_000,
      longLived: [{ client: '198.51.100.77', openedAt: 5000 }],
    });
    expect(spec.provisioning).toEqual({
      controller: 'cloud',
      fromCreation: true,
      provisionDelayMs: 30_000,
    });
    expect(spec.controlPlane).toEqual({
      nodeMonitorGracePeriodSeconds: 50,
      endpointPropagationMs: 1000,
      terminationGracePeriodSeconds: 30,
    });
    expect([spec.horizonMs, spec.seed]).toEqual([120_000, 7]);
  });
});
