/**
 * `flowVerdict` on a Service bigger than the old 10,000-walk cap: every ready endpoint of an
 * `externalTrafficPolicy: Cluster` Service is a DNAT target of its NodePort on any node
 * (kube-proxy pkg/proxy/iptables/proxier.go writes one KUBE-SEP- jump per endpoint into the
 * KUBE-SVC- chain; nftables one numgen element; IPVS one real server), and a packet from outside
 * the cluster to a NodePort is marked for masquerade (KUBE-EXT- → KUBE-MARK-MASQ).
 */
import { describe, expect, it } from 'vitest';
import { resolveCluster } from '../scenario/resolve';
import { generatedCluster } from '../scenario/generated';
import { fillGaps } from '../import/fill';
import { flowVerdict } from './flow';
import { proxyMode } from './modes';
import type { ProxyMode } from './types';

const PODS = 10_050;
const cluster = resolveCluster(fillGaps(generatedCluster({ nodes: 50, pods: PODS })).objects);
const node = cluster.nodes[0];

describe(`flowVerdict with ${PODS.toLocaleString('en-US')} endpoints`, () => {
  it.each<ProxyMode>(['iptables', 'nftables', 'ipvs'])(
    '%s: the NodePort DNATs to every endpoint, masqueraded',
    (mode) => {
      if (!node) throw new Error('no node');
      const impl = proxyMode(mode);
      const r = flowVerdict(
        impl,
        impl.generate({ ...cluster, kubeProxy: { ...cluster.kubeProxy, mode } }, node.name),
        node,
        {
          protocol: 'tcp',
          src: '198.51.100.23',
          sport: 51234,
          dst: node.addresses[0] ?? '',
          dport: 31000,
          mark: 0,
        },
        'network',
      );
      expect(r.verdict).toBe('DNAT');
      expect(r.endpoints).toHaveLength(PODS);
      expect(new Set(r.endpoints)).toEqual(
        new Set(
          Object.values(cluster.endpoints)
            .flat()
            .map((e) => `${e.ip}:${e.port}`),
        ),
      );
      expect(r.masquerade).toBe(true);
    },
    30_000,
  );
});
