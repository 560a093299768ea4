/**
 * A LoadBalancer Service whose balancer publishes a DNS name and no IP (AWS's Classic ELB and
 * NLB: `status.loadBalancer.ingress: [{hostname: …}]`), end to end through the model. What
 * Kubernetes does, and where it says so:
 * - kube-proxy makes load-balancer VIPs of ingress IPs only: `newBaseServiceInfo` in
 *   `pkg/proxy/serviceport.go` skips an entry with `ing.IP == ""`, so it writes no
 *   load-balancer-IP rule (no `KUBE-EXT-` jump for the balancer's address) for such a Service.
 * - `ipMode` may be set only with `ip`: `ValidateLoadBalancerStatus`
 *   (`pkg/apis/core/validation/validation.go`): "may not be specified when `ip` is not set".
 * - kubectl prints the hostname as EXTERNAL-IP (`loadBalancerStatusStringer`,
 *   `pkg/printers/internalversion/printers.go`).
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from './canonical';
import { resolveCluster } from './resolve';
import { applyScene, DEFAULT_SCENE } from './scene';
import { runScene } from '../index';
import type { SceneOptions } from './scene';
import { ingressHostname } from './cluster';
import type { ScenarioObject } from '../k8s/objects';
import { sceneFromObjects, simulate, svcRowAt, formatSvcTable, stateAt } from '../time';

const HOST = 'a4f3c2b1a9e8d4c7ba6f5e4d3c2b1a09-1234567890.us-east-1.elb.amazonaws.com';

/** The canonical scenario with the balancer publishing `HOST` instead of its IP. */
function withHostname(ingress: object[] = [{ hostname: HOST }]): ScenarioObject[] {
  return canonicalObjects().map((o) =>
    o.kind === 'Service' && o.spec?.type === 'LoadBalancer'
      ? ({ ...o, status: { loadBalancer: { ingress } } } as ScenarioObject)
      : o,
  );
}

const scene = (over: Partial<SceneOptions> = {}): SceneOptions => ({ ...DEFAULT_SCENE, ...over });

describe('resolve: a hostname-only ingress', () => {
  it('is kept for kubectl, and gives kube-proxy no load-balancer IP', () => {
    const svc = resolveCluster(withHostname()).services.find((s) => s.type === 'LoadBalancer');
    expect(svc?.ingress).toEqual([]);
    expect(svc?.statusIngress).toEqual([{ ip: '', hostname: HOST }]);
    expect(svc && ingressHostname(svc)).toBe(HOST);
  });

  it('an entry with both ip and hostname is an IP ingress (kube-proxy uses the ip)', () => {
    const svc = resolveCluster(withHostname([{ ip: '203.0.113.7', hostname: HOST }])).services[0];
    expect(svc?.ingress).toEqual([{ ip: '203.0.113.7', ipMode: 'VIP' }]);
    expect(svc && ingressHostname(svc)).toBeUndefined();
  });

  it('delivery LoadBalancerIP becomes NodePort, listed as assumed (no rule would accept the balancer address)', () => {
    const cluster = resolveCluster(
      applyScene(withHostname(), scene({ delivery: 'LoadBalancerIP' })),
    );
    expect(cluster.loadBalancers[0]?.delivery).toBe('NodePort');
    expect(cluster.assumed).toContain(
      `balancer web-lb delivers to the NodePort, not keeping the load-balancer IP: default/web published only the hostname ${HOST}, and kube-proxy writes rules for ingress IPs only, so no node would accept a packet still addressed to the balancer`,
    );
  });

  it('a direct-server-return or MetalLB balancer behind a hostname is taken as NAT (only AWS publishes names; DSR needs a rule for the VIP)', () => {
    for (const implementation of ['DirectServerReturn', 'MetalLB-L2', 'MetalLB-BGP'] as const) {
      const cluster = resolveCluster(applyScene(withHostname(), scene({ implementation })));
      expect(cluster.loadBalancers[0]?.implementation).toBe('NAT');
      expect(cluster.loadBalancers[0]?.delivery).toBe('NodePort');
      expect(cluster.assumed).toContain(
        `balancer web-lb is taken as a NAT balancer, not ${implementation}: default/web published only the hostname ${HOST}, as AWS balancers do`,
      );
    }
  });
});

describe('applyScene: a hostname-only ingress', () => {
  const ingressOf = (objects: ScenarioObject[]) =>
    objects.find((o) => o.kind === 'Service' && o.spec?.type === 'LoadBalancer')?.kind === 'Service'
      ? (
          objects.find((o) => o.kind === 'Service' && o.spec?.type === 'LoadBalancer') as {
            status?: { loadBalancer?: { ingress?: unknown[] } };
          }
        ).status?.loadBalancer?.ingress
      : undefined;

  it('never gets an ipMode (the API allows it only with ip), whatever the scene says', () => {
    expect(ingressOf(applyScene(withHostname(), scene({ ipMode: 'Proxy' })))).toEqual([
      { hostname: HOST },
    ]);
  });

  it('published keeps the hostname; unpublished empties status.loadBalancer', () => {
    expect(ingressOf(applyScene(withHostname(), scene({ published: true })))).toEqual([
      { hostname: HOST },
    ]);
    expect(ingressOf(applyScene(withHostname(), scene({ published: false })))).toBeUndefined();
  });

  it('reads as published in the scene the CLI derives from the objects', () => {
    // The app's (src/store/sceneForObjects.ts) is tested in sceneForObjects.test.ts.
    expect(sceneFromObjects(withHostname(), 1).published).toBe(true);
  });
});

describe('trace: dialling a hostname', () => {
  it('the client resolves the name to the balancer address, which no kube-proxy rule knows', () => {
    const r = runScene(withHostname(), scene());
    const first = r.trace.steps[0];
    expect(first?.narration.title).toBe(`The client resolves ${HOST} and dials 203.0.113.7:80`);
    expect(first?.narration.body).toContain('not one kube-proxy knows');
    expect(first?.narration.body).toContain('LoadBalancerIP delivery, ipMode VIP');
    const lb = r.trace.steps.find((s) => s.at === 'lb');
    expect(lb?.after.dport).toBe(31000);
    expect(r.trace.outcome.kind).toBe('delivered');
    for (const rs of Object.values(r.rules))
      expect(rs.lines.some((l) => l.text.includes('203.0.113.7'))).toBe(false);
  });

  it('a Pod dialling the name goes out to the balancer (no rule catches it), and is delivered', () => {
    const t = runScene(withHostname(), scene({ client: 'pod' })).trace;
    const out = t.steps.find((s) => s.to === 'lb' && s.at !== 'client');
    expect(out?.before.dst).toBe('203.0.113.7');
    expect(out?.narration.body).toContain(`published only the hostname ${HOST}`);
    expect(t.outcome.kind).toBe('delivered');
  });

  it('without a balancer address for the name to resolve to, there is nothing to dial', () => {
    const objects = withHostname().filter((o) => o.kind !== 'CloudLoadBalancer');
    const o = runScene(objects, scene()).trace.outcome;
    expect(o.kind).toBe('no-address');
    if (o.kind === 'no-address') expect(o.reason).toContain(`only the hostname ${HOST}`);
  });
});

describe('timeline: a balancer that publishes a hostname', () => {
  const tl = simulate({
    objects: withHostname(),
    scene: DEFAULT_SCENE,
    events: [],
    provisioning: {
      fromCreation: true,
      informerDelayMs: 200,
      provisionDelayMs: 30_000,
      registerDelayMs: 5_000,
    },
    workload: { count: 50, startMs: 0, periodMs: 100_000 },
    horizonMs: 60_000,
  });

  it('kubectl get svc shows <pending>, then the hostname', () => {
    expect(svcRowAt(tl, 1_000)['EXTERNAL-IP']).toBe('<pending>');
    expect(formatSvcTable([svcRowAt(tl, 45_000)]).split('\n')).toEqual([
      `NAME   TYPE           CLUSTER-IP   EXTERNAL-IP${' '.repeat(HOST.length - 8)}PORT(S)        AGE`,
      `web    LoadBalancer   10.96.0.50   ${HOST}   80:31000/TCP   45s`,
    ]);
    expect(tl.entries.find((e) => e.kind === 'published')?.message).toContain(
      `status.loadBalancer.ingress[0].hostname = ${HOST}`,
    );
  });

  it('the published state keeps the hostname (no IP invented into the Service), and connections are delivered', () => {
    const snap = stateAt(tl, 45_000);
    const svc = snap.objects.find((o) => o.kind === 'Service' && o.spec?.type === 'LoadBalancer');
    expect(svc?.kind === 'Service' && svc.status?.loadBalancer?.ingress).toEqual([
      { hostname: HOST },
    ]);
    const after = tl.connections.filter((c) => c.openedAt > 45_000);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((c) => c.outcome === 'delivered')).toBe(true);
  });
});
