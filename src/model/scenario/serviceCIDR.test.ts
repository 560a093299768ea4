/**
 * ServiceCIDRs resolved into the Cluster (see ../k8s/serviceCIDR.ts for the sources): the
 * objects as given, or the default `kubernetes` 10.96.0.0/12 — kubeadm's `serviceSubnet`
 * (cmd/kubeadm/app/apis/kubeadm/v1beta4/defaults.go DefaultServicesSubnet), the range kube-apiserver's default
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

  it('assumes no range when the input contradicts the default: a ClusterIP outside it', () => {
    // An AKS-style cluster: its Service CIDR is 10.0.0.0/16.
    const objects = canonicalObjects().map((o) =>
      o.kind === 'Service' ? { ...o, spec: { ...o.spec, clusterIP: '10.0.0.10' } } : o,
    );
    const c = resolveCluster(objects);
    expect(c.serviceCIDRs).toEqual([]);
    expect(c.assumed).toContain(
      "no Service CIDR: no ServiceCIDR given, and 10.96.0.0/12 (kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range) cannot be this cluster's: ClusterIP 10.0.0.10 of Service default/web lies outside it; give its ServiceCIDRs (kubectl get servicecidrs -o yaml)",
    );
  });

  it('assumes no range when the input contradicts the default: a Pod inside it', () => {
    const objects = canonicalObjects();
    const pod = objects.find((o) => o.kind === 'Pod');
    const name = pod?.kind === 'Pod' ? pod.metadata?.name : '';
    const moved = objects.map((o) =>
      o === pod && o.kind === 'Pod' ? { ...o, status: { ...o.status, podIP: '10.100.0.5' } } : o,
    );
    const c = resolveCluster(moved);
    expect(c.serviceCIDRs).toEqual([]);
    expect(c.assumed.find((a) => a.startsWith('no Service CIDR'))).toContain(
      `it holds 10.100.0.5, the address of Pod default/${name}`,
    );
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
