/**
 * Control flow: Service created → the service controller (informer) → the cloud builds the
 * balancer → targets registered → `status.loadBalancer.ingress` published; `none` never
 * publishes; MetalLB layer 2 allocates from its pool, one speaker announces, and another
 * takes over after memberlist declares the node dead.
 *
 * Event reasons and messages are the controllers' own: `EnsuringLoadBalancer` "Ensuring
 * load balancer" and `EnsuredLoadBalancer` "Ensured load balancer"
 * (k8s.io/cloud-provider controllers/service/controller.go); MetalLB's `IPAllocated`
 * "Assigned IP %q" and `nodeAssigned` "announcing from node %q with protocol %q".
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../index';
import { formatSvcTable, simulate, svcRowAt } from '../index';

const PROV = {
  fromCreation: true,
  informerDelayMs: 200,
  provisionDelayMs: 30_000,
  registerDelayMs: 5_000,
};

describe('cloud provisioning', () => {
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [],
    provisioning: PROV,
    healthCheck: {
      intervalSeconds: 8,
      timeoutSeconds: 1,
      healthyThreshold: 1,
      unhealthyThreshold: 3,
    },
    workload: { count: 100, startMs: 0, periodMs: 100_000 },
    horizonMs: 130_000,
  });

  it('emits the service controller’s events at informer, informer + provision + register', () => {
    const ev = tl.entries
      .filter((e) => e.kind === 'k8s-event')
      .map((e) => [e.at, e.reason, e.message]);
    expect(ev).toEqual([
      [200, 'EnsuringLoadBalancer', 'Ensuring load balancer'],
      [35_200, 'EnsuredLoadBalancer', 'Ensured load balancer'],
    ]);
    expect(tl.entries.find((e) => e.kind === 'published')?.at).toBe(35_200);
  });

  it('shows kubectl get svc with <pending>, then the address, AGE as kubectl prints it', () => {
    expect(formatSvcTable([svcRowAt(tl, 45_000), svcRowAt(tl, 130_000)]).split('\n')).toEqual([
      'NAME   TYPE           CLUSTER-IP   EXTERNAL-IP   PORT(S)        AGE',
      'web    LoadBalancer   10.96.0.50   203.0.113.7   80:31000/TCP   45s',
      'web    LoadBalancer   10.96.0.50   203.0.113.7   80:31000/TCP   2m10s',
    ]);
    expect(svcRowAt(tl, 35_199)['EXTERNAL-IP']).toBe('<pending>');
  });

  it('puts nodes in rotation only after their first passing probe (healthy threshold 1), staggered', () => {
    // Registered at 35.2 s; 8 s interval over 3 nodes: offsets 0, 2.666, 5.333 s.
    expect(tl.rotation.map((r) => [r.at, r.node, r.inRotation])).toEqual([
      [35_200, 'node-1', true],
      [37_866, 'node-2', true],
      [40_533, 'node-3', true],
    ]);
  });

  it('gives connections before publication nothing to dial', () => {
    const early = tl.connections.filter((c) => c.openedAt < 35_200);
    expect(early.length).toBe(36);
    expect(new Set(early.map((c) => c.fate))).toEqual(new Set(['no-address']));
  });
});

describe('no controller (bare metal, laptop)', () => {
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [],
    provisioning: { ...PROV, controller: 'none' },
    workload: { count: 50 },
    horizonMs: 600_000,
  });
  it('never publishes, says why, and every connection has no address', () => {
    expect(tl.svc.every((r) => r['EXTERNAL-IP'] === '<pending>')).toBe(true);
    expect(svcRowAt(tl, 600_000)['EXTERNAL-IP']).toBe('<pending>');
    expect(tl.entries.some((e) => e.kind === 'published')).toBe(false);
    expect(tl.entries.find((e) => e.kind === 'note')?.message).toContain(
      'stays <pending> for good',
    );
    expect(tl.connections.every((c) => c.fate === 'no-address')).toBe(true);
    expect(tl.probes).toEqual([]);
  });
});

describe('MetalLB layer 2', () => {
  const ip = '192.168.0.240'; // first address of the default pool 192.168.0.240-192.168.0.249
  // MetalLB's election, computed independently: sort nodes by sha256(node + "#" + ip).
  const order = ['node-1', 'node-2', 'node-3'].sort((a, b) =>
    Buffer.compare(
      createHash('sha256').update(`${a}#${ip}`).digest(),
      createHash('sha256').update(`${b}#${ip}`).digest(),
    ),
  );
  const leader = order[0]!;
  const next = order[1]!;
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [{ at: 30_000, kind: 'fail-node', node: leader }],
    provisioning: { ...PROV, controller: 'metallb-l2', metallb: { failoverDetectMs: 5_000 } },
    workload: { count: 0 },
    horizonMs: 60_000,
  });

  it('allocates from the pool and publishes at once', () => {
    const e = tl.entries.find((x) => x.reason === 'IPAllocated');
    expect([e?.at, e?.message]).toEqual([200, `Assigned IP ["${ip}"]`]);
    expect(svcRowAt(tl, 200)['EXTERNAL-IP']).toBe(ip);
  });

  it('one speaker answers ARP; when its node dies, the next one takes over after memberlist notices', () => {
    const assigned = tl.entries
      .filter((x) => x.reason === 'nodeAssigned')
      .map((x) => [x.at, x.message]);
    expect(assigned).toEqual([
      [200, `announcing from node "${leader}" with protocol "layer2"`],
      [35_000, `announcing from node "${next}" with protocol "layer2"`],
    ]);
    const arp = tl.entries.filter((x) => x.kind === 'arp' && x.at === 35_000);
    expect(arp[0]?.message).toContain(`gratuitous ARP "${ip} is-at`);
    expect(tl.epochs.find((x) => x.from <= 32_000 && x.to > 32_000)?.inRotation).toEqual([leader]);
    expect(tl.epochs.find((x) => x.from === 35_000)?.inRotation).toEqual([next]);
    const w = tl.deadNodeWindows[0];
    expect([w?.node, w?.failedAt, w?.leftRotationAt, w?.durationMs]).toEqual([
      leader,
      30_000,
      35_000,
      5_000,
    ]);
  });

  it('sends every new connection through the announcing node only', () => {
    const e = tl.epochs.find((x) => x.from === 200);
    expect(new Set(e?.paths.map((p) => p.lbTarget))).toEqual(new Set([leader]));
  });
});
