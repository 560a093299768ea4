import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { TimelineJson } from './timeline';

function datapath(...args: string[]) {
  const r = spawnSync('npx', ['tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

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
    expect(out.svc.map((x) => x['EXTERNAL-IP'])).toEqual(['<pending>']);
  });

  it('names a bad event and an unknown node', () => {
    const a = datapath('timeline', FILE, '--events', 'explode:node-1@1s');
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('unknown kind "explode"');
    const b = datapath('timeline', FILE, '--events', 'fail:node-9@1s');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('no node "node-9"');
  });
});
