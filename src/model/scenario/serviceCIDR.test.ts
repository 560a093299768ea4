/**
 * ServiceCIDRs resolved into the Cluster (see ../k8s/serviceCIDR.ts for the sources): the
 * objects as given, or the default `kubernetes` 10.96.0.0/12 — kubeadm's `serviceSubnet`
 * (cmd/kubeadm/app/constants DefaultServicesSubnet), the range kube-apiserver's default
 * ServiceCIDR controller writes from `--service-cluster-ip-range` — assumed and listed.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioObject } from '../k8s/objects';
import { canonicalObjects } from './canonical';
import { resolveCluster } from './resolve';

const kubernetesCIDR: ScenarioObject = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'ServiceCIDR',
  metadata: { name: 'kubernetes' },
  spec: { cidrs: ['10.96.0.0/16', 'fd00:10:96::/112'] },
  status: {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: '',
        message: 'Kubernetes Service CIDR is ready',
      },
    ],
  },
};

describe('Cluster.serviceCIDRs', () => {
  it('assumes the default and lists it when the input has none', () => {
    const c = resolveCluster(canonicalObjects());
    expect(c.serviceCIDRs).toEqual([
      { name: 'kubernetes', cidrs: ['10.96.0.0/12'], ready: true, assumed: true },
    ]);
    expect(c.assumed).toContain(
      "ServiceCIDR kubernetes 10.96.0.0/12: no ServiceCIDR given; kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range",
    );
  });

  it('reads the given ones, keeping their IPv4 entries, and assumes nothing', () => {
    const c = resolveCluster([...canonicalObjects(), kubernetesCIDR]);
    expect(c.serviceCIDRs).toEqual([{ name: 'kubernetes', cidrs: ['10.96.0.0/16'], ready: true }]);
    expect(c.assumed.filter((a) => a.includes('ServiceCIDR'))).toEqual([]);
  });

  it('an IPv6 or malformed externalIP is not an IPv4 rule target', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'Service'
        ? { ...o, spec: { ...o.spec, externalIPs: ['203.0.113.9', '2001:db8::9', ''] } }
        : o,
    );
    expect(resolveCluster(objects).services[0]?.externalIPs).toEqual(['203.0.113.9']);
  });
});
