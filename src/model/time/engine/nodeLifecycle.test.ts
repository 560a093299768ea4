/**
 * Nodes leaving on purpose and nodes kept out: cluster-autoscaler's scale-down (KEP-3836's
 * `/healthz` 503), `node.kubernetes.io/exclude-from-external-load-balancers` for the cloud's
 * service controller and for MetalLB's speakers, a control plane's NoSchedule taint, and a
 * node's address given as the client.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../../index';
import type { ScenarioObject } from '../../k8s/objects';
import { simulate, stateAt } from '../index';
import { clientFor, toleratesTaint } from '../scenario';

/** Canonical objects with `patch` applied to node `name`'s object. */
function withNode(
  name: string,
  patch: (n: Extract<ScenarioObject, { kind: 'Node' }>) => void,
): ScenarioObject[] {
  const objects = canonicalObjects();
  for (const o of objects) if (o.kind === 'Node' && o.metadata?.name === name) patch(o);
  return objects;
}

const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers';

describe('cluster-autoscaler scales node-1 down at 20 s (GCP defaults, Cluster, /healthz)', () => {
  // node-1 is probed at 0, 8, 16, 24, 32, 40 s; kube-proxy answers at once, so each result is
  // known when sent. From 20 s the Node has ToBeDeletedByClusterAutoscaler: the 24, 32 and
  // 40 s probes get 503 and node-1 leaves the rotation at 40 s (unhealthy threshold 3).
  const tl = simulate({
    objects: canonicalObjects(),
    scene: DEFAULT_SCENE,
    events: [{ at: 20_000, kind: 'scale-down-node', node: 'node-1' }],
    workload: { count: 600, startMs: 0, periodMs: 60_000, holdMs: 0 },
    horizonMs: 60_000,
    seed: 5,
  });
  const node1 = tl.probes.filter((p) => p.node === 'node-1');

  it('answers /healthz with 503 and the exact body kube-proxy writes, "nodeEligible":false', () => {
    const p = node1.find((x) => x.at === 24_000)!;
    // proxy_health.go healthzHandler: not healthy → 503, lastUpdated left as the last sync
    // (the eviction's EndpointSlice change at 20 s, synced 1 s later), currentTime now; the
    // 1.33+ JSON body (PR #129271): `healthy` stays true, only the node is not eligible.
    expect([p.target, p.status, p.ok]).toEqual(['http://192.168.0.11:10256/healthz', 503, false]);
    expect(p.body).toBe(
      '{"lastUpdated":"2025-01-01T00:00:21Z","currentTime":"2025-01-01T00:00:24Z","nodeEligible":false,"healthy":true,"status":{"IPv4":{"lastUpdated":"2025-01-01T00:00:21Z","healthy":true}}}',
    );
    expect(node1.find((x) => x.at === 16_000)?.status).toBe(200);
  });

  it('leaves the rotation after 3 failed probes, at 40 s, and no dead-node window opens', () => {
    expect(tl.rotation.filter((r) => r.node === 'node-1').map((r) => [r.at, r.inRotation])).toEqual(
      [[40_000, false]],
    );
    expect(tl.deadNodeWindows).toEqual([]);
  });

  it('keeps forwarding meanwhile: every connection entering node-1 in [20 s, 40 s) is delivered', () => {
    const during = tl.connections.filter(
      (c) => c.lbTarget === 'node-1' && c.openedAt >= 20_000 && c.openedAt < 40_000,
    );
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((c) => c.outcome === 'delivered')).toBe(true);
    // Closed normally: on a live Pod, or (opened before kube-proxy's 21 s sync) on the evicted
    // Pod while it terminated.
    expect(during.every((c) => c.fate === 'completed' || c.fate === 'drained')).toBe(true);
  });

  it('taints the Node (value: the Unix time), evicts its Pod, and schedules the replacement elsewhere', () => {
    const node = stateAt(tl, 30_000).objects.find(
      (o) => o.kind === 'Node' && o.metadata?.name === 'node-1',
    );
    expect(node?.kind === 'Node' && node.spec?.taints).toEqual([
      {
        key: 'ToBeDeletedByClusterAutoscaler',
        value: String(Date.UTC(2025, 0, 1, 0, 0, 20) / 1000),
        effect: 'NoSchedule',
      },
    ]);
    expect(
      tl.entries.some(
        (e) => e.at === 20_000 && e.pod === 'default/web-6d8f9c7b5-x2k4p' && e.kind === 'pod',
      ),
    ).toBe(true);
    const scheduled = tl.entries.filter((e) => e.reason === 'Scheduled');
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.node).not.toBe('node-1');
  });
});

describe('node.kubernetes.io/exclude-from-external-load-balancers', () => {
  it('keeps the node out of the cloud balancer’s targets (a value that parses as false does not)', () => {
    const run = (value: string) =>
      simulate({
        objects: withNode('node-2', (n) => {
          n.metadata = { ...n.metadata, labels: { ...n.metadata?.labels, [EXCLUDE]: value } };
        }),
        scene: DEFAULT_SCENE,
        events: [],
        provisioning: { fromCreation: true },
        workload: { count: 0 },
        horizonMs: 50_000,
      });
    const excluded = run('true');
    expect([excluded.registeredAt, excluded.targets]).toEqual([35_200, ['node-1', 'node-3']]);
    expect(excluded.probes.some((p) => p.node === 'node-2')).toBe(false);
    expect(excluded.epochs.at(-1)?.inRotation).toEqual(['node-1', 'node-3']);
    // nodeIncludedPredicate: strconv.ParseBool("false") → included.
    expect(run('false').targets).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('keeps MetalLB’s speaker on it from announcing, unless --ignore-exclude-lb', () => {
    const ip = '192.168.0.240';
    const order = ['node-1', 'node-2', 'node-3'].sort((a, b) =>
      Buffer.compare(
        createHash('sha256').update(`${a}#${ip}`).digest(),
        createHash('sha256').update(`${b}#${ip}`).digest(),
      ),
    );
    const run = (ignoreExcludeLb: boolean) =>
      simulate({
        objects: withNode(order[0]!, (n) => {
          n.metadata = { ...n.metadata, labels: { ...n.metadata?.labels, [EXCLUDE]: '' } };
        }),
        scene: DEFAULT_SCENE,
        events: [],
        provisioning: { controller: 'metallb-l2', metallb: { ignoreExcludeLb } },
        workload: { count: 0 },
        horizonMs: 10_000,
      });
    const honoured = run(false);
    // The label's presence is enough (k8s/nodes.IsNodeExcludedFromBalancers), even empty.
    expect(honoured.epochs[0]?.state.announcingNode).toBe(order[1]);
    expect(honoured.entries.some((e) => e.message.includes('never announces'))).toBe(true);
    expect(run(true).epochs[0]?.state.announcingNode).toBe(order[0]);
  });
});

describe('a control plane’s NoSchedule taint', () => {
  const taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
  const scaleTo4 = (objects: ScenarioObject[]) =>
    simulate({
      objects,
      scene: DEFAULT_SCENE,
      events: [{ at: 10_000, kind: 'scale', replicas: 4 }],
      workload: { count: 0 },
      horizonMs: 60_000,
    })
      .entries.filter((e) => e.reason === 'Scheduled')
      .map((e) => e.node);

  it('keeps new Pods off the tainted node; a Pod that tolerates it may land there', () => {
    // Without the taint node-2 (no replica) gets the first new Pod.
    expect(scaleTo4(canonicalObjects())[0]).toBe('node-2');
    const tainted = withNode('node-2', (n) => (n.spec = { ...n.spec, taints: [taint] }));
    expect(scaleTo4(tainted)).not.toContain('node-2');
    const tolerated = tainted.map((o) =>
      o.kind === 'Pod' && o.metadata?.labels?.['app'] === 'web'
        ? {
            ...o,
            spec: {
              containers: [],
              ...o.spec,
              tolerations: [{ key: taint.key, operator: 'Exists', effect: 'NoSchedule' }],
            },
          }
        : o,
    );
    expect(scaleTo4(tolerated)[0]).toBe('node-2');
  });

  it('matches tolerations as Toleration.ToleratesTaint does', () => {
    expect(toleratesTaint({ operator: 'Exists' }, taint)).toBe(true);
    expect(toleratesTaint({ key: taint.key, operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(
      false,
    );
    expect(toleratesTaint({ key: taint.key, value: '' }, taint)).toBe(true);
    expect(toleratesTaint({ key: taint.key, value: 'x' }, taint)).toBe(false);
  });
});

describe('a node’s address as the client', () => {
  it('is a process on that node’s host network, not an Internet client', () => {
    const objects = canonicalObjects();
    expect(clientFor(objects, '192.168.0.12')).toBe('ip-192.168.0.12');
    expect(objects.at(-1)).toMatchObject({
      kind: 'Client',
      spec: { location: 'Node', nodeName: 'node-2' },
    });
    clientFor(objects, '198.51.100.9');
    expect(objects.at(-1)).toMatchObject({
      kind: 'Client',
      spec: { location: 'Internet', address: '198.51.100.9' },
    });
  });
});
