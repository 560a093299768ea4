/**
 * The importer lists the Service CIDR it assumes (issue 14 point 4: "the default assumed and
 * listed when absent"). Without ServiceCIDR objects the range is kube-apiserver's
 * --service-cluster-ip-range, which kubeadm sets to its default serviceSubnet 10.96.0.0/12
 * (kubeadm API v1beta4 `Networking.ServiceSubnet`, default "10.96.0.0/12"); the bootstrap
 * ServiceCIDR the API server then creates is named `kubernetes` (KEP-1880).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importSources } from './importer';

const CANONICAL = readFileSync('public/examples/canonical.yaml', 'utf8');

describe('importSources: the Service CIDR', () => {
  it('is listed once as assumed when no ServiceCIDR is given', () => {
    const { assumed } = importSources([{ name: '', text: CANONICAL }]);
    const notes = assumed.filter((a) => a.startsWith('ServiceCIDR '));
    expect(notes).toEqual([
      "ServiceCIDR kubernetes 10.96.0.0/12: no ServiceCIDR given; kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range",
    ]);
  });

  it('is not assumed when the input gives one', () => {
    const cidr =
      '---\napiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: kubernetes}\nspec: {cidrs: [10.96.0.0/16]}\n';
    const { assumed, errors } = importSources([{ name: '', text: CANONICAL + cidr }]);
    expect(errors).toBe(0);
    expect(assumed.some((a) => a.includes('no ServiceCIDR given'))).toBe(false);
  });
});
