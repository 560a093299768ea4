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
