/**
 * The scene an import opens with: a Service whose balancer published only a DNS name (AWS's
 * ELB/NLB: `status.loadBalancer.ingress[].hostname`, no `ip`) is published, as kubectl shows
 * it (EXTERNAL-IP is the hostname, `printers.go` loadBalancerStatusStringer), not `<pending>`.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../model';
import type { ScenarioObject } from '../model';
import { sceneForObjects } from './sceneForObjects';

describe('sceneForObjects', () => {
  it('a hostname-only ingress is published', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'Service' && o.spec?.type === 'LoadBalancer'
        ? ({
            ...o,
            status: {
              loadBalancer: { ingress: [{ hostname: 'lb-1.elb.us-east-1.amazonaws.com' }] },
            },
          } as ScenarioObject)
        : o,
    );
    expect(sceneForObjects(objects, 1).published).toBe(true);
  });

  it('an empty status.loadBalancer is not', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'Service' && o.spec?.type === 'LoadBalancer'
        ? ({ ...o, status: { loadBalancer: {} } } as ScenarioObject)
        : o,
    );
    expect(sceneForObjects(objects, 1).published).toBe(false);
  });
});
