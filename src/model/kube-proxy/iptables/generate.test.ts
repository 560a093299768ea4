/**
 * kube-proxy's iptables rules for the canonical scenario, compared line by line with what
 * `iptables-save` prints on a node running kube-proxy in iptables mode.
 *
 * Sources (cited per group below):
 * - kube-proxy `pkg/proxy/iptables/proxier.go` (`iptablesJumpChains`, `syncProxyRules`,
 *   `writeServiceToEndpointRules`, `computeProbability`) at
 *   danwinship/kubernetes@07c76c3a11bef9f4a6de65237bc91adc2c5b50ee, and
 *   shared/reference/kube-proxy.md §1.2–§1.6.
 * - iptables-save print format (iptables 1.8): `-s`, `-d`, `-p` first, then each `-m` match
 *   in the order given, then `-j`; addresses with their prefix (`/32`); comments quoted unless
 *   they are plain words (`xtables_save_string`); `-m tcp` kept wherever kube-proxy wrote it.
 * - libxt_statistic.c: `lround(0x80000000 * p)` when parsing, `--probability %.11f` of
 *   `stored / 0x80000000` when saving.
 * - libxt_MARK.c `mark_tg_save`: `--set-xmark 0x%x/0x%x` for every MARK rule (so
 *   `--or-mark 0x4000` saves as `--set-xmark 0x4000/0x4000`, `--xor-mark 0x4000` as
 *   `--set-xmark 0x4000/0x0`).
 * - libipt_REJECT.c: REJECT saves its default `--reject-with icmp-port-unreachable`.
 */
import { describe, it, expect } from 'vitest';
import type { ScenarioObject } from '../../k8s/objects';
import { CANON, scene } from '../../test/driver';
import type { SceneDriver } from '../../test/driver';

const { svc: SVC, svl: SVL, ext: EXT, fw: FW, sep1: SEP1, sep3: SEP3 } = CANON.chains;
const S = 'default/web:http';

/** Adds endpoints (ip, node) to the canonical EndpointSlice. */
function withEndpoints(d: SceneDriver, eps: { ip: string; node: string }[]): SceneDriver {
  return d.edit((objects: ScenarioObject[]) => {
    for (const o of objects)
      if (o.kind === 'EndpointSlice')
        for (const ep of eps)
          o.endpoints.push({
            addresses: [ep.ip],
            conditions: { ready: true, serving: true, terminating: false },
            nodeName: ep.node,
          });
  });
}

// proxier.go `iptablesJumpChains` + `iptablesKubeletJumpChains`, each installed with
// EnsureRule(Prepend) in list order, so the last one listed for a chain ends up first;
// kubelet's KUBE-FIREWALL jump already exists when kube-proxy starts, so it stays last.
// This is the order seen on real nodes (`iptables-save -t filter`).
describe('fixed jump rules', () => {
  const r = scene().rules('node-1');

  it('filter INPUT: KUBE-PROXY-FIREWALL, KUBE-NODEPORTS, KUBE-EXTERNAL-SERVICES, KUBE-FIREWALL', () => {
    expect(r.chain('filter', 'INPUT')).toEqual([
      '-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
      '-A INPUT -m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS',
      '-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
      '-A INPUT -j KUBE-FIREWALL',
    ]);
  });

  it('filter FORWARD and OUTPUT', () => {
    expect(r.chain('filter', 'FORWARD')).toEqual([
      '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
      '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
      '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
    ]);
    expect(r.chain('filter', 'OUTPUT')).toEqual([
      '-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
      '-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A OUTPUT -j KUBE-FIREWALL',
    ]);
  });

  it('nat PREROUTING, OUTPUT, POSTROUTING', () => {
    expect(r.chain('nat', 'PREROUTING')).toEqual([
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ]);
    expect(r.chain('nat', 'OUTPUT')).toEqual([
      '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    ]);
    expect(r.chain('nat', 'POSTROUTING')).toEqual([
      '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
    ]);
  });
});

// proxier.go syncProxyRules, the fixed rules written on every sync (reference §1.2);
// masqueradeBit 14 → mark 0x4000; iptables supports --random-fully; nfacct counters exist;
// nf_conntrack_tcp_be_liberal is 0; localhostNodePorts (default true) writes KUBE-FIREWALL.
describe('fixed kube-proxy chains', () => {
  const r = scene().rules('node-2');

  it('KUBE-POSTROUTING masquerades marked traffic, clearing the mark first (libxt_MARK saves --set-xmark)', () => {
    expect(r.chain('nat', 'KUBE-POSTROUTING')).toEqual([
      '-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
      '-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    ]);
  });

  it('KUBE-MARK-MASQ sets bit 0x4000 (libxt_MARK saves --or-mark as --set-xmark V/V)', () => {
    expect(r.chain('nat', 'KUBE-MARK-MASQ')).toEqual([
      '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
    ]);
  });

  it('KUBE-FORWARD and KUBE-FIREWALL', () => {
    expect(r.chain('filter', 'KUBE-FORWARD')).toEqual([
      '-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    ]);
    expect(r.chain('filter', 'KUBE-FIREWALL')).toEqual([
      '-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
    ]);
  });

  it('declares the top-level chains of both tables', () => {
    for (const c of [
      'KUBE-SERVICES',
      'KUBE-EXTERNAL-SERVICES',
      'KUBE-FORWARD',
      'KUBE-NODEPORTS',
      'KUBE-PROXY-FIREWALL',
    ])
      expect(r.hasChain('filter', c), c).toBe(true);
    for (const c of ['KUBE-SERVICES', 'KUBE-NODEPORTS', 'KUBE-POSTROUTING', 'KUBE-MARK-MASQ'])
      expect(r.hasChain('nat', c), c).toBe(true);
  });

  it('prints chain declarations as iptables-save does', () => {
    const nat = r.save('nat');
    expect(nat.startsWith('*nat\n:PREROUTING ACCEPT [0:0]\n')).toBe(true);
    expect(nat).toContain(`\n:${SVC} - [0:0]\n`);
    expect(nat.endsWith('\nCOMMIT')).toBe(true);
    expect(r.save('filter').startsWith('*filter\n:INPUT ACCEPT [0:0]\n')).toBe(true);
  });
});

// proxier.go syncProxyRules, per-service rules (reference §1.3), externalTrafficPolicy Cluster.
// Every node gets the same nat rules: the NodePort is open on node-2 too, although no web pod
// runs there (the seed's step 1).
describe('externalTrafficPolicy: Cluster', () => {
  for (const node of ['node-1', 'node-2', 'node-3']) {
    describe(node, () => {
      const r = scene().rules(node);

      it('KUBE-SERVICES: cluster IP, loadbalancer IP, then the nodeports rule last', () => {
        expect(r.chain('nat', 'KUBE-SERVICES')).toEqual([
          `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j ${SVC}`,
          `-A KUBE-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} loadbalancer IP" -m tcp --dport 80 -j ${EXT}`,
          '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
        ]);
      });

      it('KUBE-NODEPORTS: the localhost (nfacct) rule, then the NodePort rule, bare comment quoted', () => {
        expect(r.chain('nat', 'KUBE-NODEPORTS')).toEqual([
          `-A KUBE-NODEPORTS -d 127.0.0.0/8 -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j ${EXT}`,
          `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
        ]);
      });

      it('KUBE-EXT marks everything for masquerade, then jumps to KUBE-SVC', () => {
        expect(r.chain('nat', EXT)).toEqual([
          `-A ${EXT} -m comment --comment "masquerade traffic for ${S} external destinations" -j KUBE-MARK-MASQ`,
          `-A ${EXT} -j ${SVC}`,
        ]);
      });

      it('KUBE-SVC: off-cluster masquerade, then the statistic cascade in ip:port order', () => {
        expect(r.chain('nat', SVC)).toEqual([
          `-A ${SVC} ! -s 10.244.0.0/16 -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`,
          `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j ${SEP1}`,
          `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
        ]);
      });

      it('KUBE-SEP: hairpin masquerade, then DNAT with -m tcp', () => {
        expect(r.chain('nat', SEP1)).toEqual([
          `-A ${SEP1} -s 10.244.1.5/32 -m comment --comment "${S}" -j KUBE-MARK-MASQ`,
          `-A ${SEP1} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
        ]);
        expect(r.chain('nat', SEP3)).toEqual([
          `-A ${SEP3} -s 10.244.3.9/32 -m comment --comment "${S}" -j KUBE-MARK-MASQ`,
          `-A ${SEP3} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.3.9:8080`,
        ]);
      });

      it('no KUBE-SVL, no KUBE-FW, no filter rules for the Service', () => {
        expect(r.hasChain('nat', SVL)).toBe(false);
        expect(r.hasChain('nat', FW)).toBe(false);
        expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([]);
        expect(r.chain('filter', 'KUBE-NODEPORTS')).toEqual([]);
        expect(r.chain('filter', 'KUBE-SERVICES')).toEqual([]);
      });
    });
  }
});

// externalTrafficPolicy Local (reference §1.3 item 8, §1.4, §1.6): the API server allocates a
// healthCheckNodePort; kube-proxy writes the filter ACCEPT for it on every node.
describe('externalTrafficPolicy: Local', () => {
  const local = scene({ externalTrafficPolicy: 'Local' });
  const hcnp = local.run().cluster.services[0]?.healthCheckNodePort ?? 0;

  it('allocates a healthCheckNodePort from the NodePort range', () => {
    // pkg/registry/core/service: allocated from service-node-port-range (default 30000-32767).
    expect(hcnp).toBeGreaterThanOrEqual(30000);
    expect(hcnp).toBeLessThanOrEqual(32767);
  });

  describe('node-2 (no local endpoints)', () => {
    const r = local.rules('node-2');

    it('drops external traffic in KUBE-EXTERNAL-SERVICES: the LB IP, then the NodePort', () => {
      // syncProxyRules: !hasExternalEndpoints → DROP with "<svc> has no local endpoints".
      expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
        `-A KUBE-EXTERNAL-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} has no local endpoints" -m tcp --dport 80 -j DROP`,
        `-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "${S} has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP`,
      ]);
    });

    it('accepts the health check node port in filter KUBE-NODEPORTS', () => {
      // "no matter if node has local endpoints, healthCheckNodePorts need to add a rule".
      expect(r.chain('filter', 'KUBE-NODEPORTS')).toEqual([
        `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S} health check node port" -m tcp --dport ${hcnp} -j ACCEPT`,
      ]);
    });

    it('KUBE-EXT has the three short-circuit rules and no final jump', () => {
      expect(r.chain('nat', EXT)).toEqual([
        `-A ${EXT} -s 10.244.0.0/16 -m comment --comment "pod traffic for ${S} external destinations" -j ${SVC}`,
        `-A ${EXT} -m comment --comment "masquerade LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
        `-A ${EXT} -m comment --comment "route LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j ${SVC}`,
      ]);
    });

    it('has no KUBE-SVL chain but keeps KUBE-SVC (for short-circuited traffic) and the nat captures', () => {
      expect(r.hasChain('nat', SVL)).toBe(false);
      expect(r.chain('nat', SVC)?.length).toBe(3);
      // usesExternalTrafficChain = hasEndpoints && externally accessible: the LB IP and NodePort
      // rules still lead to KUBE-EXT, so pods and the node itself can use the Service.
      expect(r.chain('nat', 'KUBE-SERVICES')).toContain(
        `-A KUBE-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} loadbalancer IP" -m tcp --dport 80 -j ${EXT}`,
      );
      expect(r.chain('nat', 'KUBE-NODEPORTS')).toContain(
        `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
      );
    });
  });

  describe('node-1 (one local endpoint)', () => {
    const r = local.rules('node-1');

    it('KUBE-EXT ends with -j KUBE-SVL', () => {
      const ext = r.chain('nat', EXT) ?? [];
      expect(ext).toHaveLength(4);
      expect(ext[3]).toBe(`-A ${EXT} -j ${SVL}`);
    });

    it('KUBE-SVL holds only the local endpoint, unconditionally', () => {
      expect(r.chain('nat', SVL)).toEqual([
        `-A ${SVL} -m comment --comment "${S} -> 10.244.1.5:8080" -j ${SEP1}`,
      ]);
    });

    it('keeps KUBE-SVC with every endpoint, and a KUBE-SEP for each reachable endpoint', () => {
      expect(r.chain('nat', SVC)).toEqual([
        `-A ${SVC} ! -s 10.244.0.0/16 -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`,
        `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j ${SEP1}`,
        `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
      ]);
      expect(r.hasChain('nat', SEP1)).toBe(true);
      expect(r.hasChain('nat', SEP3)).toBe(true);
    });

    it('drops nothing in KUBE-EXTERNAL-SERVICES, still accepts the health check port', () => {
      expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([]);
      expect(r.chain('filter', 'KUBE-NODEPORTS')).toEqual([
        `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S} health check node port" -m tcp --dport ${hcnp} -j ACCEPT`,
      ]);
    });
  });
});

// servicechangetracker.go / serviceport.go: an ingress with ipMode Proxy is skipped
// (`!proxyutil.IsVIPMode`): no "loadbalancer IP" rule, no KUBE-EXTERNAL-SERVICES drop for it
// (reference §1.6; TestLoadBalancerIPMode in proxier_test.go).
describe('ipMode: Proxy', () => {
  it('writes no loadbalancer IP rule (Cluster)', () => {
    for (const node of ['node-1', 'node-2', 'node-3']) {
      const r = scene({ ipMode: 'Proxy' }).rules(node);
      expect(r.lines('nat').filter((l) => l.includes('loadbalancer IP'))).toEqual([]);
      expect(r.lines('nat').filter((l) => l.includes('203.0.113.7'))).toEqual([]);
      expect(r.chain('nat', 'KUBE-SERVICES')).toEqual([
        `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j ${SVC}`,
        '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
      ]);
    }
  });

  it('under Local on node-2 drops only the NodePort, not the skipped LB IP', () => {
    const r = scene({ ipMode: 'Proxy', externalTrafficPolicy: 'Local' }).rules('node-2');
    expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
      `-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "${S} has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP`,
    ]);
  });

  it('a missing ipMode counts as VIP', () => {
    const r = scene()
      .edit((objects) => {
        for (const o of objects)
          if (o.kind === 'Service')
            for (const i of o.status?.loadBalancer?.ingress ?? []) delete i.ipMode;
      })
      .rules('node-1');
    expect(r.lines('nat').some((l) => l.includes(`"${S} loadbalancer IP"`))).toBe(true);
  });
});

// syncProxyRules with !hasEndpoints: "no nat chains are generated", REJECT in filter with
// "<svc> has no endpoints" for the cluster IP (KUBE-SERVICES) and for the LB IP and the
// NodePort (KUBE-EXTERNAL-SERVICES) — reference §1.4. Failing node-1 and node-3 leaves the
// Service with no ready endpoint anywhere.
describe('no endpoints at all', () => {
  for (const policy of ['Cluster', 'Local'] as const) {
    describe(`externalTrafficPolicy ${policy}`, () => {
      const r = scene({ externalTrafficPolicy: policy, failedNodes: ['node-1', 'node-3'] }).rules(
        'node-2',
      );

      it('REJECTs the cluster IP in filter KUBE-SERVICES', () => {
        expect(r.chain('filter', 'KUBE-SERVICES')).toEqual([
          `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable`,
        ]);
      });

      it('REJECTs the LB IP and the NodePort in KUBE-EXTERNAL-SERVICES (REJECT, not DROP, even under Local)', () => {
        expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
          `-A KUBE-EXTERNAL-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable`,
          `-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "${S} has no endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j REJECT --reject-with icmp-port-unreachable`,
        ]);
      });

      it('writes no per-service nat chain and no nat capture', () => {
        const names = r.chainNames('nat');
        expect(names.filter((n) => /^KUBE-(SVC|SVL|EXT|FW|SEP)-/.test(n))).toEqual([]);
        expect(r.chain('nat', 'KUBE-NODEPORTS')).toEqual([]);
        expect(r.chain('nat', 'KUBE-SERVICES')).toEqual([
          '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
        ]);
      });
    });
  }
});

// proxier.go: the nodeports jump is written after every service rule ("NOTE: this must be the
// last rule in this chain").
describe('KUBE-SERVICES ends with the nodeports rule', () => {
  const variants = [
    scene(),
    scene({ externalTrafficPolicy: 'Local' }),
    scene({ ipMode: 'Proxy' }),
    scene({ failedNodes: ['node-1', 'node-3'] }),
    scene({ published: false }),
  ];
  it('on every node, in every variant', () => {
    for (const v of variants)
      for (const node of ['node-1', 'node-2', 'node-3']) {
        const rules = v.rules(node).chain('nat', 'KUBE-SERVICES') ?? [];
        expect(rules[rules.length - 1]).toBe(
          '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
        );
      }
  });
});

// status.loadBalancer empty (EXTERNAL-IP <pending>): no LB VIPs, so no loadbalancer IP rule;
// the NodePort works as before.
describe('unpublished load balancer', () => {
  it('has no loadbalancer IP rule but keeps the NodePort', () => {
    const r = scene({ published: false }).rules('node-1');
    expect(r.lines('nat').some((l) => l.includes('loadbalancer IP'))).toBe(false);
    expect(r.chain('nat', 'KUBE-NODEPORTS')).toContain(
      `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
    );
  });
});

// writeServiceToEndpointRules: endpoints in `ip:port` string order (byEndpoint compares
// String()), rule i of n gets `--probability` computeProbability(n-i) = %0.10f of 1/(n-i),
// the last has no statistic match; iptables-save shows lround(0x80000000*p)/0x80000000 with
// %.11f (libxt_statistic.c).
describe('statistic cascade', () => {
  it('three endpoints: 1/3 → 0.33333333349, 1/2 → 0.50000000000, then unconditional', () => {
    const r = withEndpoints(scene(), [{ ip: '10.244.2.7', node: 'node-2' }]).rules('node-1');
    expect(r.chain('nat', SVC)?.slice(1)).toEqual([
      `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m statistic --mode random --probability 0.33333333349 -j ${SEP1}`,
      `-A ${SVC} -m comment --comment "${S} -> 10.244.2.7:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-2RIJ5GIYXEFH6G4D`,
      `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
    ]);
  });

  it('sorts endpoints as strings: 10.244.1.5 < 10.244.10.2 < 10.244.3.9', () => {
    const r = withEndpoints(scene(), [{ ip: '10.244.10.2', node: 'node-2' }]).rules('node-1');
    const order = (r.chain('nat', SVC) ?? []).slice(1).map((l) => /-> ([\d.:]+)"/.exec(l)?.[1]);
    expect(order).toEqual(['10.244.1.5:8080', '10.244.10.2:8080', '10.244.3.9:8080']);
  });

  it('four endpoints: 0.25, 1/3, 0.5', () => {
    const r = withEndpoints(scene(), [
      { ip: '10.244.2.7', node: 'node-2' },
      { ip: '10.244.2.8', node: 'node-2' },
    ]).rules('node-1');
    const probs = (r.chain('nat', SVC) ?? []).map((l) => /--probability (\S+)/.exec(l)?.[1]);
    expect(probs).toEqual([
      undefined,
      '0.25000000000',
      '0.33333333349',
      '0.50000000000',
      undefined,
    ]);
  });

  it('prints the probability kube-proxy wrote (%0.10f of 1/n) after 31-bit rounding: 44 endpoints', () => {
    // computeProbability(44) = "0.0227272727"; lround(0x80000000 * 0.0227272727) = 48806446;
    // 48806446 / 0x80000000 = 0.022727272473… → "0.02272727247". Rounding 1/44 itself
    // (48806447) would print 0.02272727294, which no node shows.
    const extra = Array.from({ length: 42 }, (_, i) => ({
      ip: `10.244.4.${i + 10}`,
      node: 'node-2',
    }));
    const r = withEndpoints(scene(), extra).rules('node-1');
    const first = (r.chain('nat', SVC) ?? [])[1] ?? '';
    expect(first).toContain('--probability 0.02272727247 ');
  });
});

// Further Service and kube-proxy settings the generator supports (syncProxyRules, reference
// §1.3 items 2, 7, 9, 10, 11 and §1.5).
describe('further settings', () => {
  const svcOf = (objects: ScenarioObject[]) => {
    const s = objects.find((o) => o.kind === 'Service');
    if (s?.kind !== 'Service' || !s.spec) throw new Error('no Service');
    return s.spec;
  };
  const kubeProxyOf = (objects: ScenarioObject[]) => {
    const k = objects.find((o) => o.kind === 'KubeProxyConfiguration');
    if (k?.kind !== 'KubeProxyConfiguration') throw new Error('no KubeProxyConfiguration');
    return k;
  };

  it('sessionAffinity ClientIP: recent --rcheck rules first, recent --set before the DNAT', () => {
    // libxt_recent save order: --rcheck --seconds N --reap --name X --mask … --rsource.
    const r = scene()
      .edit((o) => {
        svcOf(o).sessionAffinity = 'ClientIP';
        svcOf(o).sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      })
      .rules('node-1');
    expect(r.chain('nat', SVC)?.slice(1)).toEqual([
      `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m recent --rcheck --seconds 10800 --reap --name ${SEP1} --mask 255.255.255.255 --rsource -j ${SEP1}`,
      `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -m recent --rcheck --seconds 10800 --reap --name ${SEP3} --mask 255.255.255.255 --rsource -j ${SEP3}`,
      `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j ${SEP1}`,
      `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
    ]);
    expect(r.chain('nat', SEP1)?.[1]).toBe(
      `-A ${SEP1} -p tcp -m comment --comment "${S}" -m recent --set --name ${SEP1} --mask 255.255.255.255 --rsource -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
    );
  });

  it('loadBalancerSourceRanges: KUBE-FW per range (trimmed), the LB IP when a range holds the node, then the drop', () => {
    const r = scene()
      .edit((o) => {
        svcOf(o).loadBalancerSourceRanges = ['198.51.100.0/24', ' 192.168.0.0/16 '];
      })
      .rules('node-1');
    expect(r.chain('nat', 'KUBE-SERVICES')?.[1]).toBe(
      `-A KUBE-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} loadbalancer IP" -m tcp --dport 80 -j ${FW}`,
    );
    expect(r.chain('nat', FW)).toEqual([
      `-A ${FW} -s 198.51.100.0/24 -m comment --comment "${S} loadbalancer IP" -j ${EXT}`,
      `-A ${FW} -s 192.168.0.0/16 -m comment --comment "${S} loadbalancer IP" -j ${EXT}`,
      `-A ${FW} -s 203.0.113.7/32 -m comment --comment "${S} loadbalancer IP" -j ${EXT}`,
      `-A ${FW} -m comment --comment "other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL"`,
    ]);
    expect(r.chain('filter', 'KUBE-PROXY-FIREWALL')).toEqual([
      `-A KUBE-PROXY-FIREWALL -d 203.0.113.7/32 -p tcp -m comment --comment "${S} traffic not accepted by ${FW}" -m tcp --dport 80 -j DROP`,
    ]);
    // NodePorts are not subject to loadBalancerSourceRanges.
    expect(r.chain('nat', 'KUBE-NODEPORTS')).toContain(
      `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
    );
  });

  it('externalIPs: captured to KUBE-EXT, dropped like the LB IP under Local without local endpoints', () => {
    const r = scene({ externalTrafficPolicy: 'Local' })
      .edit((o) => {
        svcOf(o).externalIPs = ['192.0.2.10'];
      })
      .rules('node-2');
    expect(r.chain('nat', 'KUBE-SERVICES')?.[1]).toBe(
      `-A KUBE-SERVICES -d 192.0.2.10/32 -p tcp -m comment --comment "${S} external IP" -m tcp --dport 80 -j ${EXT}`,
    );
    expect(r.chain('filter', 'KUBE-EXTERNAL-SERVICES')?.[0]).toBe(
      `-A KUBE-EXTERNAL-SERVICES -d 192.0.2.10/32 -p tcp -m comment --comment "${S} has no local endpoints" -m tcp --dport 80 -j DROP`,
    );
  });

  it('a ClusterIP Service with externalIPs under Local: KUBE-EXT → KUBE-SVL, or the DROP', () => {
    // Issue 14. ExternalPolicyLocal (pkg/api/v1/service/util.go) is true for ClusterIP with
    // externalIPs; proxier.go then writes what TestOnlyLocalExternalIPs (testdata/) shows for
    // the NodePort case, and without local endpoints the KUBE-EXTERNAL-SERVICES DROP of
    // TestOverallIPTablesRules' svc2 ("ns2/svc2:p80 has no local endpoints"). There is no
    // NodePort, so no KUBE-NODEPORTS rule and no addrtype DROP.
    const d = scene().edit((o) => {
      o.splice(
        o.findIndex((x) => x.kind === 'CloudLoadBalancer'),
        1,
      );
      const spec = svcOf(o);
      spec.type = 'ClusterIP';
      spec.externalIPs = ['192.0.2.10'];
      spec.externalTrafficPolicy = 'Local';
      delete spec.allocateLoadBalancerNodePorts;
      spec.ports = [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }];
      // No balancer, so no status.loadBalancer either.
      const i = o.findIndex((x) => x.kind === 'Service');
      o[i] = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'default' },
        spec,
      };
    });
    const n1 = d.rules('node-1');
    expect(n1.chain('nat', 'KUBE-SERVICES')?.slice(0, 2)).toEqual([
      `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j ${SVC}`,
      `-A KUBE-SERVICES -d 192.0.2.10/32 -p tcp -m comment --comment "${S} external IP" -m tcp --dport 80 -j ${EXT}`,
    ]);
    expect(n1.chain('nat', EXT)).toEqual([
      `-A ${EXT} -s 10.244.0.0/16 -m comment --comment "pod traffic for ${S} external destinations" -j ${SVC}`,
      `-A ${EXT} -m comment --comment "masquerade LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ`,
      `-A ${EXT} -m comment --comment "route LOCAL traffic for ${S} external destinations" -m addrtype --src-type LOCAL -j ${SVC}`,
      `-A ${EXT} -j ${SVL}`,
    ]);
    expect(n1.chain('nat', SVL)).toEqual([
      `-A ${SVL} -m comment --comment "${S} -> 10.244.1.5:8080" -j ${SEP1}`,
    ]);
    expect(n1.chain('filter', 'KUBE-EXTERNAL-SERVICES') ?? []).toEqual([]);
    const n2 = d.rules('node-2');
    expect(n2.chain('filter', 'KUBE-EXTERNAL-SERVICES')).toEqual([
      `-A KUBE-EXTERNAL-SERVICES -d 192.0.2.10/32 -p tcp -m comment --comment "${S} has no local endpoints" -m tcp --dport 80 -j DROP`,
    ]);
    expect(n2.chain('nat', EXT)).toHaveLength(3);
    expect(n2.chain('nat', 'KUBE-NODEPORTS') ?? []).toEqual([]);
  });

  it('a LoadBalancer with no NodePort and no ingress yet is not externally accessible: no KUBE-EXT', () => {
    // proxier.go: usesExternalTrafficChain := hasEndpoints && svcInfo.ExternallyAccessible(),
    // and serviceport.go ExternallyAccessible is per port: a nodePort, a VIP or an externalIP.
    // (allocateLoadBalancerNodePorts: false, status.loadBalancer still empty.)
    const r = scene()
      .edit((o) => {
        const spec = svcOf(o);
        spec.allocateLoadBalancerNodePorts = false;
        spec.ports = [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }];
        const i = o.findIndex((x) => x.kind === 'Service');
        o[i] = {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web', namespace: 'default' },
          spec,
        };
      })
      .rules('node-1');
    expect(r.chain('nat', EXT)).toBeUndefined();
    expect(r.lines('nat').some((l) => l.includes('KUBE-EXT-'))).toBe(false);
    expect(r.chain('nat', SVC)?.length).toBe(3);
  });

  it('internalTrafficPolicy Local: the cluster IP goes to KUBE-SVL, or is dropped without local endpoints', () => {
    const d = scene().edit((o) => {
      svcOf(o).internalTrafficPolicy = 'Local';
    });
    const n1 = d.rules('node-1');
    expect(n1.chain('nat', 'KUBE-SERVICES')?.[0]).toBe(
      `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j ${SVL}`,
    );
    expect(n1.chain('nat', SVL)).toEqual([
      `-A ${SVL} ! -s 10.244.0.0/16 -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`,
      `-A ${SVL} -m comment --comment "${S} -> 10.244.1.5:8080" -j ${SEP1}`,
    ]);
    const n2 = d.rules('node-2');
    expect(n2.chain('filter', 'KUBE-SERVICES')).toEqual([
      `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} has no local endpoints" -m tcp --dport 80 -j DROP`,
    ]);
    expect(n2.lines('nat').some((l) => l.includes('cluster IP'))).toBe(false);
  });

  it('terminating endpoints: Local falls back to local serving+terminating ones, Cluster keeps ready ones', () => {
    // CategorizeEndpoints (pkg/proxy/topology.go): the local list falls back to local
    // serving && terminating endpoints; the cluster list only when no endpoint is ready.
    const r = scene({ externalTrafficPolicy: 'Local' })
      .edit((o) => {
        for (const x of o)
          if (x.kind === 'EndpointSlice' && x.endpoints[0])
            x.endpoints[0].conditions = { ready: false, serving: true, terminating: true };
      })
      .rules('node-1');
    expect(r.chain('nat', SVL)).toEqual([
      `-A ${SVL} -m comment --comment "${S} -> 10.244.1.5:8080" -j ${SEP1}`,
    ]);
    expect(r.chain('nat', SVC)?.slice(1)).toEqual([
      `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
    ]);
  });

  it('detectLocalMode NodeCIDR uses the node podCIDR; masqueradeAll drops the source match', () => {
    const nodeCIDR = scene()
      .edit((o) => {
        kubeProxyOf(o).detectLocalMode = 'NodeCIDR';
      })
      .rules('node-1');
    expect(nodeCIDR.chain('nat', SVC)?.[0]).toBe(
      `-A ${SVC} ! -s 10.244.1.0/24 -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`,
    );
    const all = scene()
      .edit((o) => {
        kubeProxyOf(o).iptables = { masqueradeAll: true };
      })
      .rules('node-1');
    expect(all.chain('nat', SVC)?.[0]).toBe(
      `-A ${SVC} -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`,
    );
  });

  it('explicit nodePortAddresses: one nodeports rule per matching node IP, no localhost NodePort', () => {
    const r = scene()
      .edit((o) => {
        kubeProxyOf(o).nodePortAddresses = ['192.168.0.0/24'];
      })
      .rules('node-1');
    const svcs = r.chain('nat', 'KUBE-SERVICES') ?? [];
    expect(svcs[svcs.length - 1]).toBe(
      '-A KUBE-SERVICES -d 192.168.0.11/32 -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -j KUBE-NODEPORTS',
    );
    expect(r.chain('nat', 'KUBE-NODEPORTS')).toEqual([
      `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
    ]);
  });

  it('explicit nodePortAddresses still leaves the KUBE-FIREWALL jumps in INPUT and OUTPUT', () => {
    // proxier.go syncProxyRules: `for _, jump := range append(iptablesJumpChains,
    // iptablesKubeletJumpChains...)` runs EnsureChain + EnsureRule(Prepend) for
    // `-A INPUT -j KUBE-FIREWALL` and `-A OUTPUT -j KUBE-FIREWALL` on every full sync,
    // whatever localhostNodePorts is; only the DROP rule inside KUBE-FIREWALL depends on it.
    const r = scene()
      .edit((o) => {
        kubeProxyOf(o).nodePortAddresses = ['192.168.0.0/24'];
      })
      .rules('node-1');
    expect(r.chain('filter', 'INPUT')?.at(-1)).toBe('-A INPUT -j KUBE-FIREWALL');
    expect(r.chain('filter', 'OUTPUT')?.at(-1)).toBe('-A OUTPUT -j KUBE-FIREWALL');
    expect(r.hasChain('filter', 'KUBE-FIREWALL')).toBe(true);
  });
});
