/**
 * The default walkthrough: the five-step NodePort → LoadBalancer story of the canonical
 * scenario (`../shared/seeds/004_…`), told in the project's own words. Each step names the
 * scene it needs and the trace step it shows; the facts come from the model at run time.
 */
import type { Walkthrough } from './types';

export const NODEPORT_TO_LOADBALANCER: Walkthrough = {
  id: 'nodeport-to-loadbalancer',
  title: 'From NodePort to LoadBalancer, in five steps',
  steps: [
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
  ],
};
