/**
 * The same connection through each kube-proxy mode, and the corner cases where routing, not
 * a rule, decides.
 *
 * Sources: kube-proxy iptables/nftables/ipvs proxier.go (externalTrafficPolicy Cluster
 * masquerades external traffic, Local does not); ipvs proxier.go `syncEndpoint`: a Local
 * virtual server with no local endpoint falls back to all endpoints, "Traffic from an
 * external source will be routed but the reply will have the POD address and will be
 * discarded" (kubernetes#97081); iptables proxier.go `iptablesJumpChains`: KUBE-EXTERNAL-SERVICES
 * is jumped to from filter INPUT, which loopback traffic to the node's own address passes.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../index';
import type { SceneOptions } from '../index';

const run = (s: Partial<SceneOptions>) =>
  runScene(canonicalObjects(), { ...DEFAULT_SCENE, ...s }).trace;

describe.each(['iptables', 'nftables', 'ipvs'] as const)('%s mode', (proxyMode) => {
  it('Cluster: the 0x4000 masquerade mark is set at the step that says so', () => {
    const t = run({ proxyMode, choices: { lbTarget: 'node-1', endpoint: '10.244.3.9:8080' } });
    const marked = t.steps.filter((s) => s.transform === 'mark');
    // Exactly one step sets the mark (KUBE-MARK-MASQ / mark-for-masquerade), and it is the
    // one narrated as the masquerade decision, not the step after it.
    expect(marked).toHaveLength(1);
    expect(marked[0]?.narration.title).toBe(
      'Marked for masquerade (externalTrafficPolicy: Cluster)',
    );
    expect(marked[0]?.after.mark).toBe(0x4000);
  });

  it('Cluster, via the balancer to node-1, pinned to 10.244.3.9: DNAT, SNAT to node-1, a second hop', () => {
    const t = run({ proxyMode, choices: { lbTarget: 'node-1', endpoint: '10.244.3.9:8080' } });
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.3.9',
      sourceIPSeenByPod: '192.168.0.11',
      snat: true,
      crossedNodes: true,
    });
    const dnat = t.steps.find((s) => s.transform === 'DNAT' && s.at === 'node:node-1');
    expect(dnat?.after).toMatchObject({ dst: '10.244.3.9', dport: 8080 });
    expect(dnat?.rule?.kind === 'kube-proxy' && dnat.rule.mode).toBe(proxyMode);
    // The client gets its SYN-ACK from the address it dialled.
    const last = t.steps[t.steps.length - 1];
    expect(last?.after).toMatchObject({
      src: '203.0.113.7',
      sport: 80,
      dst: '198.51.100.23',
      dport: 51234,
    });
  });

  it('Local, via the balancer: the client address reaches the pod, no SNAT, no second hop', () => {
    const t = run({ proxyMode, externalTrafficPolicy: 'Local', choices: { lbTarget: 'node-3' } });
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.3.9',
      sourceIPSeenByPod: '198.51.100.23',
      snat: false,
      crossedNodes: false,
    });
  });

  it('a pod dialling the ClusterIP is DNATed without SNAT', () => {
    const t = run({
      proxyMode,
      client: 'pod',
      dial: { kind: 'ClusterIP' },
      choices: { endpoint: '10.244.1.5:8080' },
    });
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.1.5',
      sourceIPSeenByPod: '10.244.2.4',
      snat: false,
    });
  });
});

describe('Local policy, the internet client dials node-2:31000 (no local endpoint)', () => {
  const scene = {
    externalTrafficPolicy: 'Local',
    dial: { kind: 'NodePort', nodeName: 'node-2' },
  } as const;

  it('iptables and nftables drop it on node-2', () => {
    expect(run({ ...scene, proxyMode: 'iptables' }).outcome).toMatchObject({
      kind: 'dropped',
      at: 'node:node-2',
    });
    expect(run({ ...scene, proxyMode: 'nftables' }).outcome).toMatchObject({
      kind: 'dropped',
      at: 'node:node-2',
    });
  });

  it('IPVS forwards it to a remote pod unmasqueraded; the reply skips node-2 and the client discards it', () => {
    const t = run({ ...scene, proxyMode: 'ipvs', choices: { endpoint: '10.244.3.9:8080' } });
    expect(t.outcome).toMatchObject({ kind: 'timed-out', at: 'client' });
    const reply = t.steps.filter((s) => s.direction === 'reply');
    // node-3 sends the SYN-ACK straight to the client, from the pod's own address.
    expect(reply.map((s) => s.at)).toEqual([
      'pod:default/web-6d8f9c7b5-q7m9z',
      'node:node-3',
      'client',
    ]);
    expect(reply[reply.length - 1]?.after).toMatchObject({
      src: '10.244.3.9',
      sport: 8080,
      dst: '198.51.100.23',
    });
  });
});

describe('the node dials its own NodePort', () => {
  it('with endpoints: caught in nat OUTPUT and DNATed', () => {
    const t = run({
      client: 'node',
      dial: { kind: 'NodePort', nodeName: 'node-2' },
      choices: { endpoint: '10.244.1.5:8080' },
    });
    expect(t.outcome).toMatchObject({ kind: 'delivered', podIP: '10.244.1.5' });
  });

  it('with no endpoints anywhere: rejected by KUBE-EXTERNAL-SERVICES on the way back in through INPUT', () => {
    const t = run({
      client: 'node',
      dial: { kind: 'NodePort', nodeName: 'node-2' },
      failedNodes: ['node-1', 'node-3'],
    });
    expect(t.outcome).toMatchObject({ kind: 'rejected', at: 'node:node-2' });
    expect(t.outcome.kind === 'rejected' && t.outcome.rule).toBe(
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j REJECT --reject-with icmp-port-unreachable',
    );
  });
});

describe('a pod dials another node’s NodePort under Local', () => {
  it('the CNI masquerades it on the way out, so node-1 sees a node address, keeps it local and the reply returns', () => {
    const t = run({
      externalTrafficPolicy: 'Local',
      client: 'pod',
      dial: { kind: 'NodePort', nodeName: 'node-1' },
    });
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.1.5',
      sourceIPSeenByPod: '192.168.0.12',
    });
  });
});

describe('a ClusterIP Service has no load-balancer address', () => {
  it('EXTERNAL-IP <none>', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'Service' ? { ...o, spec: { ...o.spec, type: 'ClusterIP' as const } } : o,
    );
    const t = runScene(objects, DEFAULT_SCENE).trace;
    expect(t.outcome).toMatchObject({ kind: 'no-address' });
    expect(t.outcome.kind === 'no-address' && t.outcome.reason).toContain('EXTERNAL-IP <none>');
  });
});

describe('KubeProxyConfiguration is input', () => {
  it('ipvs.scheduler reaches the IPVS virtual servers (kube-proxy --ipvs-scheduler)', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'KubeProxyConfiguration'
        ? { ...o, mode: 'ipvs' as const, ipvs: { scheduler: 'lc' } }
        : o,
    );
    const lines = runScene(objects, DEFAULT_SCENE).rules['node-1']?.lines.map((l) => l.text) ?? [];
    expect(lines).toContain('TCP  10.96.0.50:80 lc');
  });

  it('masqueradeBit changes the mark kube-proxy uses (1<<bit)', () => {
    const objects = canonicalObjects().map((o) =>
      o.kind === 'KubeProxyConfiguration' ? { ...o, iptables: { masqueradeBit: 15 } } : o,
    );
    const lines = runScene(objects, DEFAULT_SCENE).rules['node-1']?.lines.map((l) => l.text) ?? [];
    expect(lines).toContain('-A KUBE-MARK-MASQ -j MARK --set-xmark 0x8000/0x8000');
  });
});

describe('choosing the Service port to trace', () => {
  it('multi-port example: dialling the https port reaches the pods’ https container port', async () => {
    const { readFileSync } = await import('node:fs');
    const { loadObjects } = await import('../import/load');
    const { fillGaps } = await import('../import/fill');
    const objects = fillGaps(
      loadObjects(readFileSync('public/examples/multi-port-named.yaml', 'utf8')).objects,
    ).objects;
    const base = { ...DEFAULT_SCENE, client: 'internet' };
    const http = runScene(objects, { ...base, port: 'http' }).trace;
    const https = runScene(objects, { ...base, port: 'https' }).trace;
    // The first step dials the load balancer on the chosen Service port (80 / 443)…
    expect(http.steps[0]?.before.dport).toBe(80);
    expect(https.steps[0]?.before.dport).toBe(443);
    // …and kube-proxy DNATs to the endpoint port of that port (named targetPorts resolved by
    // the EndpointSlice controller: 8080 for http, 8443 for https).
    expect(
      https.steps.find((s) => s.transform === 'DNAT' && s.at.startsWith('node:'))?.after.dport,
    ).toBe(8443);
    expect(
      http.steps.find((s) => s.transform === 'DNAT' && s.at.startsWith('node:'))?.after.dport,
    ).toBe(8080);
  });
});
