/**
 * Test fixture: the cluster of kube-proxy's externalIPs tests, as scenario objects, for every
 * mode. kubernetes `pkg/proxy/iptables/proxier_test.go` TestOnlyLocalExternalIPs (read at
 * openshift/kubernetes@06d263ebff317d02636336fc76043cc40dd2b74e) and the externalIP flows of
 * `pkg/proxy/nftables/proxier_test.go` TestExternalTrafficPolicyLocal: Service ns1/svc1,
 * ClusterIP 172.30.0.41, externalIP 192.168.99.11, port p80 80/TCP; endpoints 10.180.0.1 (no
 * nodeName: never local) and 10.180.2.1 on the fake proxier's node `test-hostname`
 * (192.168.0.2); pod CIDR (local-traffic detector) 10.0.0.0/8.
 *
 * kube-proxy reads the Service type only through `ExternalPolicyLocal`
 * (pkg/api/v1/service/util.go: LoadBalancer, NodePort, or ClusterIP with externalIPs), so
 * the fixture's default type is ClusterIP, the case issue 14 is about.
 */
import type { ScenarioObject, Service } from '../../k8s/objects';

/** NewFakeProxier's host name and node IP. */
export const FAKE_NODE = { name: 'test-hostname', ip: '192.168.0.2' } as const;
/** The addresses of the fixture (proxier_test.go's conventions). */
export const EIP = {
  clusterIP: '172.30.0.41',
  externalIP: '192.168.99.11',
  port: 80,
  remoteEndpoint: '10.180.0.1',
  localEndpoint: '10.180.2.1',
  /** `testExternalClient` (proxier_test.go). */
  externalClient: '203.0.113.2',
  /** A pod address in the pod CIDR ("10.0.0.2" in the packet-flow tests). */
  pod: '10.0.0.2',
} as const;

/** What to vary. */
export interface ExternalIPFixture {
  mode: 'iptables' | 'nftables' | 'ipvs';
  type?: 'ClusterIP' | 'NodePort' | undefined;
  /** Unset: not written (the API server defaults it to Cluster). */
  externalTrafficPolicy?: 'Cluster' | 'Local' | undefined;
  internalTrafficPolicy?: 'Cluster' | 'Local' | undefined;
  /** Whether 10.180.2.1 is on test-hostname (default) or on another node. */
  localEndpoint?: boolean | undefined;
}

/** The fixture's objects: one Node, the KubeProxyConfiguration, the Service and its slice. */
export function externalIPObjects(f: ExternalIPFixture): ScenarioObject[] {
  const spec: NonNullable<Service['spec']> = {
    type: f.type ?? 'ClusterIP',
    clusterIP: EIP.clusterIP,
    externalIPs: [EIP.externalIP],
    ports: [{ name: 'p80', port: EIP.port, protocol: 'TCP', targetPort: EIP.port }],
  };
  if (f.externalTrafficPolicy) spec.externalTrafficPolicy = f.externalTrafficPolicy;
  if (f.internalTrafficPolicy) spec.internalTrafficPolicy = f.internalTrafficPolicy;
  return [
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: FAKE_NODE.name },
      spec: { podCIDR: '10.180.2.0/24' },
      status: {
        addresses: [{ type: 'InternalIP', address: FAKE_NODE.ip }],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    },
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      mode: f.mode,
      clusterCIDR: '10.0.0.0/8',
      detectLocalMode: 'ClusterCIDR',
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'ns1', name: 'svc1' }, spec },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        namespace: 'ns1',
        name: 'svc1-1',
        labels: { 'kubernetes.io/service-name': 'svc1' },
      },
      addressType: 'IPv4',
      endpoints: [
        { addresses: [EIP.remoteEndpoint] },
        {
          addresses: [EIP.localEndpoint],
          nodeName: f.localEndpoint === false ? 'other-node' : FAKE_NODE.name,
        },
      ],
      ports: [{ name: 'p80', port: EIP.port, protocol: 'TCP' }],
    },
  ];
}
