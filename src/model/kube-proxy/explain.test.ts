import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../index';
import { explainLine } from './explain';

describe('explainLine', () => {
  it.each(['iptables', 'nftables', 'ipvs'] as const)(
    'has a sentence for every line of the canonical rules in %s mode (Cluster and Local, every node)',
    (proxyMode) => {
      for (const externalTrafficPolicy of ['Cluster', 'Local'] as const) {
        const r = runScene(canonicalObjects(), {
          ...DEFAULT_SCENE,
          proxyMode,
          externalTrafficPolicy,
        });
        for (const [node, rs] of Object.entries(r.rules))
          for (const l of rs.lines)
            if (l.text.trim() !== '')
              expect(explainLine(proxyMode, l.text), `${node}: ${l.text}`).toMatch(/\S/);
      }
    },
  );

  it('says what the key iptables rules do, with the line’s own values', () => {
    expect(
      explainLine(
        'iptables',
        '-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-AFGSLHOD2HFNCBX4',
      ),
    ).toBe('With probability 0.5000 of what is left, use 10.244.1.5:8080.');
    expect(
      explainLine(
        'iptables',
        '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP',
      ),
    ).toBe(
      'externalTrafficPolicy Local and no endpoint on this node: drop external traffic to port 31000.',
    );
    expect(
      explainLine(
        'iptables',
        '-A KUBE-SEP-AFGSLHOD2HFNCBX4 -p tcp -m comment --comment "default/web:http" -m tcp -j DNAT --to-destination 10.244.1.5:8080',
      ),
    ).toBe('DNAT: rewrite the destination to the pod 10.244.1.5:8080.');
  });

  it('nftables and IPVS lines', () => {
    expect(explainLine('nftables', '\t\tmeta l4proto tcp dnat to 10.244.3.9:8080')).toBe(
      'DNAT: rewrite the destination to the pod 10.244.3.9:8080.',
    );
    expect(explainLine('ipvs', 'TCP  192.168.0.11:31000 rr')).toBe(
      'A virtual server for 192.168.0.11:31000: the rr scheduler spreads new connections over its real servers.',
    );
    expect(
      explainLine('ipvs', '  -> 10.244.1.5:8080              Masq    1      0          0         '),
    ).toBe('Real server 10.244.1.5:8080: forwarded by NAT (Masq), i.e. DNAT to the pod.');
  });

  it('IPVS externalIP rules, Cluster and Local (ipvs proxier.go externalIPRules)', () => {
    const cmt = (local: boolean) =>
      `-m comment --comment "Kubernetes service external ip + port ${local ? 'with externalTrafficPolicy=local' : 'for masquerade and filter purpose'}"`;
    expect(
      explainLine(
        'ipvs',
        `-A KUBE-SERVICES ${cmt(false)} -m set --match-set KUBE-EXTERNAL-IP dst,dst -j KUBE-MARK-MASQ`,
      ),
    ).toBe('externalTrafficPolicy Cluster: traffic to an external IP is marked for SNAT.');
    expect(
      explainLine(
        'ipvs',
        `-A KUBE-SERVICES ${cmt(true)} -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT`,
      ),
    ).toBe(
      "Traffic to an address in KUBE-EXTERNAL-IP-LOCAL from off the machine (not from a pod's bridge, not from the node) is accepted here; IPVS takes it, unmarked (externalTrafficPolicy Local).",
    );
    expect(
      explainLine(
        'ipvs',
        `-A KUBE-SERVICES ${cmt(true)} -m set --match-set KUBE-EXTERNAL-IP-LOCAL dst,dst -m addrtype --dst-type LOCAL -j ACCEPT`,
      ),
    ).toBe(
      "An address in KUBE-EXTERNAL-IP-LOCAL that is also one of the node's own is accepted here, so it stays local; IPVS takes it.",
    );
  });

  it('returns undefined for blank lines', () => {
    expect(explainLine('iptables', '   ')).toBeUndefined();
  });
});
