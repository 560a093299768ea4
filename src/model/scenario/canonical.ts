/**
 * The canonical scenario a newcomer sees (DESIGN.md, "The canonical scenario"):
 * Service `web` (namespace `default`), type LoadBalancer, port 80/TCP → targetPort 8080,
 * nodePort 31000; nodes node-1, node-2, node-3; ready Pods 10.244.1.5 on node-1 and
 * 10.244.3.9 on node-3, none on node-2; load-balancer ingress 203.0.113.7; an external client
 * in 198.51.100.0/24 (RFC 5737 documentation ranges for everything public).
 *
 * The balancer is a NAT balancer (`implementation: NAT`, like an AWS Network Load Balancer
 * with instance targets): it rewrites the destination to a node's NodePort, keeps the client's
 * address, and the reply returns through it, which answers the client from 203.0.113.7:80.
 * Direct server return (Google Cloud's passthrough balancer) and MetalLB are scene choices.
 *
 * Written as `kubectl get … -o yaml` prints the objects (without the noise fields).
 */
import type { ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';

const NODES = [
  { name: 'node-1', ip: '192.168.0.11', podCIDR: '10.244.1.0/24' },
  { name: 'node-2', ip: '192.168.0.12', podCIDR: '10.244.2.0/24' },
  { name: 'node-3', ip: '192.168.0.13', podCIDR: '10.244.3.0/24' },
] as const;

const BACKENDS = [
  { name: 'web-6d8f9c7b5-x2k4p', ip: '10.244.1.5', node: 'node-1' },
  { name: 'web-6d8f9c7b5-q7m9z', ip: '10.244.3.9', node: 'node-3' },
] as const;

const readyCondition = { type: 'Ready', status: 'True' } as const;

/** The canonical scenario's objects. A fresh array each call, safe to modify. */
export function canonicalObjects(): ScenarioObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        type: 'LoadBalancer',
        selector: { app: 'web' },
        clusterIP: '10.96.0.50',
        clusterIPs: ['10.96.0.50'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 31000 }],
        externalTrafficPolicy: 'Cluster',
        internalTrafficPolicy: 'Cluster',
        sessionAffinity: 'None',
        allocateLoadBalancerNodePorts: true,
      },
      status: { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }] } },
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'web-7xq2b',
        namespace: 'default',
        labels: {
          'kubernetes.io/service-name': 'web',
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
        },
      },
      addressType: 'IPv4',
      ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
      endpoints: BACKENDS.map((b) => ({
        addresses: [b.ip],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: b.node,
        targetRef: { kind: 'Pod', namespace: 'default', name: b.name },
      })),
    },
    ...NODES.map((n): ScenarioObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: n.name, labels: { 'kubernetes.io/hostname': n.name } },
      spec: { podCIDR: n.podCIDR, podCIDRs: [n.podCIDR] },
      status: {
        addresses: [
          { type: 'InternalIP', address: n.ip },
          { type: 'Hostname', address: n.name },
        ],
        conditions: [{ ...readyCondition, reason: 'KubeletReady' }],
      },
    })),
    ...BACKENDS.map((b): ScenarioObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: b.name, namespace: 'default', labels: { app: 'web' } },
      spec: {
        nodeName: b.node,
        containers: [
          {
            name: 'web',
            // The unprivileged nginx image listens on 8080, the Service's targetPort.
            image: 'nginxinc/nginx-unprivileged:1.27',
            ports: [{ name: 'http', containerPort: 8080 }],
          },
        ],
      },
      status: { phase: 'Running', podIP: b.ip, conditions: [readyCondition] },
    })),
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'curl', namespace: 'default', labels: { app: 'curl' } },
      spec: { nodeName: 'node-2', containers: [{ name: 'curl', image: 'curlimages/curl:8.10.1' }] },
      status: { phase: 'Running', podIP: '10.244.2.4', conditions: [readyCondition] },
    },
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      mode: 'iptables',
      clusterCIDR: '10.244.0.0/16',
    },
    {
      apiVersion: OUR_GROUP,
      kind: 'CloudLoadBalancer',
      metadata: { name: 'web-lb' },
      spec: {
        service: 'default/web',
        address: '203.0.113.7',
        delivery: 'NodePort',
        // A NAT balancer, like AWS NLB with instance targets: the reply returns through it.
        implementation: 'NAT',
        backendAddress: '192.168.0.250',
      },
    },
    {
      apiVersion: OUR_GROUP,
      kind: 'Client',
      metadata: { name: 'internet' },
      spec: { location: 'Internet', address: '198.51.100.23', sourcePort: 51234 },
    },
    {
      apiVersion: OUR_GROUP,
      kind: 'Client',
      metadata: { name: 'node' },
      spec: { location: 'Node', nodeName: 'node-2', sourcePort: 51234 },
    },
    {
      apiVersion: OUR_GROUP,
      kind: 'Client',
      metadata: { name: 'pod' },
      spec: { location: 'Pod', pod: 'default/curl', sourcePort: 51234 },
    },
  ];
}
