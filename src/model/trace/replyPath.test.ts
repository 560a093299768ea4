/**
 * Where the reply goes, per balancer (issue 14, point 9), on the canonical scenario.
 *
 * Sources:
 * - NAT balancer (AWS NLB, instance targets): the target sees the client's own address
 *   (docs.aws.amazon.com/elasticloadbalancing/latest/network/edit-target-group-attributes.html,
 *   "Client IP preservation": enabled for instance targets), so the node's reply is addressed
 *   to the client from `<node IP>:<nodePort>` and only the balancer, which made that
 *   translation, can send it on from the address the client dialled.
 * - Direct server return (Google Cloud passthrough Network Load Balancer): "Load-balanced
 *   packets are received by backend VMs with the packet's source and destination IP addresses
 *   … unchanged … Responses from the backend VMs go directly to the clients, not back through
 *   the load balancer" (cloud.google.com/load-balancing/docs/passthrough-network-load-balancer).
 *   kube-proxy catches the destination with its load-balancer-IP rule (`KUBE-SERVICES -d <LB
 *   IP>/32 … loadbalancer IP -j KUBE-EXT-…`, pkg/proxy/iptables/proxier.go, written for
 *   ipMode VIP only), and conntrack's reverse NAT restores the source `<LB IP>:<port>`.
 * - MetalLB layer 2: one node answers ARP for the address (metallb.universe.tf/concepts/layer2);
 *   which one: `speaker/layer2_controller.go` ShouldAnnounce, the nodes sorted by
 *   `sha256(node + "#" + ip)`, the first announces; under Local only nodes with a local
 *   endpoint. MetalLB BGP: every node announces under Cluster, only nodes with a local ready
 *   endpoint under Local (`speaker/bgp_controller.go` ShouldAnnounce); the router spreads
 *   connections over them (metallb.universe.tf/concepts/bgp). No balancer is on the path.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../scenario/resolve';
import { CANON, dst, scene, src } from '../test/driver';
import type { TraceDriver } from '../test/driver';

const INTERNET = '198.51.100.23';
const CLIENT = `${INTERNET}:51234`;
const VIP = `${CANON.lbIP}:${CANON.port}`;

/** MetalLB's layer 2 leader, computed here from its rule, independently of the model. */
function l2Leader(nodes: string[], ip: string): string {
  const h = (n: string) => createHash('sha256').update(`${n}#${ip}`).digest('hex');
  return [...nodes].sort((a, b) => (h(a) < h(b) ? -1 : h(a) > h(b) ? 1 : 0))[0] as string;
}

const touchesLb = (t: TraceDriver) =>
  t.steps.filter((s) => s.at === 'lb' || s.from === 'lb' || s.to === 'lb');

describe('a NAT balancer (the canonical scenario: like AWS NLB, instance targets)', () => {
  const t = scene({ choices: { lbTarget: 'node-1', endpoint: '10.244.1.5:8080' } }).trace();

  it('the reply goes back through the balancer, which answers from the address dialled', () => {
    const o = t.expectDelivered();
    const toLb = t.reply.find((s) => s.to === 'lb');
    expect(toLb && src(toLb.after)).toBe(`${CANON.nodes['node-1']!.ip}:${CANON.nodePort}`);
    expect(toLb && dst(toLb.after)).toBe(CLIENT);
    const atLb = t.reply.find((s) => s.at === 'lb');
    expect(atLb?.to).toBe('client');
    expect(atLb && src(atLb.after)).toBe(VIP);
    expect(atLb && dst(atLb.after)).toBe(CLIENT);
    expect(atLb?.transform).toBe('reverse-NAT');
    expect(atLb?.narration.title).toBe('The load balancer answers the client');
    expect(o.reply).toBe('back through the balancer (NAT, like AWS NLB)');
  });
});

describe('direct server return (like Google Cloud’s passthrough Network Load Balancer)', () => {
  const base = {
    implementation: 'DirectServerReturn' as const,
    delivery: 'LoadBalancerIP' as const,
  };

  it('the packet reaches the node addressed to the LB IP, caught by kube-proxy’s LB-IP rule', () => {
    const t = scene({ ...base, choices: { lbTarget: 'node-1' } }).trace();
    const lbStep = t.at('lb')[0];
    expect(lbStep && dst(lbStep.after)).toBe(VIP);
    expect(lbStep && src(lbStep.after)).toBe(CLIENT);
    expect(lbStep?.transform).toBe('none');
    expect(lbStep?.rule?.text).toBe(
      'pass through to target node-1, packet unchanged (direct server return: replies bypass the balancer)',
    );
    expect(t.matchedRuleTexts.some((r) => /-d 203\.0\.113\.7\/32 .*loadbalancer IP/.test(r))).toBe(
      true,
    );
  });

  it('the node’s reply leaves with source LB IP:port, straight to the client; no reply at the lb', () => {
    for (const policy of ['Cluster', 'Local'] as const) {
      const t = scene({
        ...base,
        externalTrafficPolicy: policy,
        choices: { lbTarget: 'node-1', endpoint: '10.244.1.5:8080' },
      }).trace();
      const o = t.expectDelivered();
      expect(t.reply.filter((s) => s.at === 'lb' || s.to === 'lb' || s.from === 'lb')).toEqual([]);
      const out = t.reply.find((s) => s.to === 'client' && s.at !== 'client');
      expect(out?.at).toBe('node:node-1');
      expect(out && src(out.before)).toBe(VIP);
      expect(out && dst(out.before)).toBe(CLIENT);
      expect(out?.narration.title).toBe('node-1 answers the client directly');
      expect(out?.narration.body).toContain('direct server return');
      const last = t.reply[t.reply.length - 1];
      expect(last && src(last.after)).toBe(VIP);
      expect(o.reply).toBe('node-1 answers directly (direct server return)');
      if (policy === 'Local') expect(o.sourceIPSeenByPod).toBe(INTERNET);
    }
  });

  it('the delivery is always LoadBalancerIP: a NodePort delivery is ignored and listed', () => {
    const r = scene({ ...base, delivery: 'NodePort', choices: { lbTarget: 'node-2' } }).run();
    expect(r.cluster.loadBalancers[0]?.delivery).toBe('LoadBalancerIP');
    expect(r.cluster.assumed.some((a) => /spec\.delivery NodePort ignored/.test(a))).toBe(true);
    const lbStep = r.trace.steps.find((s) => s.at === 'lb');
    expect(lbStep && dst(lbStep.after)).toBe(VIP);
  });

  it('with ipMode Proxy the balancer proxies, so the reply goes back through it', () => {
    const t = scene({ ...base, ipMode: 'Proxy', choices: { lbTarget: 'node-1' } }).trace();
    const o = t.expectDelivered();
    const atLb = t.reply.find((s) => s.at === 'lb');
    expect(atLb?.transform).toBe('proxy');
    expect(o.reply).toBe('back through the proxy (ipMode Proxy)');
  });

  it('a pod dialling the LB IP is answered on its own node, not "directly" by a balancer', () => {
    const t = scene({ ...base, client: 'pod' }).trace();
    t.expectDelivered();
    expect(touchesLb(t)).toEqual([]);
    expect(t.steps.some((s) => /answers the client directly/.test(s.narration.title))).toBe(false);
  });
});

describe('MetalLB layer 2: no balancer, the node that answers ARP gets the packet', () => {
  it('the client’s packet goes to the leader, unchanged; no lb place on the path', () => {
    for (const policy of ['Cluster', 'Local'] as const) {
      const leader = l2Leader(
        policy === 'Cluster' ? ['node-1', 'node-2', 'node-3'] : ['node-1', 'node-3'],
        CANON.lbIP,
      );
      for (const seed of [1, 2, 3]) {
        const t = scene({
          implementation: 'MetalLB-L2',
          externalTrafficPolicy: policy,
          seed,
        }).trace();
        t.expectDelivered();
        expect(touchesLb(t)).toEqual([]);
        expect(t.step(0).to).toBe(`node:${leader}`);
        const arp = t.step(1);
        expect(arp.at).toBe(`node:${leader}`);
        expect(dst(arp.before)).toBe(VIP);
        expect(src(arp.before)).toBe(CLIENT);
        expect(arp.rule?.text).toMatch(
          new RegExp(`^ARP reply: 203\\.0\\.113\\.7 is-at .* \\(${leader}`),
        );
        const d = t.decisions('lb-target')[0];
        expect(d?.candidates.filter((c) => c.eligible).map((c) => c.id)).toEqual([leader]);
        const out = t.reply.find((s) => s.to === 'client' && s.at !== 'client');
        expect(out?.at).toBe(`node:${leader}`);
        expect(out && src(out.before)).toBe(VIP);
        expect(out && dst(out.before)).toBe(CLIENT);
      }
    }
  });

  it('no endpoint can serve: nobody announces, nothing answers ARP, the client times out', () => {
    const t = scene({ implementation: 'MetalLB-L2', failedNodes: ['node-1', 'node-3'] }).trace();
    const o = t.expectOutcome('timed-out');
    expect(o.reason).toMatch(/nothing answers ARP/);
    expect(touchesLb(t)).toEqual([]);
  });

  it('ipMode Proxy with MetalLB: kube-proxy writes no rule for the address, nothing takes it', () => {
    const t = scene({ implementation: 'MetalLB-L2', ipMode: 'Proxy' }).trace();
    const o = t.expectOutcome('timed-out');
    expect(o.reason).toMatch(/no rule for 203\.0\.113\.7/);
  });
});

describe('MetalLB BGP: the router routes to one of the announcing nodes', () => {
  it('under Cluster every node is a next hop; the chosen one gets the packet unchanged', () => {
    for (const node of ['node-1', 'node-2', 'node-3']) {
      const t = scene({ implementation: 'MetalLB-BGP', choices: { lbTarget: node } }).trace();
      t.expectDelivered();
      expect(touchesLb(t)).toEqual([]);
      expect(t.step(0).to).toBe(`node:${node}`);
      expect(t.step(1).rule?.text).toBe(
        '203.0.113.7/32 via 192.168.0.11, 192.168.0.12, 192.168.0.13 (BGP routes from MetalLB, ECMP)',
      );
      const out = t.reply.find((s) => s.to === 'client' && s.at !== 'client');
      expect(out && src(out.before)).toBe(VIP);
      expect(t.expectDelivered().reply).toBe(`${node} answers directly: no balancer (MetalLB BGP)`);
    }
  });

  it('under Local only nodes with a local ready endpoint announce (node-2 has none)', () => {
    const t = scene({
      implementation: 'MetalLB-BGP',
      externalTrafficPolicy: 'Local',
      choices: { lbTarget: 'node-2' },
    }).trace();
    const d = t.decisions('lb-target')[0];
    expect(d?.candidates.filter((c) => c.eligible).map((c) => c.id)).toEqual(['node-1', 'node-3']);
    expect(d?.pinned).toBe(false);
    expect(t.expectDelivered().clientIPPreserved).toBe(true);
  });
});

describe('spec.implementation', () => {
  it('an unknown value is an error naming the field', () => {
    const s = scene().edit((objs) => {
      const lb = objs.find((o) => o.kind === 'CloudLoadBalancer');
      if (lb?.kind === 'CloudLoadBalancer')
        (lb.spec as { implementation?: string }).implementation = 'Maglev';
    });
    expect(() => s.run()).toThrow(ScenarioError);
    expect(() => s.run()).toThrow(
      /CloudLoadBalancer web-lb: spec\.implementation: Unsupported value: "Maglev"/,
    );
  });

  it('the canonical scenario states it models a NAT balancer', () => {
    const r = scene().run();
    expect(r.cluster.loadBalancers[0]?.implementation).toBe('NAT');
  });
});
