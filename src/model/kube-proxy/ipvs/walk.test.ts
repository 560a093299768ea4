/**
 * One new packet through a node in IPVS mode. Expected behaviour, by source:
 * - kube-proxy `pkg/proxy/ipvs/proxier.go` (aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212):
 *   NodePort and LB traffic is marked for masquerade unless its `-LOCAL` set RETURNs first;
 *   `syncEndpoint` falls back to cluster endpoints when a Local virtual server has no local
 *   endpoint (kubernetes#97081); KUBE-IPVS-FILTER rejects new connections to other ports of
 *   kube-ipvs0 addresses (kubernetes#72236); KUBE-LOOP-BACK masquerades hairpin traffic.
 * - Linux `net/netfilter/ipvs/ip_vs_core.c`: IPVS takes packets at LOCAL_IN after filter
 *   INPUT, and answers ICMP port unreachable when a virtual server has no destination
 *   (`ip_vs_leave`).
 * - `rr` with weight-1 real servers: each is equally likely for one new connection (modelled).
 */
import { describe, it, expect } from 'vitest';
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import type { SceneOptions } from '../../scenario/scene';
import type { EndpointChooser, ModePacket, ModeProcessing, Origin } from '../types';
import { DEFAULT_SCENE, applyScene, canonicalObjects, resolveCluster } from '../../index';
import { generateIpvs } from './generate';
import { processIpvs } from './walk';
import { ipvsMode } from './index';

function cluster(scene: Partial<SceneOptions> = {}, edit?: (c: Cluster) => void): Cluster {
  const c = resolveCluster(applyScene(canonicalObjects(), { ...DEFAULT_SCENE, ...scene }));
  edit?.(c);
  return c;
}

const pkt = (src: string, dst: string, dport: number): ModePacket => ({
  protocol: 'tcp',
  src,
  sport: 51234,
  dst,
  dport,
  mark: 0,
});
const CLIENT = '198.51.100.23';

/** Runs the packet once per choice index and returns every run. */
function run(
  c: Cluster,
  nodeName: string,
  p: ModePacket,
  origin: Origin = 'network',
  pick: number = 0,
): ModeProcessing & { node: ClusterNode } {
  const node = c.nodes.find((n) => n.name === nodeName);
  if (!node) throw new Error(nodeName);
  const choose: EndpointChooser = () => pick;
  return { ...processIpvs(generateIpvs(c, nodeName), node, p, origin, choose), node };
}
const roles = (r: ModeProcessing) =>
  r.hits.flatMap((h) => (h.role ? [`${h.role} ${h.chain}`] : []));
const choice = (r: ModeProcessing) => r.hits.find((h) => h.role === 'choose')?.choice;

describe('NodePort 192.168.0.11:31000 on node-1', () => {
  const np = pkt(CLIENT, '192.168.0.11', 31000);

  it('Cluster: either endpoint at 0.5, DNATed by IPVS (Masq), masqueraded', () => {
    const c = cluster();
    for (const [pick, ep] of [
      [0, '10.244.1.5'],
      [1, '10.244.3.9'],
    ] as const) {
      const r = run(c, 'node-1', np, 'network', pick);
      expect(choice(r)).toEqual({
        options: [
          { endpoint: '10.244.1.5:8080', probability: 0.5 },
          { endpoint: '10.244.3.9:8080', probability: 0.5 },
        ],
        chosen: pick,
      });
      expect(r.packet).toMatchObject({ dst: ep, dport: 8080, src: CLIENT });
      expect(r.dnat).toBe(true);
      expect(r.fate).toEqual({ kind: 'forward', masquerade: true });
      expect(roles(r)).toEqual([
        'ext KUBE-NODE-PORT',
        'mark KUBE-MARK-MASQ',
        'capture TCP 192.168.0.11:31000',
        'choose TCP 192.168.0.11:31000',
        'dnat TCP 192.168.0.11:31000',
        'snat KUBE-POSTROUTING',
      ]);
    }
  });

  it('Cluster: the rules followed, in netfilter order', () => {
    const r = run(cluster(), 'node-1', np);
    expect(r.hits.map((h) => h.text)).toEqual([
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT',
      '-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-TCP dst -j KUBE-MARK-MASQ',
      '31000',
      '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
      '-A INPUT -m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-FILTER',
      '-A INPUT -m comment --comment "kube-proxy firewall rules" -j KUBE-PROXY-FIREWALL',
      '-A INPUT -m comment --comment "kubernetes health check rules" -j KUBE-NODE-PORT',
      'TCP  192.168.0.11:31000 rr',
      'TCP  192.168.0.11:31000 rr',
      '  -> 10.244.1.5:8080              Masq    1      0          0         ',
      '-A OUTPUT -m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-OUT-FILTER',
      '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
      '-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    ]);
  });

  it('Local: only 10.244.1.5, and KUBE-NODE-PORT-LOCAL-TCP RETURNs before the mark: no masquerade', () => {
    const r = run(cluster({ externalTrafficPolicy: 'Local' }), 'node-1', np);
    expect(choice(r)).toEqual({
      options: [{ endpoint: '10.244.1.5:8080', probability: 1 }],
      chosen: 0,
    });
    expect(r.packet).toMatchObject({ src: CLIENT, dst: '10.244.1.5', dport: 8080, mark: 0 });
    expect(r.fate).toEqual({ kind: 'forward', masquerade: false });
    const ext = r.hits.find((h) => h.role === 'ext');
    expect(ext?.text).toContain('--match-set KUBE-NODE-PORT-LOCAL-TCP dst -j RETURN');
    expect(r.hits.some((h) => h.role === 'mark' || h.role === 'snat')).toBe(false);
  });
});

describe('NodePort 192.168.0.12:31000 on node-2 (no local endpoint)', () => {
  it('Local: not dropped — kube-proxy falls back to all endpoints and forwards without SNAT', () => {
    // proxier.go syncEndpoint (kubernetes#97081): "Traffic from an external source will be
    // routed but the reply will have the POD address and will be discarded." Unlike iptables
    // mode (a DROP rule), IPVS mode forwards the packet with the client's source address kept.
    const c = cluster({ externalTrafficPolicy: 'Local' });
    const r = run(c, 'node-2', pkt(CLIENT, '192.168.0.12', 31000), 'network', 1);
    expect(choice(r)?.options).toEqual([
      { endpoint: '10.244.1.5:8080', probability: 0.5 },
      { endpoint: '10.244.3.9:8080', probability: 0.5 },
    ]);
    expect(r.packet).toMatchObject({ src: CLIENT, dst: '10.244.3.9', dport: 8080 });
    expect(r.fate).toEqual({ kind: 'forward', masquerade: false });
    expect(r.hits.some((h) => h.role === 'drop' || h.role === 'reject')).toBe(false);
  });

  it('Cluster: masqueraded to either endpoint', () => {
    const r = run(cluster(), 'node-2', pkt(CLIENT, '192.168.0.12', 31000));
    expect(r.fate).toEqual({ kind: 'forward', masquerade: true });
    expect(choice(r)?.options.map((o) => o.probability)).toEqual([0.5, 0.5]);
  });
});

describe('the LB IP delivered to a node (ipMode VIP)', () => {
  const lb = pkt(CLIENT, '203.0.113.7', 80);

  it('is local through kube-ipvs0, passes KUBE-IPVS-FILTER, is marked by KUBE-LOAD-BALANCER', () => {
    const r = run(cluster(), 'node-2', lb);
    expect(r.hits.map((h) => h.ruleId)).toContain('kube-ipvs0/203.0.113.7');
    expect(r.hits.find((h) => h.role === 'ext')?.text).toBe(
      '-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ',
    );
    expect(r.hits.find((h) => h.role === 'capture')?.text).toBe('TCP  203.0.113.7:80 rr');
    expect(r.fate).toEqual({ kind: 'forward', masquerade: true });
  });

  it('Local on node-1: KUBE-LOAD-BALANCER-LOCAL RETURNs; the local endpoint, no masquerade', () => {
    const r = run(cluster({ externalTrafficPolicy: 'Local' }), 'node-1', lb);
    expect(r.hits.find((h) => h.role === 'ext')?.text).toContain(
      'KUBE-LOAD-BALANCER-LOCAL dst,dst -j RETURN',
    );
    expect(r.packet.dst).toBe('10.244.1.5');
    expect(r.fate).toEqual({ kind: 'forward', masquerade: false });
  });

  it('ipMode Proxy: the LB IP is not a local address, so the node just routes it on', () => {
    const r = run(cluster({ ipMode: 'Proxy' }), 'node-1', lb);
    expect(r.dnat).toBe(false);
    expect(r.hits.some((h) => h.table === 'ipvs')).toBe(false);
    expect(r.fate).toEqual({ kind: 'forward', masquerade: false });
  });
});

describe('ClusterIP 10.96.0.50:80', () => {
  const cip = (src: string) => pkt(src, '10.96.0.50', 80);

  it('from a pod: DNAT only (the source is inside clusterCIDR)', () => {
    const r = run(cluster(), 'node-2', cip('10.244.2.4'), 'local-pod');
    expect(r.dnat).toBe(true);
    expect(r.fate).toEqual({ kind: 'forward', masquerade: false });
  });

  it('from the node itself: marked by the KUBE-CLUSTER-IP rule (! -s clusterCIDR) and masqueraded', () => {
    const r = run(cluster(), 'node-2', cip('192.168.0.12'), 'local-host');
    expect(r.hits[0]?.text).toBe(
      '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    );
    expect(r.fate).toEqual({ kind: 'forward', masquerade: true });
  });

  it('hairpin: a pod reaching itself through the Service is masqueraded by KUBE-LOOP-BACK', () => {
    const r = run(cluster(), 'node-1', cip('10.244.1.5'), 'local-pod', 0);
    expect(r.packet.dst).toBe('10.244.1.5');
    const snat = r.hits.find((h) => h.role === 'snat');
    expect(snat?.text).toContain('--match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE');
    expect(r.fate).toEqual({ kind: 'forward', masquerade: true });
  });

  it('another port of a kube-ipvs0 address: KUBE-IPVS-FILTER rejects the new connection', () => {
    const r = run(cluster(), 'node-1', pkt(CLIENT, '10.96.0.50', 22));
    expect(r.fate.kind).toBe('reject');
    if (r.fate.kind === 'reject') expect(r.fate.hit.chain).toBe('KUBE-IPVS-FILTER');
  });

  it('no endpoints at all: IPVS has no real server and answers ICMP port unreachable', () => {
    const c = cluster({}, (x) => {
      x.endpoints['default/web:http'] = [];
    });
    const r = run(c, 'node-1', cip('10.244.2.4'), 'local-pod');
    expect(r.fate.kind).toBe('reject');
    if (r.fate.kind === 'reject')
      expect(r.fate.hit).toMatchObject({ table: 'ipvs', role: 'reject' });
    expect(r.dnat).toBe(false);
  });
});

describe('other packets', () => {
  it('the healthCheckNodePort is accepted for kube-proxy itself (filter KUBE-NODE-PORT)', () => {
    const r = run(
      cluster({ externalTrafficPolicy: 'Local' }),
      'node-2',
      pkt('192.168.0.250', '192.168.0.12', 32191),
    );
    expect(r.fate).toEqual({ kind: 'local' });
    expect(r.hits.some((h) => h.text.includes('KUBE-HEALTH-CHECK-NODE-PORT dst -j ACCEPT'))).toBe(
      true,
    );
  });

  it('loadBalancerSourceRanges: KUBE-SOURCE-RANGES-FIREWALL drops other sources', () => {
    const c = cluster({}, (x) => {
      const s = x.services[0];
      if (s) s.loadBalancerSourceRanges = ['198.51.100.0/24'];
    });
    const ok = run(c, 'node-1', pkt(CLIENT, '203.0.113.7', 80));
    expect(ok.fate.kind).toBe('forward');
    expect(ok.hits.filter((h) => h.role === 'firewall').map((h) => h.chain)).toEqual([
      'KUBE-PROXY-FIREWALL',
      'KUBE-SOURCE-RANGES-FIREWALL',
    ]);
    const denied = run(c, 'node-1', pkt('192.0.2.9', '203.0.113.7', 80));
    expect(denied.fate.kind).toBe('drop');
    if (denied.fate.kind === 'drop')
      expect(denied.fate.hit.text).toBe('-A KUBE-SOURCE-RANGES-FIREWALL -j DROP');
  });

  it("every hit names a line of the rule set, with that line's text", () => {
    const c = cluster({ externalTrafficPolicy: 'Local' });
    const rs = generateIpvs(c, 'node-1');
    const node = c.nodes[0] as ClusterNode;
    const r = ipvsMode.process(rs, node, pkt(CLIENT, '203.0.113.7', 80), 'network', () => 0);
    const byId = new Map(rs.lines.flatMap((l) => (l.ruleId ? [[l.ruleId, l.text] as const] : [])));
    for (const h of r.hits) expect(byId.get(h.ruleId), h.ruleId).toBe(h.text);
  });
});
