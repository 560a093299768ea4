/**
 * The nftables walker on the canonical scenario and on kube-proxy's own packet-flow cases
 * (kubernetes pkg/proxy/nftables/proxier_test.go: TestNoEndpointsReject, TestClusterIPGeneral,
 * TestLoadBalancer, read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212).
 */
import { describe, it, expect } from 'vitest';
import { DEFAULT_SCENE, applyScene, canonicalObjects, resolveCluster } from '../../index';
import type { SceneOptions } from '../../index';
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import { flowVerdict } from '../flow';
import type { ChoiceOption, ModePacket, ModeProcessing, Origin } from '../types';
import { generateNftables } from './generate';
import { nftablesMode } from './index';
import { OVERALL_SERVICE_CIDRS, TEST_HOSTNAME, overallCluster } from './testdata/overallCluster';
import { processNftables } from './walk';

const canonical = (scene: Partial<SceneOptions> = {}): Cluster =>
  resolveCluster(applyScene(canonicalObjects(), { ...DEFAULT_SCENE, ...scene }));
const nodeOf = (c: Cluster, name: string): ClusterNode => {
  const n = c.nodes.find((x) => x.name === name);
  if (!n) throw new Error(name);
  return n;
};
const pkt = (
  src: string,
  dst: string,
  dport: number,
  protocol: 'tcp' | 'udp' = 'tcp',
): ModePacket => ({
  protocol,
  src,
  sport: 51234,
  dst,
  dport,
  mark: 0,
});

/** Runs the walk, recording every choice offered; `pick` chooses the option index. */
function run(
  c: Cluster,
  node: string,
  p: ModePacket,
  origin: Origin = 'network',
  pick = 0,
  opts: { serviceCIDRs?: string[] } = {},
): ModeProcessing & { offered: ChoiceOption[][]; lineIds: Set<string> } {
  const rs = generateNftables(c, node, opts);
  const offered: ChoiceOption[][] = [];
  const proc = processNftables(rs, nodeOf(c, node), p, origin, (o) => {
    offered.push(o);
    return pick;
  });
  const lineIds = new Set(rs.lines.flatMap((l) => (l.ruleId ? [l.ruleId] : [])));
  return { ...proc, offered, lineIds };
}
const roles = (p: ModeProcessing) => p.hits.flatMap((h) => (h.role ? [h.role] : []));
/** kube-proxy's packet-flow outcome words: an `ip:port`, `DROP`, `REJECT` or `ACCEPT`. */
const outcome = (p: ModeProcessing) =>
  p.fate.kind === 'drop'
    ? 'DROP'
    : p.fate.kind === 'reject'
      ? 'REJECT'
      : p.dnat
        ? `${p.packet.dst}:${p.packet.dport}`
        : 'ACCEPT';
const masq = (p: ModeProcessing) => p.fate.kind === 'forward' && p.fate.masquerade;

const CLIENT = '198.51.100.23';

describe('default scene: an external packet to node-1:31000', () => {
  const c = canonical();
  for (const [pick, ep] of [
    [0, '10.244.1.5'],
    [1, '10.244.3.9'],
  ] as const) {
    it(`is DNATed to ${ep}:8080 when the choice is ${pick}, and masqueraded`, () => {
      const p = run(c, 'node-1', pkt(CLIENT, '192.168.0.11', 31000), 'network', pick);
      expect(p.offered).toEqual([
        [
          { endpoint: '10.244.1.5:8080', probability: 0.5 },
          { endpoint: '10.244.3.9:8080', probability: 0.5 },
        ],
      ]);
      expect(p.dnat).toBe(true);
      expect(p.packet).toMatchObject({ src: CLIENT, dst: ep, dport: 8080 });
      expect(p.fate).toEqual({ kind: 'forward', masquerade: true });
      expect(roles(p)).toEqual(['capture', 'ext', 'mark', 'choose', 'dnat', 'snat']);
      for (const h of p.hits) expect(p.lineIds.has(h.ruleId)).toBe(true);
    });
  }

  it('names each role’s rule as nft lists it', () => {
    const p = run(c, 'node-1', pkt(CLIENT, '192.168.0.11', 31000));
    const byRole = Object.fromEntries(
      p.hits.flatMap((h) => (h.role ? [[h.role, h] as const] : [])),
    );
    expect(byRole.capture?.text).toBe(
      'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports',
    );
    expect(byRole.capture?.chain).toBe('services');
    expect(byRole.capture?.table).toBe('ip kube-proxy');
    expect(byRole.ext?.text).toBe('jump mark-for-masquerade');
    expect(byRole.mark?.packet.mark).toBe(0x4000);
    expect(byRole.choose?.text).toMatch(/^numgen random mod 2 vmap \{ 0 : goto endpoint-HGNPOIJ5/);
    expect(byRole.choose?.choice?.chosen).toBe(0);
    expect(byRole.dnat?.text).toBe('meta l4proto tcp dnat to 10.244.1.5:8080');
    expect(byRole.snat?.text).toBe('masquerade fully-random');
    // The first rules seen are the base chains' jumps, in priority order.
    expect(p.hits.slice(0, 2).map((h) => `${h.chain}: ${h.text}`)).toEqual([
      'filter-prerouting: ct state new jump firewall-check',
      'nat-prerouting: jump services',
    ]);
  });

  it('is not a NodePort on another node’s address (nodeport-ips is the node’s own IP)', () => {
    const p = run(c, 'node-1', pkt(CLIENT, '192.168.0.12', 31000));
    expect(p.dnat).toBe(false);
    expect(roles(p)).toEqual([]);
  });

  it('flowVerdict over every choice: both endpoints, masqueraded', () => {
    expect(
      flowVerdict(
        nftablesMode,
        nftablesMode.generate(c, 'node-2'),
        nodeOf(c, 'node-2'),
        pkt(CLIENT, '192.168.0.12', 31000),
        'network',
      ),
    ).toEqual({
      verdict: 'DNAT',
      endpoints: ['10.244.1.5:8080', '10.244.3.9:8080'],
      masquerade: true,
    });
  });
});

describe('externalTrafficPolicy: Local', () => {
  const c = canonical({ externalTrafficPolicy: 'Local' });

  it('node-2 (no local endpoint) drops the NodePort in nodeport-endpoints-check', () => {
    const p = run(c, 'node-2', pkt(CLIENT, '192.168.0.12', 31000));
    expect(p.dnat).toBe(false);
    expect(roles(p)).toEqual(['capture', 'drop']);
    if (p.fate.kind !== 'drop') throw new Error(p.fate.kind);
    expect(p.fate.hit.chain).toBe('nodeport-endpoints-check');
    expect(p.fate.hit.text).toBe(
      'ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports',
    );
  });

  it('node-2 drops the LB VIP in service-endpoints-check (forward hook)', () => {
    const p = run(c, 'node-2', pkt(CLIENT, '203.0.113.7', 80));
    expect(outcome(p)).toBe('DROP');
    expect(p.fate.kind === 'drop' && p.fate.hit.chain).toBe('service-endpoints-check');
  });

  it('node-1 sends external traffic to its own endpoint only, keeping the client address', () => {
    const p = run(c, 'node-1', pkt(CLIENT, '192.168.0.11', 31000));
    expect(p.offered).toEqual([[{ endpoint: '10.244.1.5:8080', probability: 1 }]]);
    expect(outcome(p)).toBe('10.244.1.5:8080');
    expect(masq(p)).toBe(false);
    const ext = p.hits.find((h) => h.role === 'ext');
    expect(ext?.text).toBe('goto local-SUSTUHLJ-default/web/tcp/http');
  });

  it('a pod’s packet to the LB IP is short-circuited to every endpoint, not masqueraded', () => {
    const p = run(c, 'node-2', pkt('10.244.2.4', '203.0.113.7', 80), 'local-pod', 1);
    expect(p.hits.find((h) => h.role === 'ext')?.text).toMatch(
      /comment "short-circuit pod traffic"$/,
    );
    expect(p.offered[0]?.map((o) => o.endpoint)).toEqual(['10.244.1.5:8080', '10.244.3.9:8080']);
    expect(outcome(p)).toBe('10.244.3.9:8080');
    expect(masq(p)).toBe(false);
  });

  it('the node itself reaching its NodePort is masqueraded and short-circuited', () => {
    const p = run(c, 'node-2', pkt('192.168.0.12', '192.168.0.12', 31000), 'local-host');
    expect(p.hits[0]?.chain).toBe('filter-output');
    expect(outcome(p)).toBe('10.244.1.5:8080');
    expect(masq(p)).toBe(true);
    expect(roles(p)).toEqual(['capture', 'ext', 'mark', 'choose', 'dnat', 'snat']);
  });
});

describe('ipMode: Proxy', () => {
  it('203.0.113.7 is not in service-ips: the packet is routed on untouched', () => {
    const c = canonical({ ipMode: 'Proxy' });
    const p = run(c, 'node-1', pkt(CLIENT, '203.0.113.7', 80));
    expect(roles(p)).toEqual([]);
    expect(p.dnat).toBe(false);
    expect(p.fate).toEqual({ kind: 'forward', masquerade: false });
  });
});

describe('TestNoEndpointsReject / TestClusterIPGeneral flows, on the canonical scenario', () => {
  const none = canonical({ failedNodes: ['node-1', 'node-3'] });
  it.each([
    ['pod to cluster IP with no endpoints', '10.244.2.4', '10.96.0.50', 80, 'local-pod'],
    ['pod to NodePort with no endpoints', '10.244.2.4', '192.168.0.12', 31000, 'local-pod'],
    ['external to NodePort with no endpoints', CLIENT, '192.168.0.12', 31000, 'network'],
    ['pod to LoadBalancer IP with no endpoints', '10.244.2.4', '203.0.113.7', 80, 'local-pod'],
    ['external to LoadBalancer IP with no endpoints', CLIENT, '203.0.113.7', 80, 'network'],
  ] as const)('%s: REJECT', (_name, src, dst, port, origin) => {
    const p = run(none, 'node-2', pkt(src, dst, port), origin);
    expect(outcome(p)).toBe('REJECT');
    expect(p.fate.kind === 'reject' && p.fate.hit.chain).toBe('reject-chain');
  });

  const c = canonical();
  it.each([
    ['simple clusterIP', '10.244.2.4', '10.96.0.50', 80, 'tcp', 0, '10.244.1.5:8080', false],
    ['hairpin to cluster IP', '10.244.1.5', '10.96.0.50', 80, 'tcp', 0, '10.244.1.5:8080', true],
    [
      'off-cluster source to cluster IP',
      CLIENT,
      '10.96.0.50',
      80,
      'tcp',
      1,
      '10.244.3.9:8080',
      true,
    ],
    [
      'TCP-only port does not match UDP traffic',
      '10.244.2.4',
      '10.96.0.50',
      80,
      'udp',
      0,
      'REJECT',
      false,
    ],
    [
      'the Service does not accept other ports',
      '10.244.2.4',
      '10.96.0.50',
      443,
      'tcp',
      0,
      'REJECT',
      false,
    ],
    ['packet to unallocated cluster ip', '10.244.2.4', '10.96.0.99', 80, 'tcp', 0, 'DROP', false],
  ] as const)('%s', (_name, src, dst, port, proto, pick, want, wantMasq) => {
    const p = run(c, 'node-2', pkt(src, dst, port, proto), 'local-pod', pick);
    expect(outcome(p)).toBe(want);
    expect(masq(p)).toBe(wantMasq);
  });
});

describe('TestLoadBalancer flows (loadBalancerSourceRanges), on TestOverallNFTablesRules’ svc5', () => {
  const c = overallCluster();
  const opts = { serviceCIDRs: OVERALL_SERVICE_CIDRS };
  it.each([
    ['accepted external to LB', '203.0.113.2', '5.6.7.8', 80, '10.180.0.3:80', true],
    ['blocked external to LB', '203.0.113.130', '5.6.7.8', 80, 'DROP', false],
    [
      'nodePort bypasses LoadBalancerSourceRanges',
      '203.0.113.130',
      '192.168.0.2',
      3002,
      '10.180.0.3:80',
      true,
    ],
    ['pod to cluster IP', '10.0.0.2', '172.30.0.45', 80, '10.180.0.3:80', false],
  ] as const)('%s', (_name, src, dst, port, want, wantMasq) => {
    const p = run(c, TEST_HOSTNAME, pkt(src, dst, port), 'network', 0, opts);
    expect(outcome(p)).toBe(want);
    expect(masq(p)).toBe(wantMasq);
  });

  it('the firewall check comes first, in filter-prerouting', () => {
    const p = run(c, TEST_HOSTNAME, pkt('203.0.113.130', '5.6.7.8', 80), 'network', 0, opts);
    expect(roles(p)).toEqual(['firewall', 'drop']);
    expect(p.hits.map((h) => h.chain)).toEqual([
      'filter-prerouting',
      'firewall-check',
      'firewall-HVFWP5L3-ns5/svc5/tcp/p80',
    ]);
  });

  it('session affinity: no client is remembered yet, so numgen decides; the set is updated', () => {
    const p = run(c, TEST_HOSTNAME, pkt('203.0.113.2', '5.6.7.8', 80), 'network', 0, opts);
    expect(p.hits.map((h) => h.text)).toContain(
      'update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr }',
    );
    expect(p.offered).toHaveLength(1);
  });
});

describe('walk mechanics', () => {
  it('throws when the chooser returns an index out of range', () => {
    const c = canonical();
    const rs = generateNftables(c, 'node-1');
    expect(() =>
      processNftables(
        rs,
        nodeOf(c, 'node-1'),
        pkt(CLIENT, '192.168.0.11', 31000),
        'network',
        () => 5,
      ),
    ).toThrow(/out of range/);
  });

  it('does not mutate the input packet', () => {
    const c = canonical();
    const input = pkt(CLIENT, '192.168.0.11', 31000);
    run(c, 'node-1', input);
    expect(input).toEqual(pkt(CLIENT, '192.168.0.11', 31000));
  });

  it('a packet for the node itself that no rule takes is delivered locally', () => {
    const p = run(canonical(), 'node-1', pkt(CLIENT, '192.168.0.11', 22));
    expect(p.fate).toEqual({ kind: 'local' });
    expect(p.hits.map((h) => h.chain)).toEqual([
      'filter-prerouting',
      'nat-prerouting',
      'filter-input',
      'filter-input',
    ]);
  });
});
