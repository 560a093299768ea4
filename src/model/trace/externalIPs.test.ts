/**
 * Tracing a connection to a ClusterIP Service's externalIP (issue 14), in every kube-proxy
 * mode. Kubernetes does not route `spec.externalIPs` ("the responsibility of the cluster
 * administrator", Service docs): the dial names the node the network's route points at.
 *
 * Expected behaviour, from kube-proxy's source: the Service is externally accessible and
 * Local (pkg/api/v1/service/util.go ExternallyAccessible / ExternalPolicyLocal), so
 * - with a local endpoint the connection stays on that node, unmasqueraded: the pod sees the
 *   client's address (iptables/ipvs proxier_test.go TestOnlyLocalExternalIPs, "external IP
 *   hits only local endpoint, unmasqueraded");
 * - without one, iptables drops it in KUBE-EXTERNAL-SERVICES and nftables by its
 *   no-endpoint-services element (proxier.go: "DROP anything that didn't get
 *   short-circuited"); IPVS forwards it unmasqueraded to another node's endpoint, whose reply
 *   "will have the POD address and will be discarded" (ipvs proxier.go syncEndpoint,
 *   kubernetes#97081) — the client times out;
 * - under Cluster the node forwards and masquerades it (TestNonLocalExternalIPs).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../index';
import type { ScenarioObject, SceneOptions } from '../index';

const EXTERNAL_IP = '192.0.2.10';
const CLIENT = '198.51.100.23';

/** The canonical `web` as a ClusterIP Service with one externalIP, and no balancer. */
function objects(policy: 'Cluster' | 'Local' | 'unset', externalIPs = [EXTERNAL_IP]) {
  const out: ScenarioObject[] = [];
  for (const o of canonicalObjects()) {
    if (o.kind === 'CloudLoadBalancer') continue;
    if (o.kind === 'Service' && o.spec) {
      const spec = structuredClone(o.spec);
      spec.type = 'ClusterIP';
      spec.externalIPs = externalIPs;
      delete spec.allocateLoadBalancerNodePorts;
      delete spec.externalTrafficPolicy;
      if (policy !== 'unset') spec.externalTrafficPolicy = policy;
      for (const p of spec.ports ?? []) delete p.nodePort;
      out.push({ apiVersion: 'v1', kind: 'Service', metadata: o.metadata ?? {}, spec });
      continue;
    }
    out.push(o);
  }
  return out;
}

const trace = (
  proxyMode: 'iptables' | 'nftables' | 'ipvs',
  nodeName: string,
  policy: 'Cluster' | 'Local' | 'unset' = 'Local',
  over: Partial<SceneOptions> = {},
) =>
  runScene(objects(policy), {
    ...DEFAULT_SCENE,
    client: 'internet',
    proxyMode,
    dial: { kind: 'ExternalIP', nodeName },
    ...over,
  }).trace;

describe.each(['iptables', 'nftables', 'ipvs'] as const)('%s mode', (mode) => {
  it('the client dials the external IP; the network delivers it to the named node', () => {
    const t = trace(mode, 'node-1');
    expect(t.steps[0]?.before).toMatchObject({ src: CLIENT, dst: EXTERNAL_IP, dport: 80 });
    expect(t.steps[0]?.to).toBe('node:node-1');
    expect(t.steps[0]?.rule).toEqual({
      kind: 'routing',
      text: `${EXTERNAL_IP} via 192.168.0.11 (the network's route for the externalIP, set by the cluster administrator)`,
    });
    expect(t.steps[1]?.narration.title).toBe(`The external IP ${EXTERNAL_IP}:80 is caught`);
  });

  it('Local, node-1 has an endpoint: no masquerade, the pod sees the client, no second hop', () => {
    const t = trace(mode, 'node-1');
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.1.5',
      node: 'node-1',
      sourceIPSeenByPod: CLIENT,
      clientIPPreserved: true,
      snat: false,
      crossedNodes: false,
    });
    expect(t.steps.some((s) => s.transform === 'mark' || s.transform === 'SNAT')).toBe(false);
    // The SYN-ACK comes back from the address the client dialled.
    expect(t.steps[t.steps.length - 1]?.after).toMatchObject({
      src: EXTERNAL_IP,
      sport: 80,
      dst: CLIENT,
    });
  });

  it('Cluster: node-2 (no endpoint) masquerades it to another node', () => {
    // Unset, the API server defaults it to Cluster (SetDefaults_Service).
    for (const policy of ['unset', 'Cluster'] as const) {
      const t = trace(mode, 'node-2', policy, { choices: { endpoint: '10.244.3.9:8080' } });
      expect(t.outcome).toMatchObject({
        kind: 'delivered',
        podIP: '10.244.3.9',
        sourceIPSeenByPod: '192.168.0.12',
        snat: true,
        crossedNodes: true,
      });
    }
  });
});

describe('Local, node-2 has no endpoint of its own', () => {
  it('iptables: dropped by the KUBE-EXTERNAL-SERVICES "has no local endpoints" rule', () => {
    const t = trace('iptables', 'node-2');
    expect(t.outcome).toMatchObject({ kind: 'dropped', at: 'node:node-2' });
    expect(t.outcome.kind === 'dropped' && t.outcome.rule).toBe(
      `-A KUBE-EXTERNAL-SERVICES -d ${EXTERNAL_IP}/32 -p tcp -m comment --comment "default/web:http has no local endpoints" -m tcp --dport 80 -j DROP`,
    );
  });

  it('nftables: dropped by the no-endpoint-services verdict map', () => {
    const t = trace('nftables', 'node-2');
    expect(t.outcome).toMatchObject({ kind: 'dropped', at: 'node:node-2' });
    expect(t.outcome.kind === 'dropped' && t.outcome.rule).toBe(
      'ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
    );
  });

  it('ipvs: forwarded unmasqueraded; the reply skips node-2 and the client discards it', () => {
    const t = trace('ipvs', 'node-2', 'Local', { choices: { endpoint: '10.244.3.9:8080' } });
    expect(t.outcome).toMatchObject({ kind: 'timed-out', at: 'client' });
    const reply = t.steps.filter((s) => s.direction === 'reply');
    expect(reply[reply.length - 1]?.after).toMatchObject({ src: '10.244.3.9', dst: CLIENT });
  });
});

describe('dial targets', () => {
  it('a Service without externalIPs has nothing to dial', () => {
    const t = runScene(
      objects('Local', []).map((o) => o),
      {
        ...DEFAULT_SCENE,
        client: 'internet',
        dial: { kind: 'ExternalIP', nodeName: 'node-1' },
      },
    ).trace;
    expect(t.outcome).toMatchObject({
      kind: 'no-address',
      reason: 'the Service has no spec.externalIPs',
    });
  });

  it('an external IP that is a node address goes to that node, whatever the route named', () => {
    const t = runScene(objects('Local', ['192.168.0.13']), {
      ...DEFAULT_SCENE,
      client: 'internet',
      dial: { kind: 'ExternalIP', nodeName: 'node-1' },
    }).trace;
    expect(t.steps[0]?.to).toBe('node:node-3');
    expect(t.outcome).toMatchObject({ kind: 'delivered', podIP: '10.244.3.9', snat: false });
  });
});
