/**
 * ClusterIP allocation for Services written without `spec.clusterIP`. Expected addresses follow
 * kubernetes pkg/registry/core/service/ipallocator/ipallocator.go: the allocatable addresses
 * exclude the network and (IPv4) broadcast address; `calculateRangeOffset` =
 * min(max(16, size/16), 256) puts the dynamic band 256 addresses above the first for a /12
 * (10.96.1.1 up), 16 for a /24; a range of 16 or fewer addresses is not split; the upper band
 * is tried before the lower. Where the API server starts at a random address, the model takes
 * the lowest free one (the decision documented in ./allocate.ts). 10.96.0.1 is
 * default/kubernetes's (pkg/controlplane/controller/kubernetesservice).
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioObject, Service } from '../k8s/objects';
import { canonicalObjects } from '../scenario/canonical';
import { resolveCluster } from '../scenario/resolve';
import { generateIptables } from '../kube-proxy/iptables/generate';
import { formatRuleset } from '../kube-proxy/iptables/rule';
import { allocateClusterIPs } from './allocate';
import { fillGaps } from './fill';

type Svc = Service & { kind: 'Service' };
const svc = (name: string, spec: Svc['spec'] = {}, namespace = 'default'): Svc => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});
const serviceCIDR = (
  name: string,
  cidrs: string[],
  extra: { ready?: string; deleting?: boolean } = {},
): ScenarioObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: {
    name,
    ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: { cidrs },
  ...(extra.ready ? { status: { conditions: [{ type: 'Ready', status: extra.ready }] } } : {}),
});
const ips = (objects: ScenarioObject[]) =>
  objects.flatMap((o) => (o.kind === 'Service' ? [o.spec?.clusterIP ?? '(none)'] : []));

describe('allocateClusterIPs', () => {
  it('takes the first address of the dynamic band of the assumed 10.96.0.0/12, and says so', () => {
    const r = allocateClusterIPs([svc('web'), svc('api')]);
    expect(ips(r.objects)).toEqual(['10.96.1.1', '10.96.1.2']);
    const web = r.objects[0] as Svc;
    expect(web.spec?.clusterIPs).toEqual(['10.96.1.1']);
    expect(r.assumed).toEqual([
      "spec.clusterIP 10.96.1.1 for Service default/web, allocated from ServiceCIDR kubernetes (10.96.0.0/12, kubeadm's default, no ServiceCIDR given) as the API server would; it picks a free address at random, the model the lowest free one",
      "spec.clusterIP 10.96.1.2 for Service default/api, allocated from ServiceCIDR kubernetes (10.96.0.0/12, kubeadm's default, no ServiceCIDR given) as the API server would; it picks a free address at random, the model the lowest free one",
    ]);
  });

  it('skips addresses other Services hold, and never modifies its input', () => {
    const input = [svc('web'), svc('taken', { clusterIP: '10.96.1.1' })];
    const copy = structuredClone(input);
    expect(ips(allocateClusterIPs(input).objects)).toEqual(['10.96.1.2', '10.96.1.1']);
    expect(input).toEqual(copy);
  });

  it('allocates from the given ServiceCIDR: a /24 splits 16 addresses above its first', () => {
    const r = allocateClusterIPs([serviceCIDR('kubernetes', ['10.0.0.0/24']), svc('web')]);
    expect(ips(r.objects)).toEqual(['10.0.0.17']);
    expect(r.assumed[0]).toContain('allocated from ServiceCIDR kubernetes (10.0.0.0/24)');
  });

  it('a range of 16 is not split; its first address is default/kubernetes’s', () => {
    const r = allocateClusterIPs([serviceCIDR('kubernetes', ['10.0.0.0/28']), svc('web')]);
    expect(ips(r.objects)).toEqual(['10.0.0.2']);
    const k = allocateClusterIPs([serviceCIDR('kubernetes', ['10.0.0.0/28']), svc('kubernetes')]);
    expect(ips(k.objects)).toEqual(['10.0.0.1']);
  });

  it('falls back to the lower band when the upper one is full', () => {
    // 10.0.0.0/27: 30 addresses, offset 16 → upper band 10.0.0.17–10.0.0.30.
    const full = Array.from({ length: 14 }, (_, i) =>
      svc(`s${i}`, { clusterIP: `10.0.0.${17 + i}` }),
    );
    const r = allocateClusterIPs([serviceCIDR('kubernetes', ['10.0.0.0/27']), ...full, svc('web')]);
    expect(ips(r.objects).at(-1)).toBe('10.0.0.2');
  });

  it('uses only ready ServiceCIDRs that are not being deleted; IPv6 entries are not used', () => {
    const r = allocateClusterIPs([
      serviceCIDR('old', ['10.0.0.0/24'], { ready: 'False' }),
      serviceCIDR('going', ['10.1.0.0/24'], { deleting: true }),
      serviceCIDR('v6', ['fd00::/112']),
      serviceCIDR('new', ['10.2.0.0/24'], { ready: 'True' }),
      svc('web'),
    ]);
    expect(ips(r.objects)).toEqual(['10.2.0.17']);
  });

  it('says so when no range has a free address', () => {
    const r = allocateClusterIPs([
      serviceCIDR('kubernetes', ['10.0.0.0/30']),
      svc('a', { clusterIP: '10.0.0.2' }),
      svc('web'),
    ]);
    expect(ips(r.objects)).toEqual(['10.0.0.2', '(none)']);
    expect(r.assumed).toEqual([
      'no ClusterIP for Service default/web: no ServiceCIDR has a free address (the API server would refuse it: range is full)',
    ]);
  });

  it('allocates nothing when no ServiceCIDR is given and the default is contradicted', () => {
    const r = allocateClusterIPs([svc('dns', { clusterIP: '10.0.0.10' }), svc('web')]);
    expect(ips(r.objects)).toEqual(['10.0.0.10', '(none)']);
    expect(r.assumed).toEqual([
      "no ClusterIP for Service default/web: no Service CIDR to allocate it from (no Service CIDR: no ServiceCIDR given, and 10.96.0.0/12 (kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range) cannot be this cluster's: ClusterIP 10.0.0.10 of Service default/dns lies outside it; give its ServiceCIDRs (kubectl get servicecidrs -o yaml))",
    ]);
  });

  it('leaves headless and ExternalName Services alone; copies clusterIPs[0] to clusterIP', () => {
    const r = allocateClusterIPs([
      svc('headless', { clusterIP: 'None' }),
      svc('ext', { type: 'ExternalName', externalName: 'db.example.com' }),
      svc('plural', { clusterIPs: ['10.96.0.70'] }),
    ]);
    expect(ips(r.objects)).toEqual(['None', '(none)', '10.96.0.70']);
    expect(r.assumed).toEqual([
      'spec.clusterIP 10.96.0.70 for Service default/plural: taken from spec.clusterIPs[0], as the API server does',
    ]);
  });

  it('allocates no IPv4 address to a Service that asks for IPv6 first', () => {
    const r = allocateClusterIPs([svc('v6', { ipFamilies: ['IPv6'] })]);
    expect(ips(r.objects)).toEqual(['(none)']);
    expect(r.assumed).toEqual([
      'no ClusterIP for Service default/v6: its spec.ipFamilies asks for IPv6 first, and IPv6 is not modelled yet',
    ]);
  });
});

describe('a hand-written Service through fillGaps and the rules', () => {
  const objects = canonicalObjects().map((o) => {
    if (o.kind !== 'Service') return o;
    const spec = { ...o.spec };
    delete spec.clusterIP;
    delete spec.clusterIPs;
    return { ...o, spec };
  });

  it('gets 10.96.1.1 and KUBE-SERVICES matches it, with no empty address anywhere', () => {
    const filled = fillGaps(objects);
    expect(filled.assumed[0]).toMatch(/^spec\.clusterIP 10\.96\.1\.1 for Service default\/web,/);
    const c = resolveCluster(filled.objects);
    expect(c.services[0]?.clusterIP).toBe('10.96.1.1');
    const text = formatRuleset(generateIptables(c, 'node-1'));
    expect(text).toContain(
      '-A KUBE-SERVICES -d 10.96.1.1/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-CDGGSHYLG3RE2FKL',
    );
    expect(text).not.toMatch(/-d \/32/);
  });
});
