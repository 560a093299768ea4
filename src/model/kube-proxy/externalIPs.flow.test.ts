/**
 * Packet flows to a ClusterIP Service's externalIP under externalTrafficPolicy Local, in every
 * kube-proxy mode (issue 14). The Service is the one of TestOnlyLocalExternalIPs
 * (testdata/externalIPService.ts); kube-proxy decides by `ExternalPolicyLocal`, which is true
 * for a ClusterIP Service with externalIPs (pkg/api/v1/service/util.go), so its flows are
 * the ones kube-proxy's tests give for that Service as type NodePort:
 * - iptables: proxier_test.go TestOnlyLocalExternalIPs (openshift/kubernetes@06d263eb):
 *   "cluster IP hits both endpoints", "external IP hits only local endpoint, unmasqueraded";
 * - nftables: proxier_test.go TestExternalTrafficPolicyLocal: "pod to external IP hits both
 *   endpoints, unmasqueraded", "external to external IP hits only local endpoint, unmasqueraded";
 * - no local endpoint (iptables/nftables): proxier.go "DROP anything that didn't get
 *   short-circuited by the EXT chain" — the KUBE-EXTERNAL-SERVICES DROP / the
 *   no-endpoint-services drop element; pod traffic is still short-circuited to every endpoint;
 * - ipvs: proxier_test.go TestOnlyLocalExternalIPs: the externalIP virtual server has only
 *   the local endpoint; KUBE-EXTERNAL-IP-LOCAL writes no KUBE-MARK-MASQ rule (proxier.go
 *   writeIptablesRules; TestAcceptIPVSTraffic marks only KUBE-EXTERNAL-IP); with no local
 *   endpoint `syncEndpoint` falls back to every endpoint (kubernetes#97081), unmasqueraded.
 */
import { describe, expect, it } from 'vitest';
import { resolveCluster } from '../index';
import type { ClusterNode } from '../scenario/cluster';
import { flowVerdict } from './flow';
import type { FlowResult } from './flow';
import { proxyMode } from './modes';
import type { Origin } from './types';
import { EIP, externalIPObjects } from './testdata/externalIPService';

type Mode = 'iptables' | 'nftables' | 'ipvs';

function flow(
  mode: Mode,
  src: string,
  dst: string,
  origin: Origin,
  opts: { localEndpoint?: boolean; policy?: 'Cluster' | 'Local'; internal?: 'Local' } = {},
): FlowResult {
  const c = resolveCluster(
    externalIPObjects({
      mode,
      externalTrafficPolicy: opts.policy ?? 'Local',
      localEndpoint: opts.localEndpoint ?? true,
      internalTrafficPolicy: opts.internal,
    }),
  );
  const impl = proxyMode(mode);
  const node = c.nodes[0] as ClusterNode;
  return flowVerdict(
    impl,
    impl.generate(c, node.name),
    node,
    { protocol: 'tcp', src, sport: 51234, dst, dport: EIP.port, mark: 0 },
    origin,
  );
}

const BOTH = ['10.180.0.1:80', '10.180.2.1:80'];
const LOCAL = ['10.180.2.1:80'];

describe.each(['iptables', 'nftables', 'ipvs'] as const)('%s mode', (mode) => {
  it('resolves the ClusterIP Service with externalIPs as Local', () => {
    const c = resolveCluster(externalIPObjects({ mode, externalTrafficPolicy: 'Local' }));
    expect(c.services[0]?.externalTrafficPolicy).toBe('Local');
  });

  it('pod to cluster IP hits both endpoints, unmasqueraded', () => {
    expect(flow(mode, EIP.pod, EIP.clusterIP, 'local-pod')).toEqual({
      verdict: 'DNAT',
      endpoints: BOTH,
      masquerade: false,
    });
  });

  it('external to external IP hits only the local endpoint, unmasqueraded', () => {
    expect(flow(mode, EIP.externalClient, EIP.externalIP, 'network')).toEqual({
      verdict: 'DNAT',
      endpoints: LOCAL,
      masquerade: false,
    });
  });

  it('Cluster policy: external to external IP hits both endpoints, masqueraded', () => {
    // TestNonLocalExternalIPs "external to external IP" (iptables); TestExternalTrafficPolicyCluster.
    expect(
      flow(mode, EIP.externalClient, EIP.externalIP, 'network', { policy: 'Cluster' }),
    ).toEqual({ verdict: 'DNAT', endpoints: BOTH, masquerade: true });
  });
});

// serviceport.go UsesClusterEndpoints: `!InternalPolicyLocal() || ExternallyAccessible()` —
// internalTrafficPolicy Local narrows only the ClusterIP; the externalIP still uses every
// endpoint under Cluster (TestNonLocalExternalIPs' flow, with the internal policy added).
describe.each(['iptables', 'nftables', 'ipvs'] as const)(
  '%s mode, internalTrafficPolicy Local',
  (mode) => {
    it('external to external IP still hits both endpoints, masqueraded', () => {
      const opts = { policy: 'Cluster', internal: 'Local' } as const;
      expect(flow(mode, EIP.externalClient, EIP.externalIP, 'network', opts)).toEqual({
        verdict: 'DNAT',
        endpoints: BOTH,
        masquerade: true,
      });
    });
  },
);

describe.each(['iptables', 'nftables'] as const)('%s mode, Local', (mode) => {
  it('pod to external IP hits both endpoints, unmasqueraded (short-circuit)', () => {
    expect(flow(mode, EIP.pod, EIP.externalIP, 'local-pod')).toEqual({
      verdict: 'DNAT',
      endpoints: BOTH,
      masquerade: false,
    });
  });

  it('no local endpoint: external to external IP is dropped; a pod still reaches both', () => {
    expect(
      flow(mode, EIP.externalClient, EIP.externalIP, 'network', { localEndpoint: false }),
    ).toEqual({ verdict: 'DROP', endpoints: [], masquerade: false });
    expect(flow(mode, EIP.pod, EIP.externalIP, 'local-pod', { localEndpoint: false })).toEqual({
      verdict: 'DNAT',
      endpoints: BOTH,
      masquerade: false,
    });
  });
});

describe('ipvs mode, Local', () => {
  it('a pod reaches only the local endpoint too: the virtual server has no other', () => {
    expect(flow('ipvs', EIP.pod, EIP.externalIP, 'local-pod')).toEqual({
      verdict: 'DNAT',
      endpoints: LOCAL,
      masquerade: false,
    });
  });

  it('no local endpoint: falls back to every endpoint, still unmasqueraded', () => {
    expect(
      flow('ipvs', EIP.externalClient, EIP.externalIP, 'network', { localEndpoint: false }),
    ).toEqual({ verdict: 'DNAT', endpoints: BOTH, masquerade: false });
  });
});
