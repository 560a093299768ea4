import { describe, expect, it } from 'vitest';
import { runCli } from './run';
import type { StatsJson } from './stats';

/** The CLI in this process, as `npm run datapath -- …` runs it (src/cli/main.ts only writes what it returns). */
const datapath = (...args: string[]) => runCli(args);

describe('datapath stats', () => {
  it('--json: local-uneven, the lone Pod expects 1/2 and each of the three 1/6; counts add up', () => {
    const r = datapath(
      'stats',
      'public/examples/local-uneven.yaml',
      '--connections',
      '30000',
      '--seed',
      '4',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as StatsJson;
    expect([out.service, out.externalTrafficPolicy, out.connections, out.seed]).toEqual([
      'default/api',
      'Local',
      30000,
      4,
    ]);
    const exp = Object.fromEntries(out.stats.perPod.map((p) => [p.id, p.expectedShare]));
    expect(exp['default/api-7f9b8c6d5-m4v8t']).toBe(0.5);
    expect(exp['default/api-7f9b8c6d5-c9x2r']).toBeCloseTo(1 / 6, 9);
    expect(out.stats.perPod.reduce((a, p) => a + p.count, 0)).toBe(30000);
    // The probabilities of the distinct paths sum to 1.
    expect(out.paths.reduce((a, p) => a + p.probability, 0)).toBeCloseTo(1, 12);
  });

  it('prints per-node and per-Pod tables; canonical Cluster shows node-2 forwarding everything', () => {
    const r = datapath(
      'stats',
      'public/examples/canonical.yaml',
      '--connections',
      '3000',
      '--client',
      '198.51.100.9',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '# 3000 new connections from ip-198.51.100.9 to default/web (externalTrafficPolicy Cluster), seed 1',
    );
    const node2 = r.stdout.split('\n').find((l) => l.startsWith('node-2'));
    const cols = node2?.trim().split(/\s+/) ?? [];
    // NODE COUNT SHARE EXPECTED DIFF CROSS-NODE SNAT: every connection entering node-2 crosses.
    expect(cols[3]).toBe('33.33%');
    expect(cols[5]).toBe(cols[1]);
  });

  it('rejects a missing or out-of-range --connections', () => {
    const a = datapath('stats', 'public/examples/canonical.yaml');
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('--connections is required');
    const b = datapath('stats', 'public/examples/canonical.yaml', '--connections', '100001');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('must be a whole number from 1 to 100000');
  });

  it('heads DIFF with its unit (percentage points) and takes a node’s address as a node client', () => {
    const r = datapath('stats', 'public/examples/canonical.yaml', '--connections', '600');
    expect(r.stdout).toContain('DIFF (pp)');
    const n = datapath(
      'stats',
      'public/examples/canonical.yaml',
      '--connections',
      '600',
      '--client',
      '192.168.0.12',
      '--json',
    );
    expect(n.status, n.stderr).toBe(0);
    const out = JSON.parse(n.stdout) as StatsJson;
    // node-2's host network: no balancer on the path, every connection enters node-2.
    expect(out.client).toBe('ip-192.168.0.12');
    expect(out.paths.every((p) => p.lbTarget === null && p.entryNode === 'node-2')).toBe(true);
    for (const bad of ['1e3', '0x10'])
      expect(
        datapath('stats', 'public/examples/canonical.yaml', '--connections', bad).stderr,
      ).toContain(`--connections ${bad}: must be a whole number from 1 to 100000`);
  }, 30_000);
});
