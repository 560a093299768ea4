/**
 * The trace against Kubernetes' behaviour, for every combination of the visualiser's
 * toggles, plus a few fully exact traces.
 *
 * Sources:
 * - kube-proxy iptables rules: pkg/proxy/iptables/proxier.go `syncProxyRules`
 *   (danwinship/kubernetes@07c76c3a), shared/reference/kube-proxy.md §1.3–§1.6.
 * - Health checks: pkg/proxy/healthcheck/service_health.go `hcHandler.ServeHTTP` (200 when
 *   the node has a local ready endpoint, else 503); proxy_health.go `/healthz` on 10256 for
 *   Cluster policy (KEP-3836); reference §2.
 * - conntrack: reference §5; nf_conntrack_proto_tcp.c (SYN_SENT → SYN_RECV on the SYN-ACK),
 *   MASQUERADE takes the outgoing interface's address (nf_nat_masquerade.c
 *   `inet_select_addr`), `--random-fully` draws the port from 1024–65535 for a source port
 *   ≥ 1024 (nf_nat_proto.c `nf_nat_l4proto_unique_tuple`).
 * - A proxying balancer opens its own connection from an ephemeral port of the Linux default
 *   `net.ipv4.ip_local_port_range` 32768–60999.
 */
import { describe, it, expect } from 'vitest';
import type { DialTarget, Packet, TraceStep } from '../index';
import { CANON, ruleTexts, scene } from '../test/driver';
import type { TraceDriver } from '../test/driver';

const { svc: SVC, svl: SVL, ext: EXT, sep1: SEP1, sep3: SEP3 } = CANON.chains;
const S = 'default/web:http';
const INTERNET = '198.51.100.23';
const NODE_IPS = Object.values(CANON.nodes).map((n) => n.ip);
const BRIDGE_IPS = Object.values(CANON.nodes).map((n) => n.bridge);

const pk = (
  srcIP: string,
  sport: number,
  dstIP: string,
  dport: number,
  mark = 0,
  flags: Packet['flags'] = 'SYN',
): Packet => ({ protocol: 'tcp', flags, src: srcIP, sport, dst: dstIP, dport, mark });

const inRange = (n: number, lo: number, hi: number) => n >= lo && n <= hi;

// ---------------------------------------------------------------------------------------
// The matrix.
// ---------------------------------------------------------------------------------------

type Policy = 'Cluster' | 'Local';
type IpMode = 'VIP' | 'Proxy';
type Delivery = 'NodePort' | 'LoadBalancerIP';
interface Combo {
  policy: Policy;
  ipMode: IpMode;
  delivery: Delivery;
  failed: string | undefined;
  client: 'internet' | 'node' | 'pod';
  dial: DialTarget;
}

const combos: Combo[] = [];
for (const policy of ['Cluster', 'Local'] as const)
  for (const ipMode of ['VIP', 'Proxy'] as const)
    for (const failed of [undefined, 'node-1', 'node-2', 'node-3'])
      for (const client of ['internet', 'node', 'pod'] as const) {
        for (const delivery of ['NodePort', 'LoadBalancerIP'] as const)
          combos.push({ policy, ipMode, delivery, failed, client, dial: { kind: 'LoadBalancer' } });
        if (client === 'internet')
          combos.push({
            policy,
            ipMode,
            delivery: 'NodePort',
            failed,
            client,
            dial: { kind: 'NodePort', nodeName: 'node-2' },
          });
      }

const SEEDS = [1, 2, 3, 4, 5, 6];

function name(c: Combo): string {
  const dial = c.dial.kind === 'NodePort' ? `NodePort ${c.dial.nodeName}` : 'LoadBalancer';
  return `${c.policy} ${c.ipMode} delivery=${c.delivery} failed=${c.failed ?? 'none'} client=${c.client} dial=${dial}`;
}

/** What Kubernetes does with this combination (derived from the sources above, not the model). */
function expectedKind(c: Combo): 'delivered' | 'dropped' | 'timed-out' {
  // The node and pod clients run on node-2: a powered-off node sends nothing.
  if (c.client !== 'internet' && c.failed === 'node-2') return 'timed-out';
  if (c.dial.kind === 'NodePort') {
    // A failed node that is dialled directly never answers.
    if (c.failed === c.dial.nodeName) return 'timed-out';
    // eTP=Local and node-2 has no local endpoint: KUBE-EXTERNAL-SERVICES DROPs the NodePort.
    if (c.policy === 'Local') return 'dropped';
    return 'delivered';
  }
  // One failed node leaves a ready endpoint and a healthy target; pod and node clients are
  // short-circuited (VIP) or go out through the balancer (Proxy).
  return 'delivered';
}

/** The decisive capture on the first node the request reaches from the balancer or client. */
function firstNodeSteps(t: TraceDriver): TraceStep[] {
  const n = t.nodesVisited[0];
  return n ? t.at(`node:${n}`) : [];
}

function checkCommon(t: TraceDriver, c: Combo): void {
  const steps = t.steps;
  // Step indices are 0..n-1; ids s0…; `changed` lists exactly the differing header fields.
  steps.forEach((s, i) => {
    expect(s.index).toBe(i);
    expect(s.id).toBe(`s${i}`);
    const diff = (['src', 'sport', 'dst', 'dport', 'mark'] as const).filter(
      (f) => s.before[f] !== s.after[f],
    );
    expect(s.changed).toEqual(diff);
  });
  // The packet moves continuously: each step starts with what the previous one left.
  for (let i = 1; i < steps.length; i++) {
    const a = steps[i - 1] as TraceStep;
    const b = steps[i] as TraceStep;
    if (a.direction === b.direction) expect(b.before, `step ${i} before`).toEqual(a.after);
  }
  // The client's SYN.
  const s0 = t.step(0);
  const cl = CANON.clients[c.client];
  if (!cl) throw new Error(c.client);
  expect(s0.at).toBe('client');
  expect(s0.before.src).toBe(cl.address);
  expect(s0.before.sport).toBe(cl.sport);
  if (c.dial.kind === 'LoadBalancer')
    expect(`${s0.before.dst}:${s0.before.dport}`).toBe('203.0.113.7:80');
  else expect(`${s0.before.dst}:${s0.before.dport}`).toBe('192.168.0.12:31000');

  // The balancer never sends to a node that fails its health check.
  for (const d of t.decisions('lb-target')) {
    if (c.failed) {
      const f = d.candidates.find((x) => x.id === c.failed);
      expect(f?.eligible).toBe(false);
      expect(f?.probability).toBe(0);
      expect(d.chosen).not.toBe(c.failed);
    }
    if (c.policy === 'Local') {
      // healthCheckNodePort answers 503 on node-2 (localEndpoints 0).
      const n2 = d.candidates.find((x) => x.id === 'node-2');
      expect(n2?.eligible).toBe(false);
      expect(n2?.probability).toBe(0);
      if (c.failed !== 'node-2') expect(n2?.status).toContain('503');
      expect(d.chosen).not.toBe('node-2');
    }
    const eligible = d.candidates.filter((x) => x.eligible);
    expect(Math.abs(eligible.reduce((a, x) => a + x.probability, 0) - 1)).toBeLessThan(1e-9);
    expect(eligible.map((x) => x.id)).toContain(d.chosen);
  }
}

function checkDelivered(t: TraceDriver, c: Combo): void {
  const o = t.expectDelivered();
  const pod = CANON.pods[o.podIP];
  // Delivered only to a ready pod on a node that is up.
  expect(pod, `pod ${o.podIP}`).toBeDefined();
  expect(o.pod).toBe(pod?.name);
  expect(o.node).toBe(pod?.node);
  expect(o.node).not.toBe(c.failed);
  const into = t.request.find((s) => s.to === `pod:${o.pod}`);
  expect(into?.after.dst).toBe(o.podIP);
  expect(into?.after.dport).toBe(8080);
  expect(into?.after.src).toBe(o.sourceIPSeenByPod);
  expect(o.clientIPPreserved).toBe(o.sourceIPSeenByPod === CANON.clients[c.client]?.address);

  const viaLB = c.dial.kind === 'LoadBalancer';
  const lbStep = t.request.find((s) => s.at === 'lb');
  const text = t.matchedRuleTexts;

  // eTP=Local + an internet client through a VIP balancer: no SNAT anywhere, the pod sees the
  // client, and the connection stays on the node the balancer picked (KUBE-EXT → KUBE-SVL, no
  // KUBE-MARK-MASQ).
  if (c.policy === 'Local' && c.client === 'internet' && c.ipMode === 'VIP' && viaLB) {
    expect(o.snat).toBe(false);
    expect(o.sourceIPSeenByPod).toBe(INTERNET);
    expect(o.clientIPPreserved).toBe(true);
    expect(o.crossedNodes).toBe(false);
    expect(t.nodesVisited).toEqual([o.node]);
    expect(lbStep?.decision?.chosen).toBe(o.node);
    expect(t.steps.some((s) => s.transform === 'SNAT')).toBe(false);
    expect(text.some((l) => l.includes(`-j ${SVL}`))).toBe(true);
  }

  // eTP=Cluster: KUBE-EXT marks all external traffic, so internet clients are masqueraded
  // and the pod sees a node (or its bridge) address.
  if (c.policy === 'Cluster' && c.client === 'internet') {
    expect(o.snat).toBe(true);
    expect(o.sourceIPSeenByPod).not.toBe(INTERNET);
    expect([...NODE_IPS, ...BRIDGE_IPS]).toContain(o.sourceIPSeenByPod);
    expect(text).toContain(
      `-A ${EXT} -m comment --comment "masquerade traffic for ${S} external destinations" -j KUBE-MARK-MASQ`,
    );
  }
  // A cross-node hop under Cluster is masqueraded to the first node's own address.
  if (c.policy === 'Cluster' && c.client === 'internet' && o.crossedNodes)
    expect(o.sourceIPSeenByPod).toBe(
      CANON.nodes[t.nodesVisited[t.nodesVisited.length - 2] ?? '']?.ip,
    );

  // ipMode Proxy: kube-proxy skips the ingress IP, so no "loadbalancer IP" rule ever matches;
  // the balancer proxies from its own backend address to a NodePort.
  if (c.ipMode === 'Proxy' && viaLB) {
    expect(text.filter((l) => l.includes('loadbalancer IP'))).toEqual([]);
    expect(lbStep?.transform).toBe('proxy');
    expect(lbStep?.after.src).toBe(CANON.lbBackend);
    expect(inRange(lbStep?.after.sport ?? 0, 32768, 60999)).toBe(true);
    expect(lbStep?.after.dport).toBe(31000);
    expect(lbStep?.after.dst).toBe(CANON.nodes[lbStep?.decision?.chosen ?? '']?.ip);
    if (c.policy === 'Local') {
      expect(o.sourceIPSeenByPod).toBe(CANON.lbBackend);
      expect(o.snat).toBe(false);
      expect(o.crossedNodes).toBe(false);
    }
  }

  // ipMode VIP: a packet still addressed to 203.0.113.7:80 (a destination-keeping balancer, or
  // a client inside the cluster) is caught by the "loadbalancer IP" rule on the first node.
  if (c.ipMode === 'VIP' && viaLB && (c.delivery === 'LoadBalancerIP' || c.client !== 'internet')) {
    const first = firstNodeSteps(t)[0];
    expect(first?.before.dst).toBe('203.0.113.7');
    expect(first?.before.dport).toBe(80);
    const capture = first?.rule;
    expect(capture?.kind).toBe('kube-proxy');
    expect(capture?.kind === 'kube-proxy' ? capture.text : '').toBe(
      `-A KUBE-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} loadbalancer IP" -m tcp --dport 80 -j ${EXT}`,
    );
  }
  // A NodePort-targeting balancer (or a direct dial) reaches KUBE-NODEPORTS instead.
  if (c.client === 'internet' && (c.delivery === 'NodePort' || c.ipMode === 'Proxy' || !viaLB)) {
    const first = firstNodeSteps(t)[0];
    expect(first?.before.dport).toBe(31000);
    expect(NODE_IPS).toContain(first?.before.dst);
    expect(first?.rule?.kind === 'kube-proxy' ? first.rule.chain : '').toBe('KUBE-NODEPORTS');
  }

  // A pod client under Local + VIP is short-circuited to KUBE-SVC without SNAT.
  if (c.client === 'pod' && c.policy === 'Local' && c.ipMode === 'VIP') {
    expect(o.snat).toBe(false);
    expect(o.sourceIPSeenByPod).toBe('10.244.2.4');
    expect(text).toContain(
      `-A ${EXT} -s 10.244.0.0/16 -m comment --comment "pod traffic for ${S} external destinations" -j ${SVC}`,
    );
  }
  // The node's own traffic to the LB IP is masqueraded under both policies.
  if (c.client === 'node' && c.ipMode === 'VIP') expect(o.snat).toBe(true);
  // Under Cluster the KUBE-EXT mark applies to pod traffic too.
  if (c.client === 'pod' && c.policy === 'Cluster' && c.ipMode === 'VIP') {
    expect(o.snat).toBe(true);
    expect(o.sourceIPSeenByPod).not.toBe('10.244.2.4');
  }

  // Every masquerade port is drawn by --random-fully from 1024–65535.
  for (const s of t.steps)
    if (s.transform === 'SNAT' && s.rule?.kind === 'kube-proxy')
      expect(inRange(s.after.sport, 1024, 65535)).toBe(true);

  // The reply retraces the path and reaches the client from the address it dialled.
  const reply = t.reply;
  expect(reply.length).toBeGreaterThan(1);
  expect(reply[0]?.at).toBe(`pod:${o.pod}`);
  expect(reply[0]?.before.src).toBe(o.podIP);
  expect(reply[0]?.before.dst).toBe(o.sourceIPSeenByPod);
  const last = reply[reply.length - 1] as TraceStep;
  const s0 = t.step(0);
  expect(last.at).toBe('client');
  expect(last.after.flags).toBe('SYN-ACK');
  expect(`${last.after.src}:${last.after.sport}`).toBe(`${s0.before.dst}:${s0.before.dport}`);
  expect(`${last.after.dst}:${last.after.dport}`).toBe(`${s0.before.src}:${s0.before.sport}`);
  for (const s of reply) expect(s.after.flags).toBe('SYN-ACK');
  // conntrack: every entry has seen the reply (SYN_RECV, no [UNREPLIED]).
  for (const e of t.trace.conntrack) {
    expect(e.state).toBe('SYN_RECV');
    expect(e.unreplied).toBe(false);
    expect(e.text).not.toContain('[UNREPLIED]');
  }
}

describe('every combination of policy × ipMode × failed node × client × dial', () => {
  for (const c of combos)
    it(name(c), () => {
      for (const seed of SEEDS) {
        const t = scene({
          externalTrafficPolicy: c.policy,
          ipMode: c.ipMode,
          delivery: c.delivery,
          failedNodes: c.failed ? [c.failed] : [],
          client: c.client,
          dial: c.dial,
          seed,
        }).trace();
        const kind = expectedKind(c);
        t.expectOutcome(kind);
        checkCommon(t, c);
        if (kind === 'delivered') checkDelivered(t, c);
        else {
          expect(t.reply, 'no reply path when nothing answers').toEqual([]);
          const o = t.outcome;
          if (o.kind === 'dropped') {
            // eTP=Local, node-2 has no local endpoints: the NodePort DROP in
            // KUBE-EXTERNAL-SERVICES (proxier.go: "<svc> has no local endpoints").
            expect(o.at).toBe('node:node-2');
            expect(o.rule).toBe(
              `-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "${S} has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP`,
            );
            expect(o.reason.length).toBeGreaterThan(0);
          }
          if (o.kind === 'timed-out') {
            expect(o.at).toBe('node:node-2');
            expect(o.reason.length).toBeGreaterThan(0);
          }
        }
      }
    });
});

// ---------------------------------------------------------------------------------------
// Exact traces.
// ---------------------------------------------------------------------------------------

interface Expect {
  at: string;
  from: string;
  to: string;
  before: Packet;
  after: Packet;
  transform: TraceStep['transform'];
  text?: string;
}

/** Compares every step's places, packets, transform and rule text. `P` marks a random port. */
function expectSteps(t: TraceDriver, want: Expect[], port: number): void {
  const sub = (p: Packet): Packet => ({
    ...p,
    sport: p.sport === P ? port : p.sport,
    dport: p.dport === P ? port : p.dport,
  });
  expect(t.steps.map((s) => s.index)).toEqual(want.map((_, i) => i));
  want.forEach((w, i) => {
    const s = t.step(i);
    expect({ at: s.at, from: s.from, to: s.to }, `step ${i} places`).toEqual({
      at: w.at,
      from: w.from,
      to: w.to,
    });
    expect(s.before, `step ${i} before`).toEqual(sub(w.before));
    expect(s.after, `step ${i} after`).toEqual(sub(w.after));
    expect(s.transform, `step ${i} transform`).toBe(w.transform);
    if (w.text !== undefined) expect(s.rule?.text, `step ${i} rule`).toBe(w.text);
  });
}

/** Placeholder for a port drawn at random (MASQUERADE --random-fully). */
const P = -1;

describe('exact trace: the default scene, pinned to node-1 and 10.244.1.5:8080', () => {
  const t = scene().pin({ lbTarget: 'node-1', endpoint: '10.244.1.5:8080' }).trace();
  const snat = t.steps.find((s) => s.transform === 'SNAT');
  const port = snat?.after.sport ?? 0;
  const POD = 'pod:default/web-6d8f9c7b5-x2k4p';
  const N1 = 'node:node-1';
  const dialled = pk(INTERNET, 51234, '203.0.113.7', 80);
  const atNode = pk(INTERNET, 51234, '192.168.0.11', 31000);
  const marked = { ...atNode, mark: 0x4000 };
  const dnatted = pk(INTERNET, 51234, '10.244.1.5', 8080, 0x4000);
  const masq = pk('10.244.1.1', P, '10.244.1.5', 8080);
  const back = (p: Packet): Packet => ({
    ...p,
    flags: 'SYN-ACK',
    src: p.dst,
    sport: p.dport,
    dst: p.src,
    dport: p.sport,
  });

  it('every step', () => {
    expectSteps(
      t,
      [
        {
          at: 'client',
          from: 'client',
          to: 'lb',
          before: dialled,
          after: dialled,
          transform: 'none',
        },
        // A NodePort-targeting balancer rewrites the destination and keeps the client address.
        { at: 'lb', from: 'lb', to: N1, before: dialled, after: atNode, transform: 'DNAT' },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: atNode,
          transform: 'none',
          text: `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: marked,
          transform: 'mark',
          text: `-A ${EXT} -m comment --comment "masquerade traffic for ${S} external destinations" -j KUBE-MARK-MASQ`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: marked,
          after: marked,
          transform: 'none',
          text: `-A ${SVC} -m comment --comment "${S} -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j ${SEP1}`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: marked,
          after: dnatted,
          transform: 'DNAT',
          text: `-A ${SEP1} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: dnatted,
          after: masq,
          transform: 'SNAT',
          text: '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
        },
        { at: N1, from: N1, to: POD, before: masq, after: masq, transform: 'none' },
        { at: POD, from: POD, to: N1, before: back(masq), after: back(masq), transform: 'none' },
        {
          at: N1,
          from: N1,
          to: 'lb',
          before: back(masq),
          after: back(atNode),
          transform: 'reverse-NAT',
        },
        {
          at: 'lb',
          from: 'lb',
          to: 'client',
          before: back(atNode),
          after: back(dialled),
          transform: 'reverse-NAT',
        },
        {
          at: 'client',
          from: 'client',
          to: 'client',
          before: back(dialled),
          after: back(dialled),
          transform: 'none',
        },
      ],
      port,
    );
  });

  it('masquerades to the bridge address with a --random-fully port', () => {
    // The pod is local: the packet leaves by cni0, whose address is the pod subnet's gateway.
    expect(snat?.after.src).toBe('10.244.1.1');
    expect(inRange(port, 1024, 65535)).toBe(true);
  });

  it('the balancer decision: every node passes /healthz:10256, 1/3 each, node-1 pinned', () => {
    const d = t.step(1).decision;
    expect(d?.kind).toBe('lb-target');
    expect(d?.chosen).toBe('node-1');
    expect(d?.pinned).toBe(true);
    expect(d?.candidates.map((c) => [c.id, c.eligible])).toEqual([
      ['node-1', true],
      ['node-2', true],
      ['node-3', true],
    ]);
    for (const c of d?.candidates ?? []) {
      expect(c.probability).toBeCloseTo(1 / 3, 12);
      expect(c.status).toContain(':10256/healthz');
    }
  });

  it('the endpoint decision: both ready endpoints at 0.5, 10.244.1.5:8080 pinned', () => {
    const d = t.step(4).decision;
    expect(d?.kind).toBe('endpoint');
    expect(d?.chosen).toBe('10.244.1.5:8080');
    expect(d?.pinned).toBe(true);
    expect(d?.candidates.map((c) => [c.id, c.probability, c.eligible, c.nodeName])).toEqual([
      ['10.244.1.5:8080', 0.5, true, 'node-1'],
      ['10.244.3.9:8080', 0.5, true, 'node-3'],
    ]);
  });

  it('the chain trail follows netfilter from PREROUTING to the DNAT', () => {
    const r = t.step(5).rule;
    if (r?.kind !== 'kube-proxy') throw new Error('not a kube-proxy step');
    expect(r.trail.slice(0, 8).map((h) => `${h.table}/${h.chain}`)).toEqual([
      'nat/PREROUTING',
      'nat/KUBE-SERVICES',
      'nat/KUBE-NODEPORTS',
      `nat/${EXT}`,
      'nat/KUBE-MARK-MASQ',
      `nat/${EXT}`,
      `nat/${SVC}`,
      `nat/${SEP1}`,
    ]);
  });

  it('conntrack: original tuple as it arrived, reply tuple after DNAT+SNAT', () => {
    expect(t.trace.conntrack).toHaveLength(1);
    const e = t.trace.conntrack[0];
    expect(e?.node).toBe('node-1');
    expect(e?.original).toEqual({ src: INTERNET, dst: '192.168.0.11', sport: 51234, dport: 31000 });
    expect(e?.reply).toEqual({ src: '10.244.1.5', dst: '10.244.1.1', sport: 8080, dport: port });
    expect(e?.text).toBe(
      `tcp      6 60 SYN_RECV src=${INTERNET} dst=192.168.0.11 sport=51234 dport=31000 src=10.244.1.5 dst=10.244.1.1 sport=8080 dport=${port} mark=0 use=1`,
    );
    // Before the reply it was [UNREPLIED] in SYN_SENT.
    expect(t.step(6).conntrack?.text).toBe(
      `tcp      6 120 SYN_SENT src=${INTERNET} dst=192.168.0.11 sport=51234 dport=31000 [UNREPLIED] src=10.244.1.5 dst=10.244.1.1 sport=8080 dport=${port} mark=0 use=1`,
    );
  });

  it('outcome', () => {
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      pod: 'default/web-6d8f9c7b5-x2k4p',
      podIP: '10.244.1.5',
      node: 'node-1',
      sourceIPSeenByPod: '10.244.1.1',
      clientIPPreserved: false,
      crossedNodes: false,
      snat: true,
    });
  });
});

describe('exact trace: Cluster, dialling node-2:31000, pinned to 10.244.3.9:8080', () => {
  const t = scene({ dial: { kind: 'NodePort', nodeName: 'node-2' } })
    .pin({ endpoint: '10.244.3.9:8080' })
    .trace();
  const port = t.steps.find((s) => s.transform === 'SNAT')?.after.sport ?? 0;
  const N2 = 'node:node-2';
  const N3 = 'node:node-3';
  const POD = 'pod:default/web-6d8f9c7b5-q7m9z';
  const atNode = pk(INTERNET, 51234, '192.168.0.12', 31000);
  const marked = { ...atNode, mark: 0x4000 };
  const dnatted = pk(INTERNET, 51234, '10.244.3.9', 8080, 0x4000);
  const masq = pk('192.168.0.12', P, '10.244.3.9', 8080);
  const ack = (p: Packet): Packet => ({
    ...p,
    flags: 'SYN-ACK',
    src: p.dst,
    sport: p.dport,
    dst: p.src,
    dport: p.sport,
  });

  it('every step: DNAT and SNAT on node-2, a cross-node hop, nothing on node-3', () => {
    expectSteps(
      t,
      [
        { at: 'client', from: 'client', to: N2, before: atNode, after: atNode, transform: 'none' },
        {
          at: N2,
          from: N2,
          to: N2,
          before: atNode,
          after: atNode,
          transform: 'none',
          text: `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
        },
        {
          at: N2,
          from: N2,
          to: N2,
          before: atNode,
          after: marked,
          transform: 'mark',
          text: `-A ${EXT} -m comment --comment "masquerade traffic for ${S} external destinations" -j KUBE-MARK-MASQ`,
        },
        {
          at: N2,
          from: N2,
          to: N2,
          before: marked,
          after: marked,
          transform: 'none',
          text: `-A ${SVC} -m comment --comment "${S} -> 10.244.3.9:8080" -j ${SEP3}`,
        },
        {
          at: N2,
          from: N2,
          to: N2,
          before: marked,
          after: dnatted,
          transform: 'DNAT',
          text: `-A ${SEP3} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.3.9:8080`,
        },
        {
          at: N2,
          from: N2,
          to: N2,
          before: dnatted,
          after: masq,
          transform: 'SNAT',
          text: '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
        },
        { at: 'network', from: N2, to: N3, before: masq, after: masq, transform: 'none' },
        { at: N3, from: N3, to: N3, before: masq, after: masq, transform: 'none' },
        { at: N3, from: N3, to: POD, before: masq, after: masq, transform: 'none' },
        { at: POD, from: POD, to: N3, before: ack(masq), after: ack(masq), transform: 'none' },
        { at: N3, from: N3, to: N2, before: ack(masq), after: ack(masq), transform: 'none' },
        {
          at: N2,
          from: N2,
          to: 'client',
          before: ack(masq),
          after: ack(atNode),
          transform: 'reverse-NAT',
        },
        {
          at: 'client',
          from: 'client',
          to: 'client',
          before: ack(atNode),
          after: ack(atNode),
          transform: 'none',
        },
      ],
      port,
    );
    expect(inRange(port, 1024, 65535)).toBe(true);
  });

  it('node-3 matches no kube-proxy NAT rule for the already-translated packet', () => {
    for (const s of t.at('node:node-3')) {
      expect(s.changed).toEqual([]);
      for (const l of ruleTexts(s)) expect(l).not.toMatch(/-j (DNAT|MASQUERADE|KUBE-MARK-MASQ)/);
    }
  });

  it('conntrack on node-2 holds the DNAT+SNAT; node-3 only sees node-2', () => {
    const n2 = t.trace.conntrack.find((e) => e.node === 'node-2');
    expect(n2?.original).toEqual({
      src: INTERNET,
      dst: '192.168.0.12',
      sport: 51234,
      dport: 31000,
    });
    expect(n2?.reply).toEqual({ src: '10.244.3.9', dst: '192.168.0.12', sport: 8080, dport: port });
    const n3 = t.trace.conntrack.find((e) => e.node === 'node-3');
    expect(n3?.original).toEqual({
      src: '192.168.0.12',
      dst: '10.244.3.9',
      sport: port,
      dport: 8080,
    });
    expect(n3?.reply).toEqual({ src: '10.244.3.9', dst: '192.168.0.12', sport: 8080, dport: port });
  });

  it('outcome', () => {
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      pod: 'default/web-6d8f9c7b5-q7m9z',
      podIP: '10.244.3.9',
      node: 'node-3',
      sourceIPSeenByPod: '192.168.0.12',
      clientIPPreserved: false,
      crossedNodes: true,
      snat: true,
    });
  });
});

describe('exact trace: Local, through the balancer to node-1', () => {
  const t = scene({ externalTrafficPolicy: 'Local' }).pin({ lbTarget: 'node-1' }).trace();
  const N1 = 'node:node-1';
  const POD = 'pod:default/web-6d8f9c7b5-x2k4p';
  const dialled = pk(INTERNET, 51234, '203.0.113.7', 80);
  const atNode = pk(INTERNET, 51234, '192.168.0.11', 31000);
  const dnatted = pk(INTERNET, 51234, '10.244.1.5', 8080);
  const ack = (p: Packet): Packet => ({
    ...p,
    flags: 'SYN-ACK',
    src: p.dst,
    sport: p.dport,
    dst: p.src,
    dport: p.sport,
  });

  it('every step: no mark, no SNAT, the client address reaches the pod', () => {
    expectSteps(
      t,
      [
        {
          at: 'client',
          from: 'client',
          to: 'lb',
          before: dialled,
          after: dialled,
          transform: 'none',
        },
        { at: 'lb', from: 'lb', to: N1, before: dialled, after: atNode, transform: 'DNAT' },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: atNode,
          transform: 'none',
          text: `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${EXT}`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: atNode,
          transform: 'none',
          text: `-A ${EXT} -j ${SVL}`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: atNode,
          transform: 'none',
          text: `-A ${SVL} -m comment --comment "${S} -> 10.244.1.5:8080" -j ${SEP1}`,
        },
        {
          at: N1,
          from: N1,
          to: N1,
          before: atNode,
          after: dnatted,
          transform: 'DNAT',
          text: `-A ${SEP1} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
        },
        { at: N1, from: N1, to: POD, before: dnatted, after: dnatted, transform: 'none' },
        {
          at: POD,
          from: POD,
          to: N1,
          before: ack(dnatted),
          after: ack(dnatted),
          transform: 'none',
        },
        {
          at: N1,
          from: N1,
          to: 'lb',
          before: ack(dnatted),
          after: ack(atNode),
          transform: 'reverse-NAT',
        },
        {
          at: 'lb',
          from: 'lb',
          to: 'client',
          before: ack(atNode),
          after: ack(dialled),
          transform: 'reverse-NAT',
        },
        {
          at: 'client',
          from: 'client',
          to: 'client',
          before: ack(dialled),
          after: ack(dialled),
          transform: 'none',
        },
      ],
      0,
    );
  });

  it('the balancer: healthCheckNodePort 200 on node-1 and node-3, 503 on node-2', () => {
    const d = t.step(1).decision;
    expect(d?.candidates.map((c) => [c.id, c.eligible, c.probability])).toEqual([
      ['node-1', true, 0.5],
      ['node-2', false, 0],
      ['node-3', true, 0.5],
    ]);
    expect(d?.candidates[0]?.status).toContain('200');
    expect(d?.candidates[1]?.status).toContain('503');
    expect(d?.chosen).toBe('node-1');
    expect(d?.pinned).toBe(true);
  });

  it('the endpoint decision: only the local endpoint, probability 1', () => {
    const d = t.step(4).decision;
    expect(d?.chosen).toBe('10.244.1.5:8080');
    expect(d?.candidates.map((c) => [c.id, c.probability, c.eligible])).toEqual([
      ['10.244.1.5:8080', 1, true],
      ['10.244.3.9:8080', 0, false],
    ]);
  });

  it('conntrack only DNATs: the reply goes straight back to the client address', () => {
    expect(t.trace.conntrack).toHaveLength(1);
    expect(t.trace.conntrack[0]?.original).toEqual({
      src: INTERNET,
      dst: '192.168.0.11',
      sport: 51234,
      dport: 31000,
    });
    expect(t.trace.conntrack[0]?.reply).toEqual({
      src: '10.244.1.5',
      dst: INTERNET,
      sport: 8080,
      dport: 51234,
    });
  });

  it('outcome', () => {
    expect(t.outcome).toMatchObject({
      kind: 'delivered',
      podIP: '10.244.1.5',
      node: 'node-1',
      sourceIPSeenByPod: INTERNET,
      clientIPPreserved: true,
      crossedNodes: false,
      snat: false,
    });
  });
});

// ---------------------------------------------------------------------------------------
// Other cases Kubernetes defines.
// ---------------------------------------------------------------------------------------

describe('other outcomes', () => {
  it('EXTERNAL-IP <pending>: nothing to dial', () => {
    const t = scene({ published: false }).trace();
    const o = t.expectOutcome('no-address');
    expect(o.reason).toContain('status.loadBalancer');
    expect(t.steps).toEqual([]);
  });

  it('no endpoints anywhere: the NodePort is REJECTed by KUBE-EXTERNAL-SERVICES', () => {
    // proxier.go: !hasEndpoints → REJECT "<svc> has no endpoints" (icmp-port-unreachable).
    for (const delivery of ['NodePort', 'LoadBalancerIP'] as const) {
      const t = scene({ failedNodes: ['node-1', 'node-3'], delivery }).trace();
      const o = t.expectOutcome('rejected');
      expect(o.at).toBe('node:node-2');
      expect(o.rule).toContain(`"${S} has no endpoints"`);
      expect(o.rule).toContain('-j REJECT --reject-with icmp-port-unreachable');
      expect(o.rule).toMatch(/^-A KUBE-EXTERNAL-SERVICES /);
      if (delivery === 'LoadBalancerIP') expect(o.rule).toContain('-d 203.0.113.7/32');
      else expect(o.rule).toContain('-m addrtype --dst-type LOCAL -m tcp --dport 31000');
    }
  });

  it('a pod dialling the ClusterIP is DNATed without SNAT (its source is inside clusterCIDR)', () => {
    // KUBE-SVC's masquerade rule matches only `! -s 10.244.0.0/16`.
    for (const seed of SEEDS) {
      const t = scene({ client: 'pod', dial: { kind: 'ClusterIP' }, seed }).trace();
      const o = t.expectDelivered();
      expect(o.snat).toBe(false);
      expect(o.sourceIPSeenByPod).toBe('10.244.2.4');
      const capture = t.firstAt('node:node-2')?.rule;
      expect(capture?.kind === 'kube-proxy' ? capture.text : '').toBe(
        `-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "${S} cluster IP" -m tcp --dport 80 -j ${SVC}`,
      );
    }
  });

  it('the node dialling the ClusterIP is masqueraded (its source is outside clusterCIDR)', () => {
    for (const seed of SEEDS) {
      const o = scene({ client: 'node', dial: { kind: 'ClusterIP' }, seed })
        .trace()
        .expectDelivered();
      expect(o.snat).toBe(true);
    }
  });

  it('the ClusterIP is not reachable from the internet', () => {
    const o = scene({ dial: { kind: 'ClusterIP' } })
      .trace()
      .expectOutcome('timed-out');
    expect(o.at).toBe('client');
  });

  it('Local: dialling node-1:31000 directly keeps the client address', () => {
    const o = scene({
      externalTrafficPolicy: 'Local',
      dial: { kind: 'NodePort', nodeName: 'node-1' },
    })
      .trace()
      .expectDelivered();
    expect(o).toMatchObject({ node: 'node-1', sourceIPSeenByPod: INTERNET, snat: false });
  });

  it('Local: a node whose only local endpoint is terminating answers 503 and gets no traffic', () => {
    // service_health.go counts LocalReadyEndpoints(): serving+terminating endpoints do not
    // count, so the balancer drains node-1 even though its rules still use that endpoint.
    for (const seed of SEEDS) {
      const t = scene({ externalTrafficPolicy: 'Local', seed })
        .edit((objects) => {
          for (const x of objects)
            if (x.kind === 'EndpointSlice' && x.endpoints[0])
              x.endpoints[0].conditions = { ready: false, serving: true, terminating: true };
        })
        .trace();
      const d = t.decisions('lb-target')[0];
      const n1 = d?.candidates.find((c) => c.id === 'node-1');
      expect(n1?.eligible).toBe(false);
      expect(n1?.status).toContain('503');
      expect(d?.chosen).toBe('node-3');
      expect(t.expectDelivered()).toMatchObject({ podIP: '10.244.3.9', snat: false });
    }
  });

  it('Local: the health check node port answers 503 on node-2 with localEndpoints 0', () => {
    // service_health.go: 503 with {"service": {...}, "localEndpoints": 0, ...}.
    const t = scene({ externalTrafficPolicy: 'Local' }).trace();
    const n2 = t.decisions('lb-target')[0]?.candidates.find((c) => c.id === 'node-2');
    expect(n2?.status).toMatch(/:3\d{4}\/.*503/);
  });
});
