import { describe, expect, it } from 'vitest';
import { canonicalObjects } from './canonical';
import { resolveCluster } from './resolve';
import type { ScenarioObject } from '../k8s/objects';

/** The canonical objects with the balancer's backendAddress removed and the nodes renumbered. */
function withoutBackendAddress(nodePrefix: string): ScenarioObject[] {
  const objects = canonicalObjects();
  for (const o of objects) {
    if (o.kind === 'CloudLoadBalancer') delete o.spec.backendAddress;
    if (o.kind === 'Node')
      for (const a of o.status?.addresses ?? [])
        if (a.type === 'InternalIP') a.address = a.address.replace('192.168.0', nodePrefix);
  }
  return objects;
}

describe('the balancer backend address when none is given', () => {
  it('is .250 on the nodes’ own /24, so a proxied connection comes from the node network', () => {
    const lb = resolveCluster(withoutBackendAddress('10.20.0')).loadBalancers[0];
    expect(lb?.backendAddress).toBe('10.20.0.250');
  });

  it('keeps an address the scenario gives', () => {
    expect(resolveCluster(canonicalObjects()).loadBalancers[0]?.backendAddress).toBe(
      '192.168.0.250',
    );
  });
});

// pkg/api/v1/service/util.go: ExternallyAccessible is LoadBalancer, NodePort, or ClusterIP
// with externalIPs; ExternalPolicyLocal is that and `externalTrafficPolicy: Local` — what
// kube-proxy reads. NeedsHealthCheck (a healthCheckNodePort) is LoadBalancer only.
// serviceport.go keeps only the proxier's family of externalIPs (IPv4 here).
describe('externalTrafficPolicy as kube-proxy reads it', () => {
  const withService = (spec: Record<string, unknown>) =>
    canonicalObjects()
      .filter((o) => o.kind !== 'CloudLoadBalancer')
      .map((o) =>
        o.kind === 'Service'
          ? ({
              apiVersion: 'v1',
              kind: 'Service',
              metadata: o.metadata,
              spec: { clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80 }], ...spec },
            } as ScenarioObject)
          : o,
      );
  const svcOf = (spec: Record<string, unknown>) => resolveCluster(withService(spec)).services[0];

  it('ClusterIP with externalIPs keeps Local, and gets no health check port', () => {
    const s = svcOf({
      type: 'ClusterIP',
      externalIPs: ['192.0.2.10'],
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30000,
    });
    expect(s?.externalTrafficPolicy).toBe('Local');
    expect(s?.healthCheckNodePort).toBe(0);
  });

  it('ClusterIP without externalIPs is never Local (not externally accessible)', () => {
    expect(svcOf({ externalTrafficPolicy: 'Local' })?.externalTrafficPolicy).toBe('Cluster');
  });

  it('an IPv6 externalIP is left out by the IPv4 proxier', () => {
    expect(svcOf({ externalIPs: ['2001:db8::10', '192.0.2.10'] })?.externalIPs).toEqual([
      '192.0.2.10',
    ]);
  });
});
