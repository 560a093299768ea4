/**
 * The default walkthrough: the five-step NodePort → LoadBalancer story of the canonical
 * scenario (`../shared/seeds/004_…`), told in the project's own words, as a template over the
 * story's roles (`bind.ts`), so the same story is told on any cluster with its own names and
 * addresses. Each step names the scene it needs and the trace step it shows; the facts come
 * from the model at run time.
 *
 * {@link NODEPORT_TO_LOADBALANCER} is the template bound to the canonical scenario: exactly
 * the literal steps a newcomer has always seen (`nodePortToLoadBalancer.test.ts` compares
 * every field), used where a step is addressed by index (scene links, shared links).
 */
import { canonicalObjects } from '../scenario/canonical';
import { bindToObjects } from './bind';
import type { WalkthroughTemplate } from './bind';
import type { StoryStep, Walkthrough } from './types';

/** The story, over roles (see `RoleName` in `bind.ts`). */
export const NODEPORT_TO_LOADBALANCER_STORY: WalkthroughTemplate = {
  id: 'nodeport-to-loadbalancer',
  title: 'From NodePort to LoadBalancer, in five steps',
  steps: [
    {
      id: 'nodeport-everywhere',
      title: '1. One port, opened on every node',
      body: [
        'With type: NodePort the API server allocates {nodePort} from the node-port range (30000–32767 by default), and every kube-proxy answers for it: each node gets a KUBE-NODEPORTS rule for {nodePort}.',
        {
          if: ['emptyNode'],
          then: ' {emptyNode} has the rule as well, even though none of the {serviceName} pods runs on it.',
          else: ' Every node has the rule, whether or not one of the {serviceName} pods runs on it.',
        },
      ],
      scene: { client: '{client}', dial: { kind: 'NodePort', nodeName: '{dialNode}' } },
      show: { at: 'start' },
      focus: ['nodeports'],
      needs: ['readyEndpoint'],
    },
    {
      id: 'dial-node-2',
      title: [
        '2. Dialling ',
        { if: ['emptyNode'], then: '{emptyNode}', else: 'a node without a Pod' },
        ' directly',
      ],
      body: 'No balancer is involved yet: the client connects straight to {emptyNode}:{nodePort}. With the default externalTrafficPolicy: Cluster, {emptyNode} may use any ready endpoint in the cluster, so its rules rewrite the destination to {remoteEndpoint} on {remoteNode}, mark the connection for masquerade, and route it across the cluster network.',
      scene: {
        client: '{client}',
        dial: { kind: 'NodePort', nodeName: '{emptyNode}' },
        choices: { endpoint: '{remoteEndpoint}' },
      },
      show: { at: 'node:{emptyNode}', transform: 'DNAT' },
      focus: ['endpoint-decision'],
    },
    {
      id: 'type-loadbalancer',
      title: '3. type: LoadBalancer, and the wait for an address',
      body: [
        'Switching to type: LoadBalancer ',
        {
          if: ['nodePort'],
          then: 'leaves port {nodePort} in place (allocateLoadBalancerNodePorts defaults to true).',
          else: 'allocates no node port here (allocateLoadBalancerNodePorts: false).',
        },
        ' The cloud-controller-manager now orders a balancer from the cloud and registers the nodes behind it. Until the cloud reports back, status.loadBalancer is empty and kubectl shows EXTERNAL-IP <pending>',
        {
          if: ['lbAddress'],
          then: '; then {lbAddress} appears in status.loadBalancer.ingress.',
          else: '. Your Service {serviceName} is in that state now: nothing has published an address in its status.loadBalancer.ingress.',
        },
      ],
      scene: { published: false, client: '{client}', dial: { kind: 'LoadBalancer' } },
      show: { at: 'start' },
      focus: ['lb-status'],
      needs: ['lbService'],
    },
    {
      id: 'lb-picks-node',
      title: '4. The load balancer picks a node',
      body: 'The client on the internet connects to {lbAddress}:{port}. The balancer knows nodes, not pods: it chooses {lbNode}. This balancer rewrites the destination to {lbNode}:{nodePort}, as drawn; others (Google Cloud, Azure by default, MetalLB) leave {lbAddress}:{port} in place and kube-proxy matches its load-balancer-IP rule instead. Switch the delivery to compare.',
      scene: {
        published: true,
        client: '{client}',
        dial: { kind: 'LoadBalancer' },
        delivery: 'NodePort',
        choices: { lbTarget: '{lbNode}', endpoint: '{lbEndpoint}' },
      },
      show: { at: 'lb' },
      focus: ['lb-decision'],
    },
    {
      id: 'node-1-dnat',
      title: ['5. ', { if: ['lbNode'], then: '{lbNode}', else: 'The node' }, ' DNATs to a pod'],
      body: [
        '{lbNode} matches {nodePort} in KUBE-NODEPORTS and DNATs to {lbEndpoint}.',
        {
          if: ['lbLocal'],
          then: ' That pod happens to be local, but nothing preferred it:',
          else: ' That pod runs on {lbEndpointNode}, and nothing preferred it:',
        },
        {
          if: ['otherEndpointIP', 'readyPods'],
          then: ' under Cluster the statistic rule draws between {readyPods}, and {otherEndpointIP} on {otherNode} was just as likely.',
          else: ' under Cluster the statistic rule draws between every ready pod, and {lbEndpointIP} is the only one.',
        },
        ' The connection that started at a public address now ends at a pod address.',
      ],
      scene: {
        published: true,
        client: '{client}',
        dial: { kind: 'LoadBalancer' },
        delivery: 'NodePort',
        choices: { lbTarget: '{lbNode}', endpoint: '{lbEndpoint}' },
      },
      show: { at: 'node:{lbNode}', transform: 'DNAT' },
      focus: ['endpoint-decision'],
    },
  ],
  whatNext: {
    chapter: 'traffic-policy',
    chapterTitle: 'externalTrafficPolicy — Cluster or Local',
  },
};

/**
 * The story bound to the canonical scenario, as plain {@link StoryStep}s (every step applies
 * there). Steps addressed by index elsewhere (`story=N` in scene links, shared links) are these.
 */
export const NODEPORT_TO_LOADBALANCER: Walkthrough = (() => {
  const bound = bindToObjects(NODEPORT_TO_LOADBALANCER_STORY, canonicalObjects());
  return {
    id: bound.id,
    title: bound.title,
    steps: bound.steps.map((s): StoryStep => {
      if (!s.applies)
        throw new Error(`story step ${s.id} does not apply to the canonical scenario`);
      const { applies: _applies, ...step } = s;
      return step;
    }),
  };
})();
