import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { runCli } from './run';

/** The CLI in this process, as `npm run datapath -- …` runs it (src/cli/main.ts only writes what it returns). */
const datapath = (...args: string[]) => runCli(args);

const FILE = 'public/examples/canonical.yaml';

describe('datapath CLI', () => {
  it('rules prints the node’s nat table with the NodePort rule kube-proxy writes', () => {
    const r = datapath('rules', '--node', 'node-2', FILE);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('*nat\n');
    // proxier.go syncProxyRules, "Capture nodeports": -m comment --comment S -m tcp -p tcp --dport NP -j KUBE-EXT-…
    expect(r.stdout).toContain(
      '-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web:http" -m tcp --dport 31000 -j KUBE-EXT-CDGGSHYLG3RE2FKL',
    );
  });

  it('flow on node-2 for a NodePort packet: DNAT to either pod, masqueraded (externalTrafficPolicy Cluster)', () => {
    const r = datapath(
      'flow',
      '--node',
      'node-2',
      '--src',
      '198.51.100.23',
      '--dst',
      '192.168.0.12',
      '--dport',
      '31000',
      FILE,
      '--json',
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      verdict: 'DNAT',
      endpoints: ['10.244.1.5:8080', '10.244.3.9:8080'],
      masquerade: true,
    });
  });

  it('flow in nftables and IPVS modes gives the same answer for the NodePort packet', () => {
    for (const mode of ['nftables', 'ipvs']) {
      const r = datapath(
        'flow',
        '--mode',
        mode,
        '--node',
        'node-2',
        '--src',
        '198.51.100.23',
        '--dst',
        '192.168.0.12',
        '--dport',
        '31000',
        FILE,
        '--json',
      );
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        verdict: 'DNAT',
        endpoints: ['10.244.1.5:8080', '10.244.3.9:8080'],
        masquerade: true,
      });
    }
  });

  it('rules --mode nftables prints the nft table', () => {
    const r = datapath('rules', '--mode', 'nftables', '--node', 'node-1', FILE);
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('table ip kube-proxy {')).toBe(true);
    expect(r.stdout).toContain('\t\tmeta l4proto tcp dnat to 10.244.1.5:8080');
  });

  it('flow for a packet no kube-proxy rule touches says NONE', () => {
    const r = datapath(
      'flow',
      '--node',
      'node-1',
      '--src',
      '198.51.100.23',
      '--dst',
      '10.244.1.5',
      '--dport',
      '8080',
      FILE,
      '--json',
    );
    expect(JSON.parse(r.stdout)).toEqual({ verdict: 'NONE', endpoints: [], masquerade: false });
  });

  it('trace --json ends delivered', () => {
    const r = datapath('trace', FILE, '--seed', '2', '--json');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).outcome.kind).toBe('delivered');
  });

  it('a bad argument gets a clear error on stderr and exit status 2', () => {
    const r = datapath('rules', '--node', 'node-9', FILE);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--node node-9: no such node (nodes: node-1, node-2, node-3)');
    const missing = datapath('trace', 'no-such-file.yaml');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read no-such-file.yaml');
  });

  // The one test that starts a process: the entry point itself writes the streams and sets
  // the exit status. A cold `npx tsx` start takes seconds on a busy 2-core machine.
  it('the entry point (npm run datapath) prints to stderr and exits 2 on a bad argument', () => {
    const r = spawnSync('npx', ['tsx', 'src/cli/main.ts', 'rules', '--node', 'node-9', FILE], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('datapath: --node node-9: no such node');
  }, 60_000);
});
