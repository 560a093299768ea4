/**
 * Test fixture: the cluster of kube-proxy's TestOverallNFTablesRules as a {@link Cluster}
 * (kubernetes `pkg/proxy/nftables/proxier_test.go`, `NewFakeProxier` and the test's six
 * Services and EndpointSlices, read at aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212).
 *
 * `NewFakeProxier`: node `test-hostname` with IPs 192.168.0.2, 192.168.1.2, 192.168.99.11;
 * pod CIDR (local detector) 10.0.0.0/8; Service CIDR 172.30.0.0/16; nodePortAddresses
 * 192.168.0.2/32; masquerade mark 0x4000. Endpoints without a nodeName are not local.
 */
import type {
  Cluster,
  EndpointModel,
  ServiceModel,
  ServicePortModel,
} from '../../../scenario/cluster';

/** The Service CIDR NewFakeProxier sets (`serviceCIDRs`). */
export const OVERALL_SERVICE_CIDRS = ['172.30.0.0/16'];

/** NewFakeProxier's host name. */
export const TEST_HOSTNAME = 'test-hostname';

function svc(
  ns: string,
  name: string,
  over: Partial<ServiceModel> & { clusterIP: string },
  port: Partial<ServicePortModel> = {},
): ServiceModel {
  return {
    namespace: ns,
    name,
    type: 'ClusterIP',
    ports: [{ name: 'p80', protocol: 'tcp', port: 80, targetPort: 80, nodePort: 0, ...port }],
    externalTrafficPolicy: 'Cluster',
    internalTrafficPolicy: 'Cluster',
    healthCheckNodePort: 0,
    sessionAffinity: 'None',
    affinityTimeoutSeconds: 10800,
    loadBalancerSourceRanges: [],
    externalIPs: [],
    ingress: [],
    ...over,
  };
}

function ep(ip: string, nodeName = ''): EndpointModel {
  return { ip, port: 80, nodeName, ready: true, serving: true, terminating: false, podName: '' };
}

/** TestOverallNFTablesRules' services (svc1…svc6) and endpoints on `test-hostname`. */
export function overallCluster(): Cluster {
  return {
    nodes: [
      {
        name: TEST_HOSTNAME,
        internalIP: '192.168.0.2',
        addresses: ['192.168.0.2', '192.168.1.2', '192.168.99.11'],
        podCIDR: '10.0.0.0/24',
        bridgeIP: '10.0.0.1',
        ready: true,
      },
    ],
    pods: [],
    services: [
      svc('ns1', 'svc1', { clusterIP: '172.30.0.41' }),
      svc(
        'ns2',
        'svc2',
        {
          type: 'LoadBalancer',
          externalTrafficPolicy: 'Local',
          clusterIP: '172.30.0.42',
          ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }],
          externalIPs: ['192.168.99.22'],
          healthCheckNodePort: 30000,
        },
        { nodePort: 3001 },
      ),
      svc('ns3', 'svc3', { type: 'NodePort', clusterIP: '172.30.0.43' }, { nodePort: 3003 }),
      svc('ns4', 'svc4', {
        type: 'NodePort',
        clusterIP: '172.30.0.44',
        externalIPs: ['192.168.99.33'],
      }),
      svc(
        'ns5',
        'svc5',
        {
          type: 'LoadBalancer',
          clusterIP: '172.30.0.45',
          ingress: [{ ip: '5.6.7.8', ipMode: 'VIP' }],
          // "Extra whitespace to ensure that invalid value will not result in a crash".
          loadBalancerSourceRanges: [' 203.0.113.0/25'],
          sessionAffinity: 'ClientIP',
          affinityTimeoutSeconds: 10800,
        },
        { nodePort: 3002 },
      ),
      svc('ns6', 'svc6', { clusterIP: '172.30.0.46' }),
    ],
    endpoints: {
      'ns1/svc1:p80': [ep('10.180.0.1')],
      'ns2/svc2:p80': [ep('10.180.0.2')],
      'ns3/svc3:p80': [ep('10.180.0.3')],
      'ns4/svc4:p80': [ep('10.180.0.4'), ep('10.180.0.5', TEST_HOSTNAME)],
      'ns5/svc5:p80': [ep('10.180.0.3')],
    },
    kubeProxy: {
      mode: 'nftables',
      clusterCIDR: '10.0.0.0/8',
      detectLocalMode: 'ClusterCIDR',
      nodePortAddresses: ['192.168.0.2/32'],
      masqueradeBit: 14,
      masqueradeAll: false,
      nftablesMasqueradeBit: 14,
      nftablesMasqueradeAll: false,
      localhostNodePorts: true,
      ipvsScheduler: '',
    },
    serviceCIDRs: [{ name: 'kubernetes', cidrs: OVERALL_SERVICE_CIDRS, ready: true }],
    loadBalancers: [],
    clients: [],
    assumed: [],
  };
}
