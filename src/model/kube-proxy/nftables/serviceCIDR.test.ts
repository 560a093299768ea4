/**
 * nftables mode's `cluster-ips-check` follows the cluster's ServiceCIDR objects, and its mark
 * follows `nftables.masqueradeBit`.
 *
 * Expectations from kubernetes/kubernetes:
 * - pkg/proxy/nftables/proxier.go `setupNFTables`: `ip daddr @cluster-ips reject` ("Reject
 *   traffic to invalid ports of ClusterIPs"), then `ip daddr { <serviceCIDRs> } drop` ("Drop
 *   traffic to unallocated ClusterIPs"), written only when serviceCIDRs is non-empty;
 *   `OnServiceCIDRsChanged` keeps the CIDRs of the proxier's family. proxier_test.go's
 *   NewFakeProxier expects `ip daddr { 172.30.0.0/16 } drop` for its one range (nft lists a
 *   one-element anonymous set without braces).
 * - pkg/proxy/config/config.go `handleServiceCIDREvent`: the union of every ServiceCIDR's
 *   spec.cidrs.
 * - cmd/kube-proxy/app/server_linux.go: nftables mode's mark is
 *   `1 << *config.NFTables.MasqueradeBit`; v1alpha1 defaults.go sets it to 14 (0x4000).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, resolveCluster, runScene } from '../../index';
import type { ScenarioObject } from '../../k8s/objects';
import type { Cluster, ClusterNode } from '../../scenario/cluster';
import { explainLine } from '../explain';
import { generateIptables } from '../iptables/generate';
import { formatRuleset } from '../iptables/rule';
import type { ModePacket, ModeProcessing } from '../types';
import { formatNftables } from './format';
import { generateNftables } from './generate';
import { processNftables } from './walk';

const serviceCIDR = (name: string, cidrs: string[]): ScenarioObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: { name },
  spec: { cidrs },
  status: { conditions: [{ type: 'Ready', status: 'True', reason: '', message: '' }] },
});

const cluster = (...extra: ScenarioObject[]): Cluster =>
  resolveCluster([...canonicalObjects(), ...extra]);

const chain = (c: Cluster, name: string) =>
  generateNftables(c, 'node-2')
    .chains.find((ch) => ch.name === name)
    ?.rules.map((r) => r.text);

const nodeOf = (c: Cluster, name: string): ClusterNode => {
  const n = c.nodes.find((x) => x.name === name);
  if (!n) throw new Error(name);
  return n;
};

/** A new TCP connection from a Pod on node-2 (canonical 10.244.2.4) to `dst:dport`. */
function fromPod(c: Cluster, dst: string, dport: number): ModeProcessing {
  const p: ModePacket = { protocol: 'tcp', src: '10.244.2.4', sport: 51234, dst, dport, mark: 0 };
  return processNftables(
    generateNftables(c, 'node-2'),
    nodeOf(c, 'node-2'),
    p,
    'local-pod',
    () => 0,
  );
}

describe('cluster-ips-check from ServiceCIDR objects', () => {
  it('without a ServiceCIDR, the assumed default 10.96.0.0/12', () => {
    expect(chain(cluster(), 'cluster-ips-check')).toEqual([
      'ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"',
      'ip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs"',
    ]);
  });

  it('the range of the cluster’s own ServiceCIDR', () => {
    const c = cluster(serviceCIDR('kubernetes', ['10.96.0.0/16']));
    expect(c.assumed.some((a) => a.startsWith('ServiceCIDR'))).toBe(false);
    expect(chain(c, 'cluster-ips-check')?.[1]).toBe(
      'ip daddr 10.96.0.0/16 drop comment "Drop traffic to unallocated ClusterIPs"',
    );
  });

  it('the union of every ServiceCIDR, IPv4 entries only (the IPv4 proxier)', () => {
    const c = cluster(
      serviceCIDR('kubernetes', ['10.96.0.0/16', 'fd00:10:96::/112']),
      serviceCIDR('extra', ['10.200.0.0/16']),
    );
    expect(chain(c, 'cluster-ips-check')?.[1]).toBe(
      'ip daddr { 10.96.0.0/16, 10.200.0.0/16 } drop comment "Drop traffic to unallocated ClusterIPs"',
    );
  });

  it('an unallocated address inside the real range is dropped; an allocated one on a wrong port rejected', () => {
    const c = cluster(serviceCIDR('kubernetes', ['10.96.0.0/16']));
    expect(fromPod(c, '10.96.200.1', 80).fate.kind).toBe('drop');
    expect(fromPod(c, '10.96.0.50', 81).fate.kind).toBe('reject');
    expect(fromPod(c, '10.96.0.50', 80).dnat).toBe(true);
  });

  it('an address outside the real range is never dropped, though the default range holds it', () => {
    // 10.100.3.4 is inside 10.96.0.0/12 (10.96.0.0–10.111.255.255), outside 10.96.0.0/16.
    const c = cluster(serviceCIDR('kubernetes', ['10.96.0.0/16']));
    expect(fromPod(c, '10.100.3.4', 80).fate).toEqual({ kind: 'forward', masquerade: false });
    expect(fromPod(cluster(), '10.100.3.4', 80).fate.kind).toBe('drop');
  });
});

describe('no ServiceCIDR, and the default contradicted by a Pod inside it', () => {
  // Pods on 10.100.x.x (inside 10.96.0.0/12): the default cannot be this cluster's range, so
  // none is assumed — kube-proxy without a known range writes no drop rule (setupNFTables).
  const objects = canonicalObjects().map((o) =>
    o.kind === 'Pod' && o.status?.podIP === '10.244.1.5'
      ? { ...o, status: { ...o.status, podIP: '10.100.1.5', podIPs: [{ ip: '10.100.1.5' }] } }
      : o,
  );

  it('writes only the reject rule, and says why', () => {
    const c = resolveCluster(objects);
    expect(chain(c, 'cluster-ips-check')).toEqual([
      'ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"',
    ]);
    expect(generateNftables(c, 'node-2').assumed).toEqual([
      'assumed: no Service CIDR known, so no rule drops traffic to unallocated ClusterIPs (as kube-proxy before it learns one)',
    ]);
  });

  it('a connection straight to that Pod is not dropped', () => {
    expect(fromPod(resolveCluster(objects), '10.100.1.5', 8080).fate.kind).toBe('forward');
  });
});

describe('nftables.masqueradeBit', () => {
  const kubeProxy = (over: Record<string, unknown>): ScenarioObject =>
    ({
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      mode: 'nftables',
      clusterCIDR: '10.244.0.0/16',
      ...over,
    }) as ScenarioObject;
  const withConfig = (over: Record<string, unknown>) =>
    resolveCluster([
      ...canonicalObjects().filter((o) => o.kind !== 'KubeProxyConfiguration'),
      kubeProxy(over),
    ]);
  const markLines = (c: Cluster) =>
    formatNftables(generateNftables(c, 'node-1'))
      .split('\n')
      .filter((l) => l.includes('meta mark'))
      .map((l) => l.trim());

  it('defaults to 14 (0x4000)', () => {
    expect(markLines(withConfig({}))).toEqual([
      'meta mark & 0x00004000 == 0x00000000 return',
      'meta mark set meta mark ^ 0x00004000',
      'meta mark set meta mark | 0x00004000',
    ]);
  });

  it('nftables mode reads nftables.masqueradeBit, not iptables.masqueradeBit', () => {
    const c = withConfig({ nftables: { masqueradeBit: 15 }, iptables: { masqueradeBit: 12 } });
    expect(markLines(c)).toEqual([
      'meta mark & 0x00008000 == 0x00000000 return',
      'meta mark set meta mark ^ 0x00008000',
      'meta mark set meta mark | 0x00008000',
    ]);
    expect(generateNftables(c, 'node-1').masqueradeMark).toBe(0x8000);
    expect(explainLine('nftables', 'meta mark set meta mark | 0x00008000')).toBe(
      'Set the 0x8000 mark: masquerade this packet on its way out.',
    );
    expect(explainLine('nftables', 'meta mark & 0x00008000 == 0x00000000 return')).toBe(
      'Packets without the 0x8000 mark are left alone.',
    );
    // The trace's words name the mark the rules set.
    const objects = [
      ...canonicalObjects().filter((o) => o.kind !== 'KubeProxyConfiguration'),
      kubeProxy({ nftables: { masqueradeBit: 15 } }),
    ];
    const snat = runScene(objects, DEFAULT_SCENE).trace.steps.find((st) =>
      st.narration.title.startsWith('Masquerade (SNAT)'),
    );
    expect(snat?.narration.body).toMatch(/^The packet carries the 0x8000 mark/);
    // iptables mode keeps its own bit: KUBE-MARK-MASQ's `--or-mark 0x1000` for bit 12, as
    // iptables-save prints it.
    expect(formatRuleset(generateIptables(c, 'node-1'))).toContain(
      '-A KUBE-MARK-MASQ -j MARK --set-xmark 0x1000/0x1000',
    );
  });
});
