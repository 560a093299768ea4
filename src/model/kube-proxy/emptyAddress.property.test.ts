/**
 * No rule line, in any mode, names an empty address — over generated clusters whose Services
 * lack `spec.clusterIP` (allocated at import, ../import/allocate.ts), have one, are headless
 * (`None`, which kube-proxy skips: pkg/proxy/util/utils.go ShouldSkipService) or ExternalName,
 * with externalIPs (IPv4, IPv6, empty: the IPv4 proxier keeps IPv4 ones, MapIPsByIPFamily),
 * load-balancer ingress (IP, hostname only, `ipMode: Proxy`), source ranges, both traffic
 * policies and session affinity. Each cluster goes the importer's way: fillGaps →
 * resolveCluster → every mode's generator on every node.
 *
 * "An empty address", precisely — a place where the tools print an IPv4 address (which starts
 * with a digit) and the line has something else:
 * - iptables-save: `-d`, `-s` or `--to-destination` not followed by a digit (`-d /32`,
 *   `-d  -p`, `-d None/32`, `--to-destination :8080`);
 * - nft: `ip saddr|daddr` (optionally `!=`) not followed by a digit, `@set` or `{` (the
 *   `ip daddr . meta l4proto` lookup key and `update @set { ip saddr }` name the packet's
 *   field, not an address); `dnat to` not followed by a digit; a set or map element list with
 *   an empty member (`{ ,`, `, ,`, `, }`, `{ . tcp`, `, . tcp`); an endpoint chain named
 *   `…__/8080`;
 * - ipvsadm / ipset / ip addr: a virtual or real server not starting with a digit
 *   (`TCP  :80`, `-> :8080`; the `-> RemoteAddress:Port` header aside), an ipset entry
 *   starting with `,`, an `inet … scope` address line whose address does not start with a
 *   digit;
 * - anywhere: a prefix length with no address before it (`/32` after a space, `{`, `,` or
 *   `(`), and the literal `undefined`, `NaN`, `null` or `None`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScenarioObject, Service } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import { fillGaps } from '../import/fill';
import { resolveCluster } from '../scenario/resolve';
import { cidrContains } from '../net/ip';
import { modelledModes, proxyMode } from './modes';

const EMPTY_ADDRESS: [string, RegExp][] = [
  ['iptables flag without an address', /(^|\s)(-d|-s|--to-destination)\s+(?![\d\s])/],
  // (`update @set { ip saddr }` names the packet's field, not an address.)
  ['nft address match without an address', /(?<!\{ )\bip [sd]addr (?!(!= )?[\d@{]|\. )/],
  ['nft dnat without an address', /dnat to (?!\d)/],
  ['nft element list with an empty member', /\{\s*[,.]|,\s*[,}]|,\s+\.\s/],
  ['nft endpoint chain without an address', /__\/\d/],
  ['ipvs server without an address', /^(TCP|UDP|SCTP)\s+(?![\d\s])|->\s+(?![\d\s]|RemoteAddress)/],
  ['ipset entry without an address', /^,/],
  ['kube-ipvs0 address without an address', /\binet (?!\d).*\bscope\b/],
  ['prefix length without an address', /(^|[\s{,(])\/\d/],
  ['a value that is no address', /\b(undefined|NaN|null|None)\b/],
];

/** The first way `line` names an empty address, or undefined. */
export function emptyAddress(line: string): string | undefined {
  return EMPTY_ADDRESS.find(([, re]) => re.test(line))?.[0];
}

type Svc = Service & { kind: 'Service' };

const clusterIP = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constant(''),
  fc.constant('None'),
  fc.integer({ min: 2, max: 250 }).map((n) => `10.96.0.${n}`),
);
const externalIPs = fc.subarray(['203.0.113.50', '203.0.113.51', '2001:db8::50', '']);
type Ingress = { ip?: string; hostname?: string; ipMode?: string }[];
const ingress = fc.constantFrom<Ingress>(
  [],
  [{ ip: '203.0.113.7' }],
  [{ hostname: 'a1b2.elb.us-east-1.amazonaws.com' }],
  [{ ip: '203.0.113.8', ipMode: 'Proxy' }],
  [{ ip: '' }],
  [{ ip: '2001:db8::7' }, { ip: '203.0.113.9' }],
);
const service = (i: number) =>
  fc
    .record({
      type: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'),
      clusterIP,
      withClusterIPs: fc.boolean(),
      externalIPs,
      ingress,
      etp: fc.constantFrom('Cluster', 'Local'),
      itp: fc.constantFrom('Cluster', 'Local'),
      affinity: fc.constantFrom('None', 'ClientIP'),
      ranges: fc.subarray(['10.0.0.0/8', '192.168.0.0/16', '2001:db8::/32']),
      twoPorts: fc.boolean(),
      selects: fc.boolean(),
    })
    .map((s): Svc => {
      const external = s.type === 'NodePort' || s.type === 'LoadBalancer';
      const ports = [
        {
          name: 'http',
          port: 80,
          targetPort: 8080,
          protocol: 'TCP',
          ...(external ? { nodePort: 30100 + i * 2 } : {}),
        },
        ...(s.twoPorts
          ? [
              {
                name: 'dns',
                port: 53,
                targetPort: 5353,
                protocol: 'UDP',
                ...(external ? { nodePort: 30101 + i * 2 } : {}),
              },
            ]
          : []),
      ];
      return {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `svc-${i}`, namespace: 'default' },
        spec: {
          type: s.type,
          ...(s.clusterIP !== undefined ? { clusterIP: s.clusterIP } : {}),
          ...(s.withClusterIPs && s.clusterIP ? { clusterIPs: [s.clusterIP] } : {}),
          ...(s.type === 'ExternalName' ? { externalName: 'db.example.com' } : {}),
          selector: { app: s.selects ? 'web' : 'nobody' },
          ports,
          externalIPs: s.externalIPs,
          ...(external ? { externalTrafficPolicy: s.etp } : {}),
          internalTrafficPolicy: s.itp,
          sessionAffinity: s.affinity,
          ...(s.type === 'LoadBalancer' ? { loadBalancerSourceRanges: s.ranges } : {}),
        },
        ...(s.type === 'LoadBalancer' ? { status: { loadBalancer: { ingress: s.ingress } } } : {}),
      } as Svc;
    });

const cluster = fc
  .record({
    nodes: fc.integer({ min: 1, max: 3 }),
    pods: fc.array(fc.record({ node: fc.nat(2), ready: fc.boolean() }), { maxLength: 5 }),
    services: fc
      .integer({ min: 1, max: 4 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => service(i)))),
    mode: fc.constantFrom('iptables', 'nftables', 'ipvs'),
    nodePortAddresses: fc.constantFrom<string[][]>(
      [],
      ['primary'],
      ['192.168.0.0/24'],
      ['0.0.0.0/0'],
    ),
    serviceCIDR: fc.constantFrom(undefined, '10.96.0.0/16', '10.96.0.0/24'),
  })
  .map((c): ScenarioObject[] => {
    const nodes: ScenarioObject[] = Array.from({ length: c.nodes }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: `node-${i + 1}` },
      spec: { podCIDR: `10.244.${i + 1}.0/24` },
      status: {
        addresses: [{ type: 'InternalIP', address: `192.168.0.${11 + i}` }],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    }));
    const pods: ScenarioObject[] = c.pods.map((p, i) => {
      const node = (p.node % c.nodes) + 1;
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `web-${i}`, namespace: 'default', labels: { app: 'web' } },
        spec: { nodeName: `node-${node}`, containers: [{ name: 'web' }] },
        status: {
          phase: 'Running',
          podIP: `10.244.${node}.${10 + i}`,
          conditions: [{ type: 'Ready', status: p.ready ? 'True' : 'False' }],
        },
      };
    });
    return [
      ...nodes,
      ...pods,
      ...c.services,
      {
        apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
        kind: 'KubeProxyConfiguration',
        mode: c.mode,
        clusterCIDR: '10.244.0.0/16',
        nodePortAddresses: c.nodePortAddresses,
      },
      ...(c.serviceCIDR
        ? [
            {
              apiVersion: 'networking.k8s.io/v1',
              kind: 'ServiceCIDR',
              metadata: { name: 'kubernetes' },
              spec: { cidrs: [c.serviceCIDR] },
            } as ScenarioObject,
          ]
        : []),
      {
        apiVersion: OUR_GROUP,
        kind: 'Client',
        metadata: { name: 'internet' },
        spec: { location: 'Internet', address: '198.51.100.23' },
      },
    ];
  });

describe('the detector', () => {
  it.each([
    ['-A KUBE-SERVICES -d /32 -p tcp -m tcp --dport 80 -j KUBE-SVC-X'],
    ['-A KUBE-SERVICES -d  -p tcp'],
    ['-A KUBE-SEP-X -p tcp -m tcp -j DNAT --to-destination :8080'],
    ['ip daddr  tcp dport 80 jump mark-for-masquerade'],
    ['elements = { , 10.96.0.50 }'],
    ['elements = {  . tcp . 80 : goto service-X }'],
    ['meta l4proto tcp dnat to :8080'],
    ['TCP  :80 rr'],
    ['  -> :8080              Masq    1      0          0'],
    [',tcp:80'],
    ['    inet /32 scope global kube-ipvs0'],
    ['-A KUBE-SERVICES -d None/32 -p tcp'],
    ['ip daddr None tcp dport 80 goto service-X'],
  ])('flags %s', (line) => {
    expect(emptyAddress(line)).toBeDefined();
  });

  it.each([
    ['-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m tcp --dport 80 -j KUBE-SVC-X'],
    ['ip daddr . meta l4proto . th dport vmap @service-ips'],
    ['elements = { 10.96.0.50 . tcp . 80 : goto service-X/default/web/tcp/http }'],
    ['ip saddr != { 10.0.0.0/8, 192.168.0.0/16 } drop'],
    ['TCP  10.96.0.50:80 rr'],
    ['10.96.0.50,tcp:80'],
    ['update @affinity-X { ip saddr }'],
    ['ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports'],
    ['ip saddr != 10.244.0.0/16 jump mark-for-masquerade'],
    ['  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn'],
    ['  -> 10.244.1.5:8080              Masq    1      0          0'],
    ['-A KUBE-SEP-X -p tcp -m tcp -j DNAT --to-destination 10.244.1.5:8080'],
  ])('passes %s', (line) => {
    expect(emptyAddress(line)).toBeUndefined();
  });
});

describe('no emitted rule names an empty address (iptables, nftables, IPVS)', () => {
  it('over generated clusters', () => {
    fc.assert(
      fc.property(cluster, (objects) => {
        const c = resolveCluster(fillGaps(objects).objects);
        for (const mode of modelledModes())
          for (const node of c.nodes) {
            const lines = proxyMode(mode).generate(c, node.name).lines;
            for (const { text } of lines) {
              const why = emptyAddress(text);
              if (why) throw new Error(`${mode} on ${node.name}: ${why}: ${text}`);
            }
          }
      }),
      { numRuns: 150, seed: 14 },
    );
  });

  it('a Service written without clusterIP is captured at its allocated address in every mode', () => {
    fc.assert(
      fc.property(cluster, (objects) => {
        const c = resolveCluster(fillGaps(objects).objects);
        const range = c.serviceCIDRs[0]?.cidrs[0] ?? '';
        const node = c.nodes[0]?.name ?? '';
        const text = (mode: 'iptables' | 'nftables' | 'ipvs') =>
          proxyMode(mode)
            .generate(c, node)
            .lines.map((l) => l.text)
            .join('\n');
        for (const given of objects) {
          if (
            given.kind !== 'Service' ||
            given.spec?.clusterIP ||
            given.spec?.type === 'ExternalName'
          )
            continue;
          const svc = c.services.find((s) => s.name === given.metadata?.name);
          const ip = svc?.clusterIP ?? '';
          expect(cidrContains(range, ip)).toBe(true);
          expect(text('iptables')).toContain(` -d ${ip}/32 -p tcp`);
          // In service-ips, or in no-endpoint-services when it has no endpoints.
          expect(text('nftables')).toContain(`${ip} . tcp . 80 `);
          expect(text('ipvs')).toContain(`TCP  ${ip}:80 `);
        }
      }),
      { numRuns: 40, seed: 6 },
    );
  });
});
