import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run';
import { importSources, problemLine } from '../model/import/importer';

/** The CLI in this process, as `npm run datapath -- …` runs it (src/cli/main.ts only writes what it returns). */
const datapath = (...args: string[]) => runCli(args);

const FILE = 'public/examples/canonical.yaml';
const canonical = () => readFileSync(FILE, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'datapath-cli-'));
/** Writes `text` to a file of that name in a fresh temporary folder; returns its path. */
function temp(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

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

  it('an input the API server would refuse exits 2, naming the field, the range and FILE:LINE:COLUMN', () => {
    // pkg/registry/core/service/portallocator: "provided port is not in the valid range. The
    // range of valid ports is 30000-32767" (the default --service-node-port-range).
    const bad = temp('np.yaml', canonical().replace('nodePort: 31000', 'nodePort: 29999'));
    const line =
      canonical()
        .split('\n')
        .findIndex((l) => l.includes('nodePort: 31000')) + 1;
    for (const cmd of [
      ['trace'],
      ['rules', '--node', 'node-1'],
      ['stats', '--connections', '10'],
    ]) {
      const r = datapath(...cmd, bad);
      expect(r.status, cmd[0]).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${bad}:${line}:17: Service default/web: spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767\n`,
      );
      expect(r.stderr).toContain('datapath: 1 error in the input');
    }
  });

  it('a syntax error is given once, at FILE:LINE:COLUMN', () => {
    const bad = temp('syntax.yaml', 'kind: Service\nmetadata: {name: web\n');
    const r = datapath('trace', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^${bad.replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+: (?!line )`, 'm'),
    );
  });

  it('several files are one cluster: a NodePort used in both is already allocated', () => {
    // kubectl apply -f a -f b sends both to one API server; the second Service's nodePort is
    // refused by the allocator: "provided port is already allocated" (portallocator ErrAllocated).
    const other = canonical()
      .split('\n---\n')
      .find((d) => /^kind: Service$/m.test(d))
      ?.replace(/name: web$/m, 'name: web2');
    const second = temp('second.yaml', other ?? '');
    const r = datapath('trace', FILE, second);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `${second.replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+: Service default/web2: spec\\.ports\\[0\\]\\.nodePort: Invalid value: 31000: provided port is already allocated`,
      ),
    );
  });

  it('assumptions and skipped kinds go to stderr; stdout holds only the answer', () => {
    const r = datapath('trace', 'public/examples/eks-hostname.yaml', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).outcome.kind).toBe('delivered');
    expect(r.stderr).toMatch(/^assumed: Service default\/web published only the hostname /m);
    const withDeployment = temp(
      'with-deployment.yaml',
      `${canonical()}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n`,
    );
    const rules = datapath('rules', '--node', 'node-1', withDeployment);
    expect(rules.status, rules.stderr).toBe(0);
    expect(rules.stderr).toContain(`${withDeployment}: skipped Deployment shop/web\n`);
    expect(rules.stdout).not.toContain('skipped');
  });

  it('the CLI and the app agree: the same inputs refused, with the same lines', () => {
    const inputs = [
      canonical(),
      canonical().replace('nodePort: 31000', 'nodePort: 99999'),
      canonical().replace('targetPort: 8080', 'targetPort: .nan'),
      canonical().replace('externalTrafficPolicy: Cluster', 'externalTrafficPolicy: Locale'),
      canonical().replace(/^kind: Service$/m, 'kind: Deployment'),
      'kind: Service\nmetadata: {name: web\n',
      '',
    ];
    const statuses = inputs.map((text, i) => {
      const file = temp(`agree-${i}.yaml`, text);
      // What the app's dialog runs (src/ui/import/analyse.ts is this call on the editor's text).
      const app = importSources([{ name: '', text }]);
      const cli = datapath('trace', file);
      expect(cli.status, `input ${i}: ${cli.stderr}`).toBe(app.blocked ? 2 : 0);
      for (const p of app.problems.filter((x) => x.severity === 'error'))
        expect(cli.stderr).toContain(problemLine({ ...p, source: file }));
      return cli.status;
    });
    // Only the first is valid: 99999 is no port, .nan no integer, "Locale" no policy
    // (validation.go: supportedServiceExternalTrafficPolicy), then no Service, a syntax error,
    // nothing at all.
    expect(statuses).toEqual([0, 2, 2, 2, 2, 2, 2]);
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
