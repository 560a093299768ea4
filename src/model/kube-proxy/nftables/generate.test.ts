/**
 * The `ip kube-proxy` table, compared with what `nft list table ip kube-proxy` prints.
 *
 * How the expected text was made (see testdata/*.nft headers and testdata/regen.sh): the
 * `nft -f` lines are kube-proxy's own expectations from TestOverallNFTablesRules
 * (kubernetes pkg/proxy/nftables/proxier_test.go, `baseRules` and the per-service blocks,
 * read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212) — for the canonical
 * scenario with its names and addresses, in the order setupNFTables + syncProxyRules add
 * them — and each .list is the real nft 1.0.6's listing of that transaction, loaded in a
 * private network namespace. The printing rules this relies on are listed in ./format.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { DEFAULT_SCENE, applyScene, canonicalObjects, resolveCluster } from '../../index';
import type { SceneOptions } from '../../index';
import type { Cluster } from '../../scenario/cluster';
import { formatNftables } from './format';
import { generateNftables } from './generate';
import type { NftMap, NftRuleset } from './types';
import { OVERALL_SERVICE_CIDRS, TEST_HOSTNAME, overallCluster } from './testdata/overallCluster';
import { externalIPObjects } from '../testdata/externalIPService';

const DIR = 'src/model/kube-proxy/nftables/testdata';
const fixture = (name: string) => readFileSync(`${DIR}/${name}.list`, 'utf8');
const canonical = (scene: Partial<SceneOptions> = {}): Cluster =>
  resolveCluster(applyScene(canonicalObjects(), { ...DEFAULT_SCENE, ...scene }));
const listing = (c: Cluster, node: string) => formatNftables(generateNftables(c, node));
const chainText = (rs: NftRuleset, name: string) =>
  rs.chains.find((c) => c.name === name)?.rules.map((r) => r.text);
const map = (rs: NftRuleset, name: string) =>
  rs.sets.find((s): s is NftMap => s.kind === 'map' && s.name === name);

const SVC = 'service-SUSTUHLJ-default/web/tcp/http';
const EXT = 'external-SUSTUHLJ-default/web/tcp/http';
const LOCAL = 'local-SUSTUHLJ-default/web/tcp/http';

describe('golden: the canonical scenario, as nft lists it', () => {
  it.each([
    ['Cluster', 'node-1', 'cluster-node-1'],
    ['Cluster', 'node-2', 'cluster-node-2'],
    ['Local', 'node-1', 'local-node-1'],
    ['Local', 'node-2', 'local-node-2'],
  ] as const)('externalTrafficPolicy %s on %s', (policy, node, file) => {
    expect(listing(canonical({ externalTrafficPolicy: policy }), node)).toBe(fixture(file));
  });

  it('node-3 differs from node-1 only in its own address in nodeport-ips', () => {
    const c = canonical();
    expect(listing(c, 'node-3')).toBe(
      listing(c, 'node-1').replace('{ 192.168.0.11 }', '{ 192.168.0.13 }'),
    );
  });
});

/** Splits a listing into its blocks (`chain X { … }`, `set X { … }`, `map X { … }`). */
function blocks(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | undefined;
  let body: string[] = [];
  for (const line of text.split('\n')) {
    const open = /^\t(chain|set|map) (\S+) \{$/.exec(line);
    if (open) [name, body] = [`${open[1]} ${open[2]}`, []];
    else if (line === '\t}' && name) {
      out.set(name, body.join('\n'));
      name = undefined;
    } else if (name) body.push(line);
  }
  return out;
}

describe('TestOverallNFTablesRules (kube-proxy proxier_test.go)', () => {
  // The same six Services as the kube-proxy test; expected = nft's listing of the test's own
  // expected dump. Block order is compared separately: kube-proxy iterates Services in Go map
  // order, and the test itself compares sorted dumps.
  const rs = generateNftables(overallCluster(), TEST_HOSTNAME, {
    serviceCIDRs: OVERALL_SERVICE_CIDRS,
  });
  const got = blocks(formatNftables(rs));
  const want = blocks(fixture('overall'));

  it('has exactly the chains, sets and maps of the expected dump', () => {
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  });

  it.each([...want.keys()])('%s has the expected content', (name) => {
    expect(got.get(name)).toBe(want.get(name));
  });

  it('prints the table header and comment first', () => {
    expect(rs.lines.slice(0, 2).map((l) => l.text)).toEqual([
      'table ip kube-proxy {',
      '\tcomment "rules for kube-proxy"',
    ]);
  });
});

describe('lines', () => {
  const rs = generateNftables(canonical(), 'node-1');

  it('every rule has exactly one line carrying its id and chain', () => {
    const ids = rs.lines.flatMap((l) => (l.ruleId ? [l.ruleId] : []));
    const rules = rs.chains.flatMap((c) => c.rules);
    expect(ids).toEqual(rules.map((r) => r.id));
    for (const r of rules) {
      const line = rs.lines.find((l) => l.ruleId === r.id);
      expect(line?.text).toBe(`\t\t${r.text}`);
      expect(line?.chain).toBe(r.chain);
    }
  });

  it('set and map lines name their section', () => {
    expect(rs.lines.find((l) => l.text.includes('10.96.0.50 . tcp . 80'))?.chain).toBe(
      'map service-ips',
    );
  });

  it('throws for an unknown node', () => {
    expect(() => generateNftables(canonical(), 'node-9')).toThrow('unknown node "node-9"');
  });
});

describe('Service variants (proxier.go syncProxyRules)', () => {
  it('ipMode Proxy: the LB IP gets no service-ips element (serviceport.go IsVIPMode)', () => {
    for (const policy of ['Cluster', 'Local'] as const) {
      const c = canonical({ ipMode: 'Proxy', externalTrafficPolicy: policy });
      for (const node of ['node-1', 'node-2']) {
        const rs = generateNftables(c, node);
        const ips = [
          ...(map(rs, 'service-ips')?.elements ?? []),
          ...(map(rs, 'no-endpoint-services')?.elements ?? []),
        ].map((e) => e.ip);
        expect(ips).not.toContain('203.0.113.7');
        expect(ips).toContain('10.96.0.50');
        // The NodePort still leads to the external chain.
        expect(map(rs, 'service-nodeports')?.elements).toEqual([
          { proto: 'tcp', port: 31000, verdict: { kind: 'goto', chain: EXT } },
        ]);
      }
    }
  });

  it('no endpoints anywhere: reject-chain for every address, no Service chains', () => {
    const rs = generateNftables(canonical({ failedNodes: ['node-1', 'node-3'] }), 'node-2');
    expect(map(rs, 'no-endpoint-services')?.elements).toEqual([
      {
        ip: '10.96.0.50',
        proto: 'tcp',
        port: 80,
        comment: 'default/web:http',
        verdict: { kind: 'goto', chain: 'reject-chain' },
      },
      {
        ip: '203.0.113.7',
        proto: 'tcp',
        port: 80,
        comment: 'default/web:http',
        verdict: { kind: 'goto', chain: 'reject-chain' },
      },
    ]);
    expect(map(rs, 'no-endpoint-nodeports')?.elements).toEqual([
      {
        proto: 'tcp',
        port: 31000,
        comment: 'default/web:http',
        verdict: { kind: 'goto', chain: 'reject-chain' },
      },
    ]);
    expect(map(rs, 'service-ips')?.elements).toEqual([]);
    expect(rs.chains.filter((c) => c.name.includes('/'))).toEqual([]);
    expect(formatNftables(rs)).toContain('\t\telements = { 10.96.0.50 }\n');
  });

  it('nodePortAddresses 0.0.0.0/0 matches all local IPs: no nodeport-ips set, fib rule', () => {
    const c = canonical();
    c.kubeProxy.nodePortAddresses = ['0.0.0.0/0'];
    const rs = generateNftables(c, 'node-1');
    expect(rs.sets.map((s) => s.name)).not.toContain('nodeport-ips');
    expect(chainText(rs, 'services')).toEqual([
      'ip daddr . meta l4proto . th dport vmap @service-ips',
      'fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports',
    ]);
    expect(chainText(rs, 'nodeport-endpoints-check')).toEqual([
      'ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @no-endpoint-nodeports',
    ]);
  });

  it('explicit nodePortAddresses select the matching node addresses, never loopback', () => {
    const c = canonical();
    c.kubeProxy.nodePortAddresses = ['192.168.0.0/16', '127.0.0.0/8'];
    const rs = generateNftables(c, 'node-2');
    expect(rs.sets.find((s) => s.name === 'nodeport-ips')?.elements).toEqual(['192.168.0.12']);
  });

  it('loadBalancerSourceRanges: firewall-ips element and a drop for other sources', () => {
    // TestLoadBalancer: ranges 192.168.0.0/24 (holds the node IP) and " 203.0.113.0/25";
    // a range holding the node IP also allows the LB IPs themselves (allowFromNode).
    const c = canonical();
    const svc = c.services[0];
    if (!svc) throw new Error('no service');
    svc.loadBalancerSourceRanges = [' 198.51.100.0/24', '192.168.0.0/24'];
    const rs = generateNftables(c, 'node-1');
    const fw = 'firewall-SUSTUHLJ-default/web/tcp/http';
    expect(map(rs, 'firewall-ips')?.elements).toEqual([
      { ip: '203.0.113.7', proto: 'tcp', port: 80, verdict: { kind: 'goto', chain: fw } },
    ]);
    // nft sorts the anonymous set and merges an address into a range holding it (checked
    // with nft 1.0.6: `{ 203.0.113.0/25 , 192.168.0.0/24 , 203.0.113.7 }` lists as
    // `{ 192.168.0.0/24, 203.0.113.0/25 }`).
    expect(chainText(rs, fw)).toEqual([
      'ip saddr != { 192.168.0.0/24, 198.51.100.0/24, 203.0.113.7 } drop',
    ]);
    svc.loadBalancerSourceRanges = ['203.0.113.0/25', '192.168.0.0/24'];
    expect(chainText(generateNftables(c, 'node-1'), fw)).toEqual([
      'ip saddr != { 192.168.0.0/24, 203.0.113.0/25 } drop',
    ]);
    svc.loadBalancerSourceRanges = ['0.0.0.0/0'];
    expect(chainText(generateNftables(c, 'node-1'), fw)).toBeUndefined();
  });

  it('ClientIP affinity: an affinity set per endpoint, checked before numgen', () => {
    const c = canonical();
    const svc = c.services[0];
    if (!svc) throw new Error('no service');
    svc.sessionAffinity = 'ClientIP';
    svc.affinityTimeoutSeconds = 3600;
    const text = listing(c, 'node-1');
    const aff1 = 'affinity-HGNPOIJ5-default/web/tcp/http__10.244.1.5/8080';
    expect(text).toContain(
      `\tset ${aff1} {\n\t\ttype ipv4_addr\n\t\tsize 65535\n\t\tflags dynamic,timeout\n\t\ttimeout 1h\n\t}\n`,
    );
    const rs = generateNftables(c, 'node-1');
    expect(chainText(rs, SVC)?.[1]).toBe(
      `ip saddr @${aff1} goto endpoint-HGNPOIJ5-default/web/tcp/http__10.244.1.5/8080`,
    );
    expect(chainText(rs, 'endpoint-HGNPOIJ5-default/web/tcp/http__10.244.1.5/8080')).toEqual([
      'ip saddr 10.244.1.5 jump mark-for-masquerade',
      `update @${aff1} { ip saddr }`,
      'meta l4proto tcp dnat to 10.244.1.5:8080',
    ]);
  });

  it('masqueradeAll: every ClusterIP connection is marked', () => {
    // nftables mode takes masqueradeAll from `nftables.masqueradeAll` (v1alpha1
    // conversion.go: Linux.MasqueradeAll = in.NFTables.MasqueradeAll in nftables mode), so
    // `iptables.masqueradeAll` leaves its rules alone.
    const c = canonical();
    c.kubeProxy.masqueradeAll = true;
    const plain =
      'ip daddr 10.96.0.50 tcp dport 80 ip saddr != 10.244.0.0/16 jump mark-for-masquerade';
    expect(chainText(generateNftables(c, 'node-1'), SVC)?.[0]).toBe(plain);
    c.kubeProxy.nftablesMasqueradeAll = true;
    expect(chainText(generateNftables(c, 'node-1'), SVC)?.[0]).toBe(
      'ip daddr 10.96.0.50 tcp dport 80 jump mark-for-masquerade',
    );
  });

  it('internalTrafficPolicy Local: ClusterIP goes to local-, or is dropped without local endpoints', () => {
    const c = canonical();
    const svc = c.services[0];
    if (!svc) throw new Error('no service');
    svc.internalTrafficPolicy = 'Local';
    const one = generateNftables(c, 'node-1');
    expect(map(one, 'service-ips')?.elements.find((e) => e.ip === '10.96.0.50')?.verdict).toEqual({
      kind: 'goto',
      chain: LOCAL,
    });
    expect(chainText(one, LOCAL)?.[0]).toBe(
      'ip daddr 10.96.0.50 tcp dport 80 ip saddr != 10.244.0.0/16 jump mark-for-masquerade',
    );
    const two = generateNftables(c, 'node-2');
    expect(map(two, 'no-endpoint-services')?.elements).toEqual([
      {
        ip: '10.96.0.50',
        proto: 'tcp',
        port: 80,
        comment: 'default/web:http',
        verdict: { kind: 'drop' },
      },
    ]);
  });

  it('detectLocalMode NodeCIDR uses the node’s podCIDR; no detector, no masquerade rule', () => {
    const c = canonical();
    c.kubeProxy.detectLocalMode = 'NodeCIDR';
    expect(chainText(generateNftables(c, 'node-2'), SVC)?.[0]).toBe(
      'ip daddr 10.96.0.50 tcp dport 80 ip saddr != 10.244.2.0/24 jump mark-for-masquerade',
    );
    c.kubeProxy.detectLocalMode = 'ClusterCIDR';
    c.kubeProxy.clusterCIDR = '';
    expect(chainText(generateNftables(c, 'node-2'), SVC)?.[0]).toMatch(/^numgen random mod 2/);
  });

  it('records what it assumed', () => {
    expect(generateNftables(canonical(), 'node-1').assumed).toEqual([
      "assumed: Service CIDR 10.96.0.0/12 (kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range; no ServiceCIDR given) for cluster-ips-check",
    ]);
  });
});

// Issue 14: a ClusterIP Service with externalIPs is externally accessible
// (pkg/api/v1/service/util.go ExternalPolicyLocal), so Local applies to its external IP.
// The expected rules are TestOverallNFTablesRules' own for the same shapes, with this
// Service's names: svc2 (Local, no local endpoint: `service-ips` still leads to the external
// chain, which keeps its three short-circuit rules, and `no-endpoint-services` drops the
// rest) and svc4 (an externalIP under Cluster: mark, then the service chain); and
// proxier.go syncProxyRules: `if hasExternalEndpoints` adds `goto <local chain>`.
describe('externalIPs on a ClusterIP Service (TestOverallNFTablesRules svc2/svc4 shapes)', () => {
  const gen = (
    externalTrafficPolicy: 'Cluster' | 'Local' | undefined,
    localEndpoint = true,
  ): NftRuleset =>
    generateNftables(
      resolveCluster(externalIPObjects({ mode: 'nftables', externalTrafficPolicy, localEndpoint })),
      'test-hostname',
    );
  const S = 'service-ULMVA6XW-ns1/svc1/tcp/p80';
  const X = 'external-ULMVA6XW-ns1/svc1/tcp/p80';
  const L = 'local-ULMVA6XW-ns1/svc1/tcp/p80';
  const shortCircuit = [
    `ip saddr 10.0.0.0/8 goto ${S} comment "short-circuit pod traffic"`,
    'fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"',
    `fib saddr type local goto ${S} comment "short-circuit local traffic"`,
  ];
  const serviceIPs = [
    { ip: '172.30.0.41', proto: 'tcp', port: 80, verdict: { kind: 'goto', chain: S } },
    { ip: '192.168.99.11', proto: 'tcp', port: 80, verdict: { kind: 'goto', chain: X } },
  ];

  it('Local with a local endpoint: the external chain ends in the local chain', () => {
    const rs = gen('Local');
    expect(map(rs, 'service-ips')?.elements).toEqual(serviceIPs);
    expect(chainText(rs, X)).toEqual([...shortCircuit, `goto ${L}`]);
    // Only this node's endpoint (the chain's hash is servicePortEndpointChainName's).
    expect(chainText(rs, L)).toHaveLength(1);
    expect(chainText(rs, L)?.[0]).toMatch(
      /^numgen random mod 1 vmap \{ 0 : goto endpoint-[A-Z2-7]{8}-ns1\/svc1\/tcp\/p80__10\.180\.2\.1\/80 \}$/,
    );
    expect(map(rs, 'no-endpoint-services')?.elements).toEqual([]);
  });

  it('Local without a local endpoint: the no-endpoint-services drop element', () => {
    const rs = gen('Local', false);
    expect(map(rs, 'service-ips')?.elements).toEqual(serviceIPs);
    expect(chainText(rs, X)).toEqual(shortCircuit);
    expect(chainText(rs, L)).toBeUndefined();
    expect(map(rs, 'no-endpoint-services')?.elements).toEqual([
      {
        ip: '192.168.99.11',
        proto: 'tcp',
        port: 80,
        comment: 'ns1/svc1:p80',
        verdict: { kind: 'drop' },
      },
    ]);
  });

  it('Cluster (the default): mark for masquerade, then every endpoint', () => {
    for (const policy of [undefined, 'Cluster'] as const) {
      const rs = gen(policy);
      expect(chainText(rs, X)).toEqual(['jump mark-for-masquerade', `goto ${S}`]);
      expect(chainText(rs, L)).toBeUndefined();
    }
  });
});
