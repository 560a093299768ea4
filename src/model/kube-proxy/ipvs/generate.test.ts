/**
 * kube-proxy's IPVS-mode state for the canonical scenario, compared line by line with what
 * `ipvsadm -Ln`, `ipset list`, `ip addr show kube-ipvs0` and `iptables-save` print.
 *
 * Sources (cited per group below):
 * - kube-proxy `pkg/proxy/ipvs/proxier.go` (`syncProxyRules`, `syncEndpoint`,
 *   `writeIptablesRules`, `acceptIPVSTraffic`, `iptablesJumpChain`, `ipsetWithIptablesChain`)
 *   and `pkg/proxy/ipvs/proxier_test.go` (the tests named below), both read at
 *   aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212; `pkg/proxy/ipvs/ipset.go`
 *   (set names and comments) read at fleetboard-io/fleetboard@6a9871c7c9b23fcdac8804fa0d45d0f2ad2b06b3.
 * - ipvsadm `ipvsadm.c` `print_service_entry` (`"%s  %s"` + scheduler, `"  -> %-28s %-7s %-6d
 *   %-10u %-10u"`) at Distrotech/ipvsadm@0047f4d3bd015391ff8cb8524b31687cf2626b09 and
 *   `libipvs.c` `ipvs_cmp_services` at Distrotech/ipvsadm@34c033ca687705068542dbc8f202a170706dc228.
 * - iptables-save print rules as in ../iptables/generate.test.ts.
 */
import { describe, it, expect } from 'vitest';
import type { Cluster } from '../../scenario/cluster';
import type { SceneOptions } from '../../scenario/scene';
import { DEFAULT_SCENE, applyScene, canonicalObjects, resolveCluster } from '../../index';
import { generateIpvs, libipvsAddressCompare } from './generate';
import type { IpvsRuleset } from './generate';
import { ipvsMode } from './index';
import { FAKE_NODE, externalIPObjects } from '../testdata/externalIPService';

function cluster(scene: Partial<SceneOptions> = {}, edit?: (c: Cluster) => void): Cluster {
  const c = resolveCluster(applyScene(canonicalObjects(), { ...DEFAULT_SCENE, ...scene }));
  edit?.(c);
  return c;
}
const texts = (rs: IpvsRuleset, section: keyof IpvsRuleset['sections']) =>
  rs.sections[section].map((l) => l.text);
const chain = (rs: IpvsRuleset, table: 'nat' | 'filter', name: string) =>
  rs.tables[table].find((c) => c.name === name)?.rules.map((r) => r.text);
const members = (rs: IpvsRuleset, set: string) =>
  rs.ipsets.find((s) => s.name === set)?.members.map((m) => m.text);
const vs = (rs: IpvsRuleset, addr: string) =>
  rs.virtualServers
    .find((v) => `${v.address}:${v.port}` === addr)
    ?.realServers.map((r) => `${r.ip}:${r.port}`);

// ipvsadm.c print_title / print_service_entry; `%-28s %-7s %-6d %-10u %-10u` keeps the
// trailing padding of the last column.
const HEADER = [
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port Scheduler Flags',
  '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
];
const RS1 = '  -> 10.244.1.5:8080              Masq    1      0          0         ';
const RS3 = '  -> 10.244.3.9:8080              Masq    1      0          0         ';

describe('ipvsadm -Ln', () => {
  it('node-1, Cluster: ClusterIP, LB IP and one NodePort virtual server per node address, all endpoints', () => {
    // TestNodePortIPv4 ("1 service with node port, has 2 endpoints"): a ClusterIP VS and a
    // NodePort VS on the node IP, rr, weight-1 destinations. TestLoadBalancer: the LB IP VS.
    // NodePort addresses with nodePortAddresses unset are every local address outside
    // kube-ipvs0 but loopback (TestGetNodeIPs; netlink_linux.go GetAllLocalAddressesExcept):
    // the node IP and the cni0 bridge address. Order: libipvs ipvs_cmp_services (signed
    // difference of unsigned addresses, so 192.168.0.11 and 203.0.113.7 sort before 10.x).
    const rs = generateIpvs(cluster(), 'node-1');
    expect(texts(rs, 'ipvsadm')).toEqual([
      ...HEADER,
      'TCP  192.168.0.11:31000 rr',
      RS1,
      RS3,
      'TCP  203.0.113.7:80 rr',
      RS1,
      RS3,
      'TCP  10.96.0.50:80 rr',
      RS1,
      RS3,
      'TCP  10.244.1.1:31000 rr',
      RS1,
      RS3,
    ]);
  });

  it('node-2, Cluster: the same Service, its own node addresses', () => {
    const rs = generateIpvs(cluster(), 'node-2');
    expect(rs.virtualServers.map((v) => v.text)).toEqual([
      'TCP  192.168.0.12:31000 rr',
      'TCP  203.0.113.7:80 rr',
      'TCP  10.96.0.50:80 rr',
      'TCP  10.244.2.1:31000 rr',
    ]);
    for (const v of rs.virtualServers) expect(v.realServers.map((r) => r.text)).toEqual([RS1, RS3]);
  });

  it('node-1, Local: NodePort and LB virtual servers get only the local endpoint, ClusterIP all', () => {
    // TestOnlyLocalNodePorts / TestOnlyLocalLoadBalancing: "**local** endpoint address, should
    // be added as RS"; "**remote** endpoint address, should not be added as RS".
    const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), 'node-1');
    expect(vs(rs, '192.168.0.11:31000')).toEqual(['10.244.1.5:8080']);
    expect(vs(rs, '10.244.1.1:31000')).toEqual(['10.244.1.5:8080']);
    expect(vs(rs, '203.0.113.7:80')).toEqual(['10.244.1.5:8080']);
    expect(vs(rs, '10.96.0.50:80')).toEqual(['10.244.1.5:8080', '10.244.3.9:8080']);
  });

  it('node-2, Local: no local endpoint, so kube-proxy falls back to all endpoints (kubernetes#97081)', () => {
    // syncEndpoint: "Allow access from local PODs even if no local endpoints exist. Traffic
    // from an external source will be routed but the reply will have the POD address and
    // will be discarded." — the virtual servers are not left empty.
    const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), 'node-2');
    for (const addr of ['192.168.0.12:31000', '203.0.113.7:80', '10.96.0.50:80'])
      expect(vs(rs, addr), addr).toEqual(['10.244.1.5:8080', '10.244.3.9:8080']);
  });

  it('ipMode Proxy: no virtual server for the LB IP (LoadBalancerVIPs skips it)', () => {
    const rs = generateIpvs(cluster({ ipMode: 'Proxy' }), 'node-1');
    expect(rs.virtualServers.map((v) => `${v.address}:${v.port}`)).toEqual([
      '192.168.0.11:31000',
      '10.96.0.50:80',
      '10.244.1.1:31000',
    ]);
  });

  it('ClientIP affinity is IPVS persistence with the affinity timeout', () => {
    const rs = generateIpvs(
      cluster({}, (c) => {
        const s = c.services[0];
        if (s) s.sessionAffinity = 'ClientIP';
      }),
      'node-1',
    );
    expect(rs.virtualServers.map((v) => v.text)).toContain(
      'TCP  10.96.0.50:80 rr persistent 10800',
    );
    expect(rs.virtualServers.every((v) => v.text.endsWith(' persistent 10800'))).toBe(true);
  });

  it('the scheduler is rr unless one is given (defaultScheduler; empty means rr)', () => {
    const c = cluster();
    expect(generateIpvs(c, 'node-1').scheduler).toBe('rr');
    expect(generateIpvs(c, 'node-1', { scheduler: '' }).scheduler).toBe('rr');
    const lc = generateIpvs(c, 'node-1', { scheduler: 'lc' });
    expect(lc.virtualServers.map((v) => v.text)).toContain('TCP  10.96.0.50:80 lc');
    expect(ipvsMode.generate(c, 'node-1').scheduler).toBe('rr');
  });

  it('nodePortAddresses narrows the NodePort virtual servers (loopback never gets one)', () => {
    const rs = generateIpvs(
      cluster({}, (c) => {
        c.kubeProxy.nodePortAddresses = ['192.168.0.0/24', '127.0.0.0/8'];
      }),
      'node-1',
    );
    expect(rs.virtualServers.filter((v) => v.kind === 'NodePort').map((v) => v.address)).toEqual([
      '192.168.0.11',
    ]);
  });

  it('libipvs compares addresses as a signed difference of unsigned values', () => {
    expect(libipvsAddressCompare('10.96.0.50', '10.244.1.1')).toBeLessThan(0);
    expect(libipvsAddressCompare('192.168.0.11', '203.0.113.7')).toBeLessThan(0);
    expect(libipvsAddressCompare('10.96.0.50', '192.168.0.11')).toBeGreaterThan(0);
    expect(libipvsAddressCompare('10.96.0.50', '10.96.0.50')).toBe(0);
  });

  it('throws for an unknown node', () => {
    expect(() => generateIpvs(cluster(), 'node-9')).toThrow('unknown node "node-9"');
  });
});

describe('ipset list', () => {
  it('node-1, Cluster: cluster IP, LB IP, NodePort, hairpin and kube-ipvs0 sets', () => {
    // Entry.String: hash:ip,port `ip,proto:port`, hash:ip,port,ip `ip,proto:port,ip`,
    // bitmap:port `port`. KUBE-LOOP-BACK holds local endpoints only (ep.IsLocal()).
    const rs = generateIpvs(cluster(), 'node-1');
    expect(members(rs, 'KUBE-CLUSTER-IP')).toEqual(['10.96.0.50,tcp:80']);
    expect(members(rs, 'KUBE-LOAD-BALANCER')).toEqual(['203.0.113.7,tcp:80']);
    expect(members(rs, 'KUBE-LOAD-BALANCER-LOCAL')).toEqual([]);
    expect(members(rs, 'KUBE-NODE-PORT-TCP')).toEqual(['31000']);
    expect(members(rs, 'KUBE-NODE-PORT-LOCAL-TCP')).toEqual([]);
    expect(members(rs, 'KUBE-LOOP-BACK')).toEqual(['10.244.1.5,tcp:8080,10.244.1.5']);
    expect(members(rs, 'KUBE-HEALTH-CHECK-NODE-PORT')).toEqual([]);
    expect(members(rs, 'KUBE-IPVS-IPS')).toEqual(['10.96.0.50', '203.0.113.7']);
    expect(members(generateIpvs(cluster(), 'node-2'), 'KUBE-LOOP-BACK')).toEqual([]);
  });

  it('Local adds the -LOCAL sets and the health check node port', () => {
    // TestOnlyLocalLoadBalancing (KUBE-LOAD-BALANCER + KUBE-LOAD-BALANCER-LOCAL),
    // TestOnlyLocalNodePorts (KUBE-NODE-PORT-TCP + KUBE-NODE-PORT-LOCAL-TCP),
    // TestHealthCheckNodePort (KUBE-HEALTH-CHECK-NODE-PORT holds the healthCheckNodePort).
    const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), 'node-2');
    expect(members(rs, 'KUBE-LOAD-BALANCER-LOCAL')).toEqual(['203.0.113.7,tcp:80']);
    expect(members(rs, 'KUBE-NODE-PORT-TCP')).toEqual(['31000']);
    expect(members(rs, 'KUBE-NODE-PORT-LOCAL-TCP')).toEqual(['31000']);
    expect(members(rs, 'KUBE-HEALTH-CHECK-NODE-PORT')).toEqual(['32191']);
  });

  it('prints every set kube-proxy creates, empty ones included', () => {
    const lines = texts(generateIpvs(cluster(), 'node-1'), 'ipset');
    expect(lines.filter((l) => l.startsWith('Name: '))).toHaveLength(17);
    const i = lines.indexOf('Name: KUBE-NODE-PORT-TCP');
    expect(lines.slice(i, i + 6)).toEqual([
      'Name: KUBE-NODE-PORT-TCP',
      'Type: bitmap:port',
      'Header: range 0-65535',
      'Members:',
      '31000',
      '',
    ]);
  });
});

describe('ip addr show kube-ipvs0', () => {
  it('binds the ClusterIP and the VIP-mode LB IP, as /32', () => {
    const rs = generateIpvs(cluster(), 'node-1');
    expect(texts(rs, 'kubeIpvs0')).toEqual([
      'kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default',
      '    inet 10.96.0.50/32 scope global kube-ipvs0',
      '       valid_lft forever preferred_lft forever',
      '    inet 203.0.113.7/32 scope global kube-ipvs0',
      '       valid_lft forever preferred_lft forever',
    ]);
  });

  it('ipMode Proxy: the LB IP is not bound and is in no set', () => {
    const rs = generateIpvs(cluster({ ipMode: 'Proxy' }), 'node-1');
    expect(rs.dummyAddresses).toEqual(['10.96.0.50']);
    expect(members(rs, 'KUBE-LOAD-BALANCER')).toEqual([]);
    expect(chain(rs, 'nat', 'KUBE-SERVICES')?.some((r) => r.includes('KUBE-LOAD-BALANCER'))).toBe(
      false,
    );
  });
});

describe('iptables-save (the rules IPVS mode still writes)', () => {
  const S_CIP =
    '-A KUBE-SERVICES ! -s 10.244.0.0/16 -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ';
  const S_LB =
    '-A KUBE-SERVICES -m comment --comment "Kubernetes service lb portal" -m set --match-set KUBE-LOAD-BALANCER dst,dst -j KUBE-LOAD-BALANCER';

  it('nat KUBE-SERVICES: loopback RETURN, LB jump, cluster IP masquerade, NodePort jump, then ACCEPTs', () => {
    // TestLoadBalancer's expected KUBE-SERVICES: RETURN 127.0.0.0/8, KUBE-LOAD-BALANCER by
    // KUBE-LOAD-BALANCER, KUBE-MARK-MASQ by KUBE-CLUSTER-IP, KUBE-NODE-PORT, ACCEPT by
    // KUBE-CLUSTER-IP, ACCEPT by KUBE-LOAD-BALANCER. The cluster-IP rule's `! -s` is the
    // ClusterCIDR detector's IfNotLocal().
    const rs = generateIpvs(cluster(), 'node-2');
    expect(chain(rs, 'nat', 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -s 127.0.0.0/8 -j RETURN',
      S_LB,
      S_CIP,
      '-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT',
      '-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT',
      '-A KUBE-SERVICES -m set --match-set KUBE-LOAD-BALANCER dst,dst -j ACCEPT',
    ]);
  });

  it('Cluster: NodePort and LB traffic is always marked for masquerade', () => {
    const rs = generateIpvs(cluster(), 'node-1');
    expect(chain(rs, 'nat', 'KUBE-NODE-PORT')).toEqual([
      '-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-TCP dst -j KUBE-MARK-MASQ',
    ]);
    expect(chain(rs, 'nat', 'KUBE-LOAD-BALANCER')).toEqual([
      '-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ',
    ]);
  });

  it('Local: the -LOCAL sets RETURN first, so those packets are not marked', () => {
    // TestOnlyLocalNodePorts: KUBE-NODE-PORT = RETURN by KUBE-NODE-PORT-LOCAL-TCP, then
    // KUBE-MARK-MASQ by KUBE-NODE-PORT-TCP. TestOnlyLocalLoadBalancing: KUBE-LOAD-BALANCER =
    // RETURN by KUBE-LOAD-BALANCER-LOCAL, then KUBE-MARK-MASQ.
    for (const node of ['node-1', 'node-2']) {
      const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), node);
      expect(chain(rs, 'nat', 'KUBE-NODE-PORT'), node).toEqual([
        '-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port with externalTrafficPolicy=local" -m set --match-set KUBE-NODE-PORT-LOCAL-TCP dst -j RETURN',
        '-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-TCP dst -j KUBE-MARK-MASQ',
      ]);
      expect(chain(rs, 'nat', 'KUBE-LOAD-BALANCER'), node).toEqual([
        '-A KUBE-LOAD-BALANCER -m comment --comment "Kubernetes service load balancer ip + port with externalTrafficPolicy=local" -m set --match-set KUBE-LOAD-BALANCER-LOCAL dst,dst -j RETURN',
        '-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ',
      ]);
    }
  });

  it('nat KUBE-POSTROUTING: hairpin masquerade (node-1 only), then the mark-driven MASQUERADE', () => {
    const tail = [
      '-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
      '-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    ];
    expect(chain(generateIpvs(cluster(), 'node-1'), 'nat', 'KUBE-POSTROUTING')).toEqual([
      '-A KUBE-POSTROUTING -m comment --comment "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose" -m set --match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE',
      ...tail,
    ]);
    expect(chain(generateIpvs(cluster(), 'node-2'), 'nat', 'KUBE-POSTROUTING')).toEqual(tail);
    expect(chain(generateIpvs(cluster(), 'node-2'), 'nat', 'KUBE-MARK-MASQ')).toEqual([
      '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
    ]);
  });

  it('jump rules (iptablesJumpChain, each prepended) and the filter chains', () => {
    const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), 'node-1');
    expect(chain(rs, 'nat', 'PREROUTING')).toEqual([
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ]);
    expect(chain(rs, 'nat', 'POSTROUTING')).toEqual([
      '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
    ]);
    expect(chain(rs, 'filter', 'INPUT')).toEqual([
      '-A INPUT -m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-FILTER',
      '-A INPUT -m comment --comment "kube-proxy firewall rules" -j KUBE-PROXY-FIREWALL',
      '-A INPUT -m comment --comment "kubernetes health check rules" -j KUBE-NODE-PORT',
    ]);
    expect(chain(rs, 'filter', 'FORWARD')).toEqual([
      '-A FORWARD -m comment --comment "kube-proxy firewall rules" -j KUBE-PROXY-FIREWALL',
      '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
    ]);
    expect(chain(rs, 'filter', 'OUTPUT')).toEqual([
      '-A OUTPUT -m comment --comment "kubernetes ipvs access filter" -j KUBE-IPVS-OUT-FILTER',
    ]);
    expect(chain(rs, 'filter', 'KUBE-IPVS-FILTER')).toEqual([
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-LOAD-BALANCER dst,dst -j RETURN',
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-CLUSTER-IP dst,dst -j RETURN',
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-EXTERNAL-IP dst,dst -j RETURN',
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -j RETURN',
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-HEALTH-CHECK-NODE-PORT dst -j RETURN',
      '-A KUBE-IPVS-FILTER -m conntrack --ctstate NEW -m set --match-set KUBE-IPVS-IPS dst -j REJECT --reject-with icmp-port-unreachable',
    ]);
    expect(chain(rs, 'filter', 'KUBE-NODE-PORT')).toEqual([
      '-A KUBE-NODE-PORT -m comment --comment "Kubernetes health check node port" -m set --match-set KUBE-HEALTH-CHECK-NODE-PORT dst -j ACCEPT',
    ]);
    expect(chain(rs, 'filter', 'KUBE-FORWARD')).toEqual([
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    ]);
    expect(chain(rs, 'filter', 'KUBE-SOURCE-RANGES-FIREWALL')).toEqual([
      '-A KUBE-SOURCE-RANGES-FIREWALL -j DROP',
    ]);
    expect(rs.tables.nat.map((c) => c.name)).toEqual([
      'PREROUTING',
      'INPUT',
      'OUTPUT',
      'POSTROUTING',
      'KUBE-LOAD-BALANCER',
      'KUBE-MARK-MASQ',
      'KUBE-NODE-PORT',
      'KUBE-POSTROUTING',
      'KUBE-SERVICES',
    ]);
  });

  it('externalIPs: a virtual server, a kube-ipvs0 address and the KUBE-EXTERNAL-IP rules', () => {
    // TestExternalIPs / TestAcceptIPVSTraffic: KUBE-MARK-MASQ by KUBE-EXTERNAL-IP, then two
    // ACCEPTs (off-machine traffic; destination local), before the NodePort jump.
    const rs = generateIpvs(
      cluster({}, (c) => {
        const s = c.services[0];
        if (s) s.externalIPs = ['192.0.2.80'];
      }),
      'node-1',
    );
    expect(vs(rs, '192.0.2.80:80')).toEqual(['10.244.1.5:8080', '10.244.3.9:8080']);
    expect(rs.dummyAddresses).toContain('192.0.2.80');
    const cmt =
      '-m comment --comment "Kubernetes service external ip + port for masquerade and filter purpose"';
    expect(chain(rs, 'nat', 'KUBE-SERVICES')?.slice(3, 7)).toEqual([
      `-A KUBE-SERVICES ${cmt} -m set --match-set KUBE-EXTERNAL-IP dst,dst -j KUBE-MARK-MASQ`,
      `-A KUBE-SERVICES ${cmt} -m set --match-set KUBE-EXTERNAL-IP dst,dst -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT`,
      `-A KUBE-SERVICES ${cmt} -m set --match-set KUBE-EXTERNAL-IP dst,dst -m addrtype --dst-type LOCAL -j ACCEPT`,
      '-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT',
    ]);
  });

  it('loadBalancerSourceRanges: the FW and source sets, and the filter chains that use them', () => {
    // TestLoadBalancerSourceRanges: KUBE-PROXY-FIREWALL jumps by KUBE-LOAD-BALANCER-FW to
    // KUBE-SOURCE-RANGES-FIREWALL, which RETURNs by KUBE-LOAD-BALANCER-SOURCE-CIDR, then DROPs.
    const rs = generateIpvs(
      cluster({}, (c) => {
        const s = c.services[0];
        if (s) s.loadBalancerSourceRanges = ['198.51.100.0/24'];
      }),
      'node-1',
    );
    expect(members(rs, 'KUBE-LOAD-BALANCER-FW')).toEqual(['203.0.113.7,tcp:80']);
    expect(members(rs, 'KUBE-LOAD-BALANCER-SOURCE-CIDR')).toEqual([
      '203.0.113.7,tcp:80,198.51.100.0/24',
    ]);
    expect(chain(rs, 'filter', 'KUBE-PROXY-FIREWALL')).toEqual([
      '-A KUBE-PROXY-FIREWALL -m comment --comment "Kubernetes service load balancer ip + port for load balancer with sourceRange" -m set --match-set KUBE-LOAD-BALANCER-FW dst,dst -j KUBE-SOURCE-RANGES-FIREWALL',
    ]);
    expect(chain(rs, 'filter', 'KUBE-SOURCE-RANGES-FIREWALL')).toEqual([
      '-A KUBE-SOURCE-RANGES-FIREWALL -m comment --comment "Kubernetes service load balancer ip + port + source cidr for packet filter purpose" -m set --match-set KUBE-LOAD-BALANCER-SOURCE-CIDR dst,dst,src -j RETURN',
      '-A KUBE-SOURCE-RANGES-FIREWALL -j DROP',
    ]);
    // The node IP is outside the ranges, so the node itself may not reach the LB IP.
    expect(chain(rs, 'filter', 'KUBE-IPVS-OUT-FILTER')).toHaveLength(1);
  });
});

describe('rule lines', () => {
  it('every line a walk can match has a unique ruleId, and the sections are joined under headers', () => {
    const rs = generateIpvs(cluster({ externalTrafficPolicy: 'Local' }), 'node-1');
    const ids = rs.lines.flatMap((l) => (l.ruleId ? [l.ruleId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('ipvs/TCP/192.168.0.11:31000');
    expect(ids).toContain('ipvs/TCP/192.168.0.11:31000/10.244.1.5:8080');
    expect(ids).toContain('ipset/KUBE-NODE-PORT-LOCAL-TCP/31000');
    expect(ids).toContain('kube-ipvs0/10.96.0.50');
    expect(ids).toContain('nat/KUBE-SERVICES/0');
    expect(rs.lines.filter((l) => l.text.startsWith('# ')).map((l) => l.text)).toEqual([
      '# ipvsadm -Ln',
      '# ipset list',
      '# ip addr show kube-ipvs0',
      '# iptables-save',
    ]);
    expect(rs.lines.find((l) => l.ruleId === 'nat/KUBE-SERVICES/0')?.chain).toBe(
      'nat/KUBE-SERVICES',
    );
  });
});

// Issue 14: Local applies to externalIPs whatever the Service type, because kube-proxy asks
// ExternalPolicyLocal (pkg/api/v1/service/util.go), true for ClusterIP with externalIPs.
describe('TestOnlyLocalExternalIPs (kube-proxy ipvs proxier_test.go)', () => {
  // The test's Service: NodePort (no nodePort), ClusterIP 10.20.30.41, externalIPs
  // 50.60.70.81, 2012::51 and 127.0.0.1, Local; endpoints 10.180.0.1 on this node and
  // 10.180.1.1 on "other-node". It expects 3 virtual servers ("ipvs filters out by
  // IPFamily") and only the local endpoint behind the external IPs.
  const objects = (type: 'NodePort' | 'ClusterIP') =>
    externalIPObjects({ mode: 'ipvs', type, externalTrafficPolicy: 'Local' }).map((o) => {
      if (o.kind === 'Service' && o.spec)
        return {
          ...o,
          spec: {
            ...o.spec,
            clusterIP: '10.20.30.41',
            externalIPs: ['50.60.70.81', '2012::51', '127.0.0.1'],
          },
        };
      if (o.kind === 'EndpointSlice')
        return {
          ...o,
          endpoints: [
            { addresses: ['10.180.0.1'], nodeName: FAKE_NODE.name },
            { addresses: ['10.180.1.1'], nodeName: 'other-node' },
          ],
        };
      return o;
    });

  it.each(['NodePort', 'ClusterIP'] as const)('as type %s', (type) => {
    const rs = generateIpvs(resolveCluster(objects(type)), FAKE_NODE.name);
    expect(rs.virtualServers.map((v) => `${v.address}:${v.port}`).sort()).toEqual([
      '10.20.30.41:80',
      '127.0.0.1:80',
      '50.60.70.81:80',
    ]);
    expect(vs(rs, '50.60.70.81:80')).toEqual(['10.180.0.1:80']);
    expect(vs(rs, '127.0.0.1:80')).toEqual(['10.180.0.1:80']);
    expect(vs(rs, '10.20.30.41:80')).toEqual(['10.180.0.1:80', '10.180.1.1:80']);
  });
});

// proxier.go syncProxyRules "Capture externalIPs": ExternalPolicyLocal puts the entry in
// KUBE-EXTERNAL-IP-LOCAL instead of KUBE-EXTERNAL-IP ("We have to SNAT packets to external
// IPs" only for the latter); writeIptablesRules gives KUBE-EXTERNAL-IP-LOCAL the two
// externalIPRules ACCEPTs and no KUBE-MARK-MASQ; KUBE-IPVS-FILTER RETURNs for both sets.
// syncEndpoint with no local endpoint: "Allow access from local PODs even if no local
// endpoints exist" — the virtual server gets every endpoint (kubernetes#97081).
describe('externalIPs under Local on a ClusterIP Service: KUBE-EXTERNAL-IP-LOCAL', () => {
  const gen = (localEndpoint: boolean) =>
    generateIpvs(
      resolveCluster(
        externalIPObjects({ mode: 'ipvs', externalTrafficPolicy: 'Local', localEndpoint }),
      ),
      FAKE_NODE.name,
    );
  const cmt =
    '-m comment --comment "Kubernetes service external ip + port with externalTrafficPolicy=local"';

  it('the set holds the external IP, KUBE-EXTERNAL-IP stays empty', () => {
    const rs = gen(true);
    expect(members(rs, 'KUBE-EXTERNAL-IP-LOCAL')).toEqual(['192.168.99.11,tcp:80']);
    expect(members(rs, 'KUBE-EXTERNAL-IP')).toEqual([]);
    expect(rs.dummyAddresses).toContain('192.168.99.11');
  });

  it('KUBE-SERVICES accepts it twice and never marks it; KUBE-IPVS-FILTER returns it', () => {
    const rs = gen(true);
    const svcChain = chain(rs, 'nat', 'KUBE-SERVICES') ?? [];
    expect(svcChain.filter((l) => l.includes('KUBE-EXTERNAL-IP-LOCAL'))).toEqual([
      `-A KUBE-SERVICES ${cmt} -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT`,
      `-A KUBE-SERVICES ${cmt} -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -m addrtype --dst-type LOCAL -j ACCEPT`,
    ]);
    // No KUBE-EXTERNAL-IP rule (the set is empty), so nothing marks it for masquerade.
    expect(svcChain.filter((l) => l.includes('--match-set KUBE-EXTERNAL-IP '))).toEqual([]);
    expect(chain(rs, 'filter', 'KUBE-IPVS-FILTER')).toContain(
      '-A KUBE-IPVS-FILTER -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -j RETURN',
    );
  });

  it('the virtual server: the local endpoint; with none, every endpoint (the fallback)', () => {
    expect(vs(gen(true), '192.168.99.11:80')).toEqual(['10.180.2.1:80']);
    expect(vs(gen(false), '192.168.99.11:80')).toEqual(['10.180.0.1:80', '10.180.2.1:80']);
  });
});
