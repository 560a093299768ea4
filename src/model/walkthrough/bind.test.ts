/**
 * Binding the walkthrough to a cluster (bind.ts): for the canonical scenario the bound steps are
 * exactly the literal five steps a newcomer has always seen; for any other cluster every step
 * that applies opens a scene whose trace reaches the step it shows, with the pins honoured and
 * what its text claims true (DNAT target, SNAT, which node); a step that cannot apply says why.
 * Facts: shared/reference/kube-proxy.md §1.3 (KUBE-NODEPORTS on every node, KUBE-EXT masquerade
 * under Cluster), §1.5 (Cluster picks among every ready endpoint), §2 (health checks).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene, storyStepIndex } from '../index';
import type { ScenarioObject } from '../index';
import { loadObjects } from '../import/load';
import { fillGaps } from '../import/fill';
import { generatedCluster } from '../scenario/generated';
import { TraceDriver } from '../test/driver';
import { bindToObjects, storyScene } from './bind';
import type { ApplicableStep, BoundWalkthrough } from './bind';
import { NODEPORT_TO_LOADBALANCER, NODEPORT_TO_LOADBALANCER_STORY } from './nodePortToLoadBalancer';

const STORY = NODEPORT_TO_LOADBALANCER_STORY;

/** Today's five steps, literally, as a newcomer has always read them. */
const LITERAL = [
  {
    id: 'nodeport-everywhere',
    title: '1. One port, opened on every node',
    body: 'With type: NodePort the API server allocates 31000 from the node-port range (30000–32767 by default), and every kube-proxy answers for it: each node gets a KUBE-NODEPORTS rule for 31000. node-2 has the rule as well, even though none of the web pods runs on it.',
    scene: { client: 'internet', dial: { kind: 'NodePort', nodeName: 'node-2' } },
    show: { at: 'start' },
    focus: ['nodeports'],
  },
  {
    id: 'dial-node-2',
    title: '2. Dialling node-2 directly',
    body: 'No balancer is involved yet: the client connects straight to node-2:31000. With the default externalTrafficPolicy: Cluster, node-2 may use any ready endpoint in the cluster, so its rules rewrite the destination to 10.244.3.9:8080 on node-3, mark the connection for masquerade, and route it across the cluster network.',
    scene: {
      client: 'internet',
      dial: { kind: 'NodePort', nodeName: 'node-2' },
      choices: { endpoint: '10.244.3.9:8080' },
    },
    show: { at: 'node:node-2', transform: 'DNAT' },
    focus: ['endpoint-decision'],
  },
  {
    id: 'type-loadbalancer',
    title: '3. type: LoadBalancer, and the wait for an address',
    body: 'Switching to type: LoadBalancer leaves port 31000 in place (allocateLoadBalancerNodePorts defaults to true). The cloud-controller-manager now orders a balancer from the cloud and registers the nodes behind it. Until the cloud reports back, status.loadBalancer is empty and kubectl shows EXTERNAL-IP <pending>; then 203.0.113.7 appears in status.loadBalancer.ingress.',
    scene: { published: false, client: 'internet', dial: { kind: 'LoadBalancer' } },
    show: { at: 'start' },
    focus: ['lb-status'],
  },
  {
    id: 'lb-picks-node',
    title: '4. The load balancer picks a node',
    body: 'The client on the internet connects to 203.0.113.7:80. The balancer knows nodes, not pods: it chooses node-1. This balancer rewrites the destination to node-1:31000, as drawn; others (Google Cloud, Azure by default, MetalLB) leave 203.0.113.7:80 in place and kube-proxy matches its load-balancer-IP rule instead. Switch the delivery to compare.',
    scene: {
      published: true,
      client: 'internet',
      dial: { kind: 'LoadBalancer' },
      delivery: 'NodePort',
      choices: { lbTarget: 'node-1', endpoint: '10.244.1.5:8080' },
    },
    show: { at: 'lb' },
    focus: ['lb-decision'],
  },
  {
    id: 'node-1-dnat',
    title: '5. node-1 DNATs to a pod',
    body: 'node-1 matches 31000 in KUBE-NODEPORTS and DNATs to 10.244.1.5:8080. That pod happens to be local, but nothing preferred it: under Cluster the statistic rule draws between both ready pods, and 10.244.3.9 on node-3 was just as likely. The connection that started at a public address now ends at a pod address.',
    scene: {
      published: true,
      client: 'internet',
      dial: { kind: 'LoadBalancer' },
      delivery: 'NodePort',
      choices: { lbTarget: 'node-1', endpoint: '10.244.1.5:8080' },
    },
    show: { at: 'node:node-1', transform: 'DNAT' },
    focus: ['endpoint-decision'],
  },
];

function example(file: string): ScenarioObject[] {
  return fillGaps(loadObjects(readFileSync(`public/examples/${file}`, 'utf8')).objects).objects;
}

/** `objects` with every node named `node-<i>` renamed `<prefix><i>` (Nodes, Pods, slices). */
function renamed(objects: ScenarioObject[], prefix: string): ScenarioObject[] {
  return JSON.parse(
    JSON.stringify(objects).replace(/"node-(\d+)"/g, (_m, i: string) => `"${prefix}${i}"`),
  ) as ScenarioObject[];
}

function edited(fn: (objects: ScenarioObject[]) => void): ScenarioObject[] {
  const objects = canonicalObjects();
  fn(objects);
  return objects;
}

const noIngress = () =>
  edited((os) => {
    for (const o of os)
      if (o.kind === 'Service' && o.spec?.type === 'LoadBalancer')
        (o as { status?: unknown }).status = { loadBalancer: {} };
  });

const typeNodePort = () =>
  edited((os) => {
    for (const o of os)
      if (o.kind === 'Service' && o.spec?.type === 'LoadBalancer') {
        o.spec.type = 'NodePort';
        (o as { status?: unknown }).status = { loadBalancer: {} };
      }
  });

const applicable = (w: BoundWalkthrough) =>
  w.steps.filter((s): s is ApplicableStep => s.applies).map((s) => s.id);

/**
 * Runs every applicable step of `w` on `objects` and checks that the trace reaches the step it
 * shows and that what the step claims holds, with the bound roles.
 */
function checkClaims(objects: readonly ScenarioObject[], w: BoundWalkthrough): void {
  const r = w.roles.values;
  for (const step of w.steps) {
    if (!step.applies) {
      expect(step.reason.length, step.id).toBeGreaterThan(10);
      continue;
    }
    const opts = storyScene(step);
    const result = runScene(objects, opts);
    const t = new TraceDriver(result.trace, opts);
    const i = storyStepIndex(result.trace, step);
    if (step.show.at === 'start') expect(i, step.id).toBe(-1);
    else expect(i, `${step.id} reaches ${step.show.at}`).toBeGreaterThanOrEqual(0);
    for (const v of Object.values(r)) expect(v).not.toMatch(/[{}]/);
    expect(step.body, step.id).not.toMatch(/[{}]|undefined/);
    switch (step.id) {
      case 'nodeport-everywhere': {
        const lines = result.rules[r.dialNode!]!.lines.map((l) => l.text);
        expect(
          lines.some((l) => l.includes('KUBE-NODEPORTS') && l.includes(`--dport ${r.nodePort}`)),
        ).toBe(true);
        if (r.emptyNode) expect(step.body).toContain(`${r.emptyNode} has the rule as well`);
        break;
      }
      case 'dial-node-2': {
        const shown = t.step(i);
        expect(shown.at).toBe(`node:${r.emptyNode}`);
        expect(`${shown.after.dst}:${shown.after.dport}`).toBe(r.remoteEndpoint);
        const node = result.cluster.nodes.find((n) => n.name === r.emptyNode)!;
        const snat = t.at(`node:${r.emptyNode!}`).find((s) => s.transform === 'SNAT');
        expect(snat?.after.src, 'masqueraded to the node').toBe(node.internalIP);
        expect(t.nodesVisited).toEqual([r.emptyNode, r.remoteNode]);
        expect(t.outcome).toMatchObject({
          kind: 'delivered',
          podIP: r.remoteEndpoint!.split(':')[0],
          snat: true,
          crossedNodes: true,
        });
        break;
      }
      case 'type-loadbalancer':
        expect(t.outcome.kind).toBe('no-address');
        break;
      case 'lb-picks-node': {
        const shown = t.step(i);
        const node = result.cluster.nodes.find((n) => n.name === r.lbNode)!;
        expect(shown.to).toBe(`node:${r.lbNode}`);
        expect(shown.decision?.chosen).toBe(r.lbNode);
        expect(shown.decision?.candidates.find((c) => c.id === r.lbNode)?.eligible).toBe(true);
        // A hostname-only ingress (AWS): the client dials what the name resolves to, the balancer's address.
        const dialled = result.cluster.services[0]?.ingress.length
          ? r.lbAddress
          : result.cluster.loadBalancers[0]?.address;
        expect(`${shown.before.dst}:${shown.before.dport}`).toBe(`${dialled}:${r.port}`);
        expect(`${shown.after.dst}:${shown.after.dport}`).toBe(`${node.internalIP}:${r.nodePort}`);
        expect(step.body).toContain(`it chooses ${r.lbNode}.`);
        break;
      }
      case 'node-1-dnat': {
        const shown = t.step(i);
        expect(shown.at).toBe(`node:${r.lbNode}`);
        expect(`${shown.after.dst}:${shown.after.dport}`).toBe(r.lbEndpoint);
        const d = t.steps
          .slice(0, i + 1)
          .filter((s) => s.at === `node:${r.lbNode}`)
          .map((s) => s.decision)
          .find((x) => x?.kind === 'endpoint');
        expect(d?.chosen).toBe(r.lbEndpoint);
        if (r.otherEndpoint) {
          // "just as likely": every ready endpoint has the same share under Cluster (iptables
          // writes the statistic probabilities rounded, hence close to, not equal).
          const chosen = d?.candidates.find((c) => c.id === r.lbEndpoint);
          const other = d?.candidates.find((c) => c.id === r.otherEndpoint);
          expect(other).toMatchObject({ eligible: true, nodeName: r.otherNode });
          expect(other?.probability).toBeCloseTo(chosen?.probability ?? -1, 6);
        }
        if (r.lbLocal) expect(t.outcome).toMatchObject({ kind: 'delivered', crossedNodes: false });
        break;
      }
      default:
        throw new Error(`no claims written for ${step.id}`);
    }
  }
}

describe('bindWalkthrough: the canonical scenario', () => {
  const w = bindToObjects(STORY, canonicalObjects());

  it('gives exactly the literal five steps, field by field', () => {
    expect(w.steps.map((s) => s.applies)).toEqual([true, true, true, true, true]);
    w.steps.forEach((s, i) => {
      const { applies: _a, ...step } = s as ApplicableStep;
      expect(step).toStrictEqual(LITERAL[i]);
    });
    expect(NODEPORT_TO_LOADBALANCER.steps).toStrictEqual(LITERAL);
    expect(NODEPORT_TO_LOADBALANCER.id).toBe('nodeport-to-loadbalancer');
  });

  it('binds the roles the seed names', () => {
    expect(w.roles.service).toBe('default/web');
    expect(w.roles.values).toMatchObject({
      serviceName: 'web',
      nodePort: '31000',
      port: '80',
      targetPort: '8080',
      lbAddress: '203.0.113.7',
      emptyNode: 'node-2',
      podNode: 'node-1',
      podEndpoint: '10.244.1.5:8080',
      otherEndpoint: '10.244.3.9:8080',
      otherNode: 'node-3',
      lbNode: 'node-1',
    });
    expect(w.whatNext).toMatchObject({
      chapter: 'traffic-policy',
      lastStep: 4,
      dnatStep: 4,
      failNode: 'node-1',
    });
  });

  it('every step holds in the model', () => checkClaims(canonicalObjects(), w));

  it('the "what next" chapter exists with that title', () => {
    const file = readdirSync('content/chapters').find((f) => /^\d+-traffic-policy\.md$/.test(f));
    expect(file).toBeDefined();
    expect(readFileSync(`content/chapters/${file!}`, 'utf8')).toContain(
      `title: ${w.whatNext.chapterTitle}`,
    );
  });

  it('every title renders with no role bound (a step that does not apply is still listed)', () => {
    const none = bindToObjects(STORY, typeNodePort());
    for (const s of none.steps) expect(s.title).not.toMatch(/[{}]/);
  });
});

/** The steps that apply, per shipped example (the cluster's own roles, checked in the model). */
const EXAMPLES: Record<string, { applies: string[]; emptyNode?: string; lbNode?: string }> = {
  'canonical.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'node-2',
    lbNode: 'node-1',
  },
  'cloud-cluster-policy.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'gke-prod-default-pool-8d94e0c7-9m2q',
    lbNode: 'gke-prod-default-pool-6f1c2a3b-4kxz',
  },
  'local-uneven.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'aks-nodepool1-38290761-vmss000002',
    lbNode: 'aks-nodepool1-38290761-vmss000000',
  },
  'bare-metal-pending.yaml': {
    applies: ['nodeport-everywhere', 'dial-node-2', 'type-loadbalancer'],
    emptyNode: 'k8s-cp-1',
  },
  'ipmode-proxy.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'prod-worker-2',
    lbNode: 'prod-worker-1',
  },
  'source-ranges.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'metal-01',
    lbNode: 'metal-02',
  },
  'multi-port-named.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'gke-web-prod-pool-1-c04e9a1d-l6pn',
    lbNode: 'gke-web-prod-pool-1-1a7c3e90-8wq1',
  },
  'eks-hostname.yaml': {
    applies: [
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ],
    emptyNode: 'ip-192-168-78-90.ec2.internal',
    lbNode: 'ip-192-168-12-34.ec2.internal',
  },
};

describe('bindWalkthrough: every shipped example', () => {
  const files = readdirSync('public/examples').filter((f) => f.endsWith('.yaml'));
  it('has an expectation for every example', () =>
    expect(Object.keys(EXAMPLES).sort()).toEqual([...files].sort()));

  it.each(files)('%s: the steps name its own nodes and hold in the model', (file) => {
    const objects = example(file);
    const w = bindToObjects(STORY, objects);
    const want = EXAMPLES[file]!;
    expect(applicable(w)).toEqual(want.applies);
    expect(w.roles.values.emptyNode).toBe(want.emptyNode);
    expect(w.roles.values.lbNode).toBe(want.lbNode);
    checkClaims(objects, w);
    if (file !== 'canonical.yaml')
      for (const s of w.steps)
        expect(`${s.title} ${s.applies ? s.body : s.reason}`).not.toMatch(
          /node-2|10\.244\.3\.9|203\.0\.113\.7\b/,
        );
  });

  it('eks-hostname.yaml: the published hostname is the address the story names (AWS publishes no IP)', () => {
    const hostname = 'a4f3c2b1a9e8d4c7ba6f5e4d3c2b1a09-1234567890.us-east-1.elb.amazonaws.com';
    const w = bindToObjects(STORY, example('eks-hostname.yaml'));
    expect(w.roles.values.lbAddress).toBe(hostname);
    const step3 = w.steps[2];
    expect(step3?.applies && step3.body).toContain(
      `then ${hostname} appears in status.loadBalancer.ingress.`,
    );
  });

  it('bare-metal-pending.yaml: steps 4 and 5 say there is no published address', () => {
    const w = bindToObjects(STORY, example('bare-metal-pending.yaml'));
    for (const s of w.steps.slice(3)) {
      expect(s.applies).toBe(false);
      if (!s.applies)
        expect(s.reason).toMatch(/^Your Service web has no status\.loadBalancer\.ingress: /);
    }
    const step3 = w.steps[2];
    expect(step3?.applies && step3.body).toContain('Your Service web is in that state now');
    expect(w.whatNext).toMatchObject({ lastStep: 2, dnatStep: 1, failNode: 'k8s-cp-1' });
  });

  it('source-ranges.yaml (one Pod): step 5 says it is the only one', () => {
    const w = bindToObjects(STORY, example('source-ranges.yaml'));
    const s = w.steps[4];
    expect(s?.applies && s.body).toContain(
      'draws between every ready pod, and 10.244.1.42 is the only one.',
    );
  });

  it('cloud-cluster-policy.yaml (three Pods): step 5 names all three', () => {
    const w = bindToObjects(STORY, example('cloud-cluster-policy.yaml'));
    const s = w.steps[4];
    expect(s?.applies && s.body).toContain(
      'draws between all 3 ready pods, and 10.52.2.7 on gke-prod-default-pool-b2e5f1a9-tr7w was just as likely.',
    );
  });
});

describe('bindWalkthrough: other shapes of cluster', () => {
  it('nodes named differently (gke-prod-pool-1-abcd-N)', () => {
    const objects = renamed(canonicalObjects(), 'gke-prod-pool-1-abcd-');
    const w = bindToObjects(STORY, objects);
    expect(w.steps.every((s) => s.applies)).toBe(true);
    expect(w.steps[1]?.title).toBe('2. Dialling gke-prod-pool-1-abcd-2 directly');
    expect(w.steps[4]?.title).toBe('5. gke-prod-pool-1-abcd-1 DNATs to a pod');
    checkClaims(objects, w);
  });

  it('a Pod on every node: no node to dial without one, step 2 says why', () => {
    const objects = generatedCluster({ nodes: 3, pods: 3 });
    const w = bindToObjects(STORY, objects);
    expect(applicable(w)).toEqual([
      'nodeport-everywhere',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ]);
    const s = w.steps[1]!;
    expect(s.applies).toBe(false);
    expect(s.title).toBe('2. Dialling a node without a Pod directly');
    if (!s.applies) {
      expect(s.reason).toBe(
        'Every node in your cluster runs a web Pod, so there is no node without one to dial.',
      );
      expect(s.missing).toBe('emptyNode');
    }
    expect(w.steps[0]?.applies && w.steps[0].body).toContain(
      'Every node has the rule, whether or not',
    );
    checkClaims(objects, w);
  });

  it('one node', () => {
    const objects = generatedCluster({ nodes: 1, pods: 1 });
    const w = bindToObjects(STORY, objects);
    expect(applicable(w)).toEqual([
      'nodeport-everywhere',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ]);
    const s = w.steps[1]!;
    expect(!s.applies && s.reason).toBe(
      'Your cluster has one node, and it runs a web Pod, so there is no node without one to dial.',
    );
    checkClaims(objects, w);
  });

  it('a Service with no published ingress', () => {
    const objects = noIngress();
    const w = bindToObjects(STORY, objects);
    expect(applicable(w)).toEqual(['nodeport-everywhere', 'dial-node-2', 'type-loadbalancer']);
    for (const s of w.steps.slice(3))
      expect(!s.applies && s.reason).toMatch(
        /^Your Service web has no status\.loadBalancer\.ingress: .*EXTERNAL-IP <pending>/,
      );
    checkClaims(objects, w);
  });

  it('type NodePort: no balancer', () => {
    const objects = typeNodePort();
    const w = bindToObjects(STORY, objects);
    expect(applicable(w)).toEqual(['nodeport-everywhere', 'dial-node-2']);
    for (const s of w.steps.slice(2))
      expect(!s.applies && s.reason).toMatch(/^Your Service web is type NodePort: no balancer\./);
    expect(w.whatNext).toMatchObject({ lastStep: 1, dnatStep: 1, failNode: 'node-2' });
    checkClaims(objects, w);
  });

  it('no ready endpoint: the steps that need a Pod say so', () => {
    const objects = generatedCluster({ nodes: 2, pods: 0 });
    const w = bindToObjects(STORY, objects);
    expect(applicable(w)).toEqual(['type-loadbalancer']);
    expect(!w.steps[0]!.applies && w.steps[0]!.reason).toMatch(
      /^Your Service web has no ready endpoints: kube-proxy then writes no KUBE-NODEPORTS rule/,
    );
    expect(!w.steps[1]!.applies && w.steps[1]!.reason).toBe(
      'Your Service web has no ready endpoints, so kube-proxy has nowhere to send the connection.',
    );
    checkClaims(objects, w);
  });

  it('generatedCluster at 100 nodes, Pods on the first 10', () => {
    const objects = generatedCluster({ nodes: 100, pods: 30, spreadOver: 10 });
    const w = bindToObjects(STORY, objects);
    expect(w.steps.every((s) => s.applies)).toBe(true);
    expect(w.roles.values).toMatchObject({
      emptyNode: 'node-11',
      lbNode: 'node-1',
      otherNode: 'node-2',
      readyPods: 'all 30 ready pods',
    });
    checkClaims(objects, w);
  });

  it('generatedCluster at 100 nodes, a Pod on every node', () => {
    const objects = generatedCluster({ nodes: 100, pods: 100 });
    const w = bindToObjects(STORY, objects);
    expect(w.steps[1]?.applies).toBe(false);
    checkClaims(objects, w);
  });

  it('is deterministic: the same objects give the same binding', () => {
    const a = bindToObjects(STORY, example('cloud-cluster-policy.yaml'));
    const b = bindToObjects(STORY, example('cloud-cluster-policy.yaml'));
    expect(a).toStrictEqual(b);
  });

  it('a step that does not apply is never given a scene', () => {
    const w = bindToObjects(STORY, typeNodePort());
    for (const s of w.steps) if (!s.applies) expect(Object.keys(s)).not.toContain('scene');
  });

  it('uses DEFAULT_SCENE as the base of every step', () => {
    const step = bindToObjects(STORY, canonicalObjects()).steps[3] as ApplicableStep;
    expect(storyScene(step)).toEqual({ ...DEFAULT_SCENE, ...LITERAL[3]!.scene });
  });
});
