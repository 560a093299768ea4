import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run';
import type { TimelineJson } from './timeline';

/** The CLI in this process, as `npm run datapath -- …` runs it (src/cli/main.ts only writes what it returns). */
const datapath = (...args: string[]) => runCli(args);

const FILE = 'public/examples/canonical.yaml';

describe('datapath timeline', () => {
  it('--json with an events file: node-1 leaves at 22 s and rejoins at 95 s (5 s / 2 s / 2 / 2)', () => {
    // Probes of node-1 at 0, 5, 10, … s; dead from 12 s: the 15 s and 20 s probes time out at
    // 17 s and 22 s (2 failures); back at 90 s: the 90 s and 95 s probes pass (2 successes).
    const dir = mkdtempSync(join(tmpdir(), 'timeline-'));
    const events = join(dir, 'events.yaml');
    writeFileSync(
      events,
      [
        'healthCheck: { intervalSeconds: 5, timeoutSeconds: 2, healthyThreshold: 2, unhealthyThreshold: 2 }',
        'workload: { count: 240, period: 120s, hold: 30s }',
        'horizon: 120s',
        'events:',
        '  - { at: 12s, kind: fail-node, node: node-1 }',
        '  - { at: 90s, kind: restore-node, node: node-1 }',
      ].join('\n'),
    );
    const r = datapath('timeline', FILE, '--events', events, '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as TimelineJson;
    expect(
      out.rotation.filter((x) => x.node === 'node-1').map((x) => [x.at, x.inRotation]),
    ).toEqual([
      [22000, false],
      [95000, true],
    ]);
    expect(out.deadNodeWindows[0]).toMatchObject({
      node: 'node-1',
      failedAt: 12000,
      leftRotationAt: 22000,
      boundMs: 12000,
    });
    expect(out.stats.total).toBe(240);
    expect(Object.values(out.fates).reduce((a, b) => a + (b ?? 0), 0)).toBe(240);
    expect(out.connections).toBeUndefined();
    expect('state' in (out.epochs[0] ?? {})).toBe(false);
  });

  it('inline events, human output: probes, rotation, kubectl get svc and the connection fates', () => {
    const r = datapath(
      'timeline',
      FILE,
      '--events',
      'fail:node-3@10s',
      '--connections',
      '100',
      '--hold',
      '30s',
      '--horizon',
      '60s',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "node-3 leaves the balancer's rotation: 3 consecutive failed probes (unhealthy threshold 3)",
    );
    expect(r.stdout).toContain(
      'NAME   TYPE           CLUSTER-IP   EXTERNAL-IP   PORT(S)        AGE',
    );
    expect(r.stdout).toMatch(/Connections: 100 from internet/);
    expect(r.stdout).toMatch(/blackholed \d+/);
  });

  it('--controller none --from-creation: EXTERNAL-IP stays <pending>', () => {
    const r = datapath(
      'timeline',
      FILE,
      '--events',
      'scale:3@5s',
      '--controller',
      'none',
      '--from-creation',
      '--connections',
      '0',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as TimelineJson;
    // kubectl get svc at t = 0 and as of the end of the run, as the text prints them.
    expect(out.svc.map((x) => [x.at, x['EXTERNAL-IP']])).toEqual([
      [0, '<pending>'],
      [out.settings.horizonMs, '<pending>'],
    ]);
  });

  it('names a bad event and an unknown node', () => {
    const a = datapath('timeline', FILE, '--events', 'explode:node-1@1s');
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('unknown kind "explode"');
    const b = datapath('timeline', FILE, '--events', 'fail:node-9@1s');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('no node "node-9"');
  });

  it('says exactly what is wrong with --events, and fails fast', () => {
    const dir = mkdtempSync(join(tmpdir(), 'timeline-'));
    const file = (name: string, text: string) => {
      const f = join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    const cases: [string, string][] = [
      ['/nonexistent.yaml', '--events /nonexistent.yaml: no such file'],
      ['fail:node-1', '"fail:node-1": expected ACTION:TARGET@TIME'],
      ['', '--events is empty'],
      [
        file('keys.yaml', 'healthCheck: { intervall: 5 }\n'),
        'healthCheck: unknown field "intervall"',
      ],
      [
        file('event-key.yaml', 'events: [{ at: 1s, kind: fail-node, node: node-1, x: 1 }]\n'),
        'events[0]: unknown field "x"',
      ],
      [
        file('string.yaml', 'healthCheck: { intervalSeconds: "8" }\n'),
        'healthCheck.intervalSeconds: expected a number, not the string "8"',
      ],
      [file('huge.yaml', 'events: [{ at: 1e12, kind: fail-node, node: node-1 }]\n'), 'past 24h'],
      ['fail:node-1@10000h', '"fail:node-1@10000h": 10000h is past 24h'],
    ];
    // Refused before simulating: a run to 10,000 h would outlast the test's timeout.
    for (const [events, message] of cases) {
      const r = datapath('timeline', FILE, '--events', events);
      expect(r.status, events).toBe(2);
      expect(r.stderr, events).toContain(message);
    }
    const h = datapath('timeline', FILE, '--events', 'fail:node-1@10s', '--horizon', '1000h');
    expect([h.status, h.stderr.split('\n')[0]]).toEqual([
      2,
      'datapath: --horizon 1000h: must be at most 24h, the longest run the model simulates',
    ]);
    for (const n of ['0x10', '1e3', '+5', '1.0', ' 7'])
      expect(datapath('timeline', FILE, '--events', '[]', '--connections', n).stderr).toContain(
        `--connections ${n}: must be a whole number from 0 to 100000`,
      );
  }, 60_000);

  it('reports the stale-endpoint window in JSON and text; MetalLB’s header says no health checks', () => {
    const r = datapath(
      'timeline',
      FILE,
      '--events',
      'fail:node-1@50s',
      '--connections',
      '1200',
      '--period',
      '120s',
      '--horizon',
      '150s',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const w = (JSON.parse(r.stdout) as TimelineJson).deadNodeWindows[0]!;
    // node-monitor-grace-period 50 s after the 50 s failure, then 1 s to kube-proxy.
    expect([w.staleEndpoints, w.endpointsUpdatedAt]).toEqual([['10.244.1.5'], 101_000]);
    expect(w.expectedStaleEndpointConnections).toBeCloseTo(216.667, 3);
    const text = datapath('timeline', FILE, '--events', 'fail:node-1@50s', '--horizon', '150s');
    expect(text.stdout).toContain('--node-monitor-grace-period 50 s after the failure');
    const m = datapath('timeline', FILE, '--events', '[]', '--controller', 'metallb-l2');
    expect(m.stdout).toContain('controller metallb-l2; no health checks (MetalLB layer 2');
    expect(m.stdout).not.toContain('health check every');
  }, 30_000);

  it('scaledown: /healthz answers 503 with "nodeEligible":false', () => {
    const r = datapath('timeline', FILE, '--events', 'scaledown:node-1@20s', '--probes', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as TimelineJson;
    const p = out.probes.find((x) => x.node === 'node-1' && x.at === 24_000);
    // The 1.33+ JSON body (proxy_health.go ProxyHealth): nodeEligible, then healthy, then status.
    expect([p?.status, p?.body.includes('"nodeEligible":false,"healthy":true,')]).toEqual([
      503,
      true,
    ]);
  });
});
