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
      body: 'Making Service web a NodePort Service has the control plane reserve one port from the node-port range, 31000 here, and kube-proxy on every node writes a KUBE-NODEPORTS rule for it. node-2 gets the rule too, although no web pod runs there.',
      scene: { client: 'internet', dial: { kind: 'NodePort', nodeName: 'node-2' } },
      show: { at: 'start' },
      focus: ['nodeports'],
    },
    {
      id: 'dial-node-2',
      title: '2. Dialling node-2 directly',
      body: 'Any client that can reach a node can use the port: here it dials node-2:31000. node-2 has no backend, so under the default externalTrafficPolicy Cluster its rules DNAT the connection to a ready pod elsewhere, 10.244.3.9:8080 on node-3, masquerade it, and send it across the cluster network.',
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
      body: 'Changing the type to LoadBalancer keeps the NodePort. The cloud-controller-manager asks the cloud for a load balancer aimed at port 31000 on every node. That takes time, so status.loadBalancer stays empty (EXTERNAL-IP <pending>) until 203.0.113.7 is published in status.loadBalancer.ingress.',
      scene: { published: false, client: 'internet', dial: { kind: 'LoadBalancer' } },
      show: { at: 'start' },
      focus: ['lb-status'],
    },
    {
      id: 'lb-picks-node',
      title: '4. The load balancer picks a node',
      body: 'An external client dials 203.0.113.7:80 and the balancer picks a node. One that targets NodePorts, as drawn, sends it to node-1:31000. One that keeps the destination, which is what ipMode VIP declares, would deliver it still addressed to 203.0.113.7:80, and kube-proxy would catch it with its load-balancer-IP rule (switch the delivery to see it).',
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
      body: 'On node-1 the KUBE-NODEPORTS rule for 31000 leads to a DNAT to the local pod 10.244.1.5:8080. The balancer only chose the node: under the default Cluster policy kube-proxy picks from every ready pod, so it could just as well have picked 10.244.3.9. One public address has reached a private pod.',
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
