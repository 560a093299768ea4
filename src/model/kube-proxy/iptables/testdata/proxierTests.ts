/**
 * Test fixture: the clusters of kube-proxy's own iptables golden tests, as scenario objects
 * (Node, Service, EndpointSlice, KubeProxyConfiguration), with the host facts each test's
 * fake proxier sets up. The expected dumps are the `*.restore` files beside this one; the
 * tests that assert single lines instead of a dump (TestSyncProxyRulesLargeClusterMode,
 * TestLoadBalancerIngressRouteTypeProxy) have their expectations in ../overall.test.ts.
 *
 * Sources — kubernetes `pkg/proxy/iptables/proxier_test.go`:
 * - NEW: aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212 (nfacct era).
 * - OLD: openshift/kubernetes@06d263ebff317d02636336fc76043cc40dd2b74e (a fork that tracks
 *   upstream; only its upstream tests are used), a release before the nfacct counters.
 *
 * `NewFakeProxier` in both: host name `test-hostname`, node IP 192.168.0.2 (NEW also has
 * 192.168.1.2 and 192.168.99.11 on eth0), local-traffic detector by CIDR 10.0.0.0/8,
 * masqueradeMark literally "0x4000", localhostNodePorts true, nodePortAddresses nil (all
 * local addresses), `iptablestest.NewFake()` without `SetHasRandomFully(true)` (so plain
 * MASQUERADE), conntrackTCPLiberal false; NEW sets both nfAcctCounters to true, OLD has none.
 * `makeTestEndpointSlice` labels the slice `kubernetes.io/service-name`; endpoints without a
 * nodeName are not local; nil conditions count as ready.
 */
import type {
  EndpointSlice,
  KubeProxyConfiguration,
  Node,
  ScenarioObject,
  Service,
} from '../../../k8s/objects';
import type { IptablesGenerateOptions } from '../generate';

/** NewFakeProxier's host name. */
export const TEST_HOSTNAME = 'test-hostname';

/** NEW `NewFakeProxier`: nfacct counters present, no --random-fully, mark "0x4000". */
export const NEW_FAKE: IptablesGenerateOptions = {
  randomFully: false,
  nfacct: true,
  masqueradeMark: '0x4000',
};

/** OLD `NewFakeProxier`: no nfacct counters yet, no --random-fully, mark "0x4000". */
export const OLD_FAKE: IptablesGenerateOptions = {
  randomFully: false,
  nfacct: false,
  masqueradeMark: '0x4000',
};

/** The fake proxier's node: its InternalIP(s) are the fake network's eth0 addresses. */
function node(ips: string[]): ScenarioObject {
  const n: Node & { kind: 'Node' } = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: TEST_HOSTNAME },
    status: {
      addresses: ips.map((address) => ({ type: 'InternalIP', address })),
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
  return n;
}

/** kube-proxy's settings as NewFakeProxier has them, with a test's overrides. */
function kubeProxy(over: Partial<KubeProxyConfiguration> = {}, localhostNodePorts = true) {
  const kp: KubeProxyConfiguration = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    mode: 'iptables',
    clusterCIDR: '10.0.0.0/8',
    detectLocalMode: 'ClusterCIDR',
    iptables: { masqueradeBit: 14, localhostNodePorts },
    ...over,
  };
  return kp;
}

type Ingress = NonNullable<NonNullable<NonNullable<Service['status']>['loadBalancer']>['ingress']>;

/** `makeTestService(ns, name, …)`; `lbIPs` become `status.loadBalancer.ingress`. */
function service(
  ns: string,
  name: string,
  spec: NonNullable<Service['spec']>,
  lbIPs: (string | Ingress[number])[] = [],
): ScenarioObject {
  const s: Service & { kind: 'Service' } = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: ns, name },
    spec,
    status: {
      loadBalancer: { ingress: lbIPs.map((i) => (typeof i === 'string' ? { ip: i } : i)) },
    },
  };
  return s;
}

type Endpoint = EndpointSlice['endpoints'][number];

/** An endpoint; `node` unset means no nodeName (not local). */
function ep(ip: string, node?: string, conditions?: Endpoint['conditions']): Endpoint {
  return {
    addresses: [ip],
    ...(node === undefined ? {} : { nodeName: node }),
    ...(conditions === undefined ? {} : { conditions }),
  };
}

/** `makeTestEndpointSlice(ns, name, 1, …)` with one TCP port `portName`/`port`. */
function slice(
  ns: string,
  name: string,
  endpoints: Endpoint[],
  portName = 'p80',
  port = 80,
): ScenarioObject {
  const s: EndpointSlice & { kind: 'EndpointSlice' } = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace: ns, name: `${name}-1`, labels: { 'kubernetes.io/service-name': name } },
    addressType: 'IPv4',
    endpoints,
    ports: [{ name: portName, port, protocol: 'TCP' }],
  };
  return s;
}

const P80 = { name: 'p80', port: 80, protocol: 'TCP' } as const;
const AFFINITY = {
  sessionAffinity: 'ClientIP',
  sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
} as const;
const READY = { ready: true, serving: true, terminating: false };
const TERMINATING = { ready: false, serving: true, terminating: true };
const GONE = { ready: false, serving: false, terminating: true };

/** One kube-proxy golden test: its cluster, its fake proxier's facts, its expected dump. */
export interface ProxierTest {
  /** The kube-proxy test (and case) name. */
  name: string;
  /** The `*.restore` file holding the expected dump. */
  fixture: string;
  objects: ScenarioObject[];
  options: IptablesGenerateOptions;
}

const NEW_NODE = node(['192.168.0.2', '192.168.1.2', '192.168.99.11']);
const OLD_NODE = node(['192.168.0.2']);

/** TestOverallIPTablesRules (NEW): all six Services, none left out. */
const overall: ProxierTest = {
  name: 'TestOverallIPTablesRules',
  fixture: 'TestOverallIPTablesRules',
  options: NEW_FAKE,
  objects: [
    NEW_NODE,
    kubeProxy(),
    service('ns1', 'svc1', { clusterIP: '172.30.0.41', ports: [P80] }),
    service(
      'ns2',
      'svc2',
      {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        clusterIP: '172.30.0.42',
        ports: [{ ...P80, nodePort: 3001 }],
        externalIPs: ['192.168.99.22'],
        healthCheckNodePort: 30000,
      },
      ['1.2.3.4'],
    ),
    service('ns3', 'svc3', {
      type: 'NodePort',
      clusterIP: '172.30.0.43',
      ports: [{ ...P80, nodePort: 3003 }],
    }),
    service('ns4', 'svc4', {
      type: 'NodePort',
      clusterIP: '172.30.0.44',
      externalIPs: ['192.168.99.33'],
      ports: [{ ...P80, targetPort: 80 }],
    }),
    service(
      'ns5',
      'svc5',
      {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Cluster',
        clusterIP: '172.30.0.45',
        ports: [{ ...P80, nodePort: 3002 }],
        healthCheckNodePort: 30000,
        // "Extra whitespace to ensure that invalid value will not result in a crash".
        loadBalancerSourceRanges: [' 203.0.113.0/25'],
        ...AFFINITY,
      },
      ['5.6.7.8'],
    ),
    service('ns6', 'svc6', {
      type: 'ClusterIP',
      clusterIP: '172.30.0.46',
      ports: [{ ...P80, targetPort: 80 }],
    }),
    slice('ns1', 'svc1', [ep('10.180.0.1')]),
    slice('ns2', 'svc2', [ep('10.180.0.2')]),
    slice('ns3', 'svc3', [ep('10.180.0.3')]),
    slice('ns4', 'svc4', [ep('10.180.0.4'), ep('10.180.0.5', TEST_HOSTNAME)]),
    slice('ns5', 'svc5', [ep('10.180.0.3')]),
  ],
};

/**
 * TestBadIPs (NEW), with its addresses written canonically: the test gives "172.30.0.041",
 * "1.2.3.004", "192.168.099.022", "203.0.113.000/025" and "10.180.00.001" to check that
 * kube-proxy re-prints parsed addresses; that parsing happens before the generator (the
 * scenario keeps address strings as written), so only the LoadBalancer rules are checked.
 */
const badIPs: ProxierTest = {
  name: 'TestBadIPs (canonical addresses)',
  fixture: 'TestBadIPs',
  options: NEW_FAKE,
  objects: [
    NEW_NODE,
    kubeProxy(),
    service(
      'ns1',
      'svc1',
      {
        type: 'LoadBalancer',
        clusterIP: '172.30.0.41',
        ports: [{ ...P80, nodePort: 3001 }],
        externalIPs: ['192.168.99.22'],
        loadBalancerSourceRanges: ['203.0.113.0/25'],
      },
      ['1.2.3.4'],
    ),
    slice('ns1', 'svc1', [ep('10.180.0.1')]),
  ],
};

/** The LoadBalancer Service of TestOnlyLocalLoadBalancing and TestLoadBalancerReject (OLD). */
const localLB = service(
  'ns1',
  'svc1',
  {
    type: 'LoadBalancer',
    clusterIP: '172.30.0.41',
    ports: [{ ...P80, nodePort: 3001 }],
    healthCheckNodePort: 30000,
    externalTrafficPolicy: 'Local',
    ...AFFINITY,
  },
  ['1.2.3.4'],
);

/** The Service of TestEndpointSliceWithTerminatingEndpointsTrafficPolicyLocal (OLD). */
const terminatingSvc = service(
  'ns1',
  'svc1',
  {
    clusterIP: '172.30.1.1',
    type: 'LoadBalancer',
    externalTrafficPolicy: 'Local',
    selector: { foo: 'bar' },
    ports: [{ name: '', targetPort: 80, port: 80, protocol: 'TCP' }],
    healthCheckNodePort: 30000,
    ...AFFINITY,
  },
  ['1.2.3.4'],
);

/** One case of TestEndpointSliceWithTerminatingEndpointsTrafficPolicyLocal. */
function terminatingCase(caseName: string, file: string, endpoints: Endpoint[]): ProxierTest {
  return {
    name: `TestEndpointSliceWithTerminatingEndpointsTrafficPolicyLocal: ${caseName}`,
    fixture: `TestEndpointSliceWithTerminatingEndpointsTrafficPolicyLocal-${file}`,
    options: OLD_FAKE,
    objects: [OLD_NODE, kubeProxy(), terminatingSvc, slice('ns1', 'svc1', endpoints, '')],
  };
}

/** One case of TestInternalTrafficPolicyE2E (OLD): endpoints 10.0.1.1-3 on `hosts`. */
function itpCase(
  caseName: string,
  file: string,
  policy: 'Cluster' | 'Local',
  hosts: string[],
): ProxierTest {
  return {
    name: `TestInternalTrafficPolicyE2E: ${caseName}`,
    fixture: `TestInternalTrafficPolicyE2E-${file}`,
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy(),
      service('ns1', 'svc1', {
        clusterIP: '172.30.1.1',
        selector: { foo: 'bar' },
        ports: [{ name: '', port: 80, protocol: 'TCP' }],
        internalTrafficPolicy: policy,
      }),
      slice(
        'ns1',
        'svc1',
        hosts.map((h, i) => ep(`10.0.1.${i + 1}`, h, { ready: true })),
        '',
      ),
    ],
  };
}

/** The smaller LoadBalancer tests (OLD), and the internalTrafficPolicy ones. */
const lbTests: ProxierTest[] = [
  {
    name: 'TestLoadBalancer',
    fixture: 'TestLoadBalancer',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy(),
      service(
        'ns1',
        'svc1',
        {
          type: 'LoadBalancer',
          clusterIP: '172.30.0.41',
          ports: [{ ...P80, nodePort: 3001 }],
          // "Regression test that excess whitespace gets ignored".
          loadBalancerSourceRanges: ['192.168.0.0/24', ' 203.0.113.0/25'],
        },
        ['1.2.3.4', '5.6.7.8'],
      ),
      slice('ns1', 'svc1', [ep('10.180.0.1')]),
    ],
  },
  {
    name: 'TestOnlyLocalLoadBalancing',
    fixture: 'TestOnlyLocalLoadBalancing',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy(),
      localLB,
      slice('ns1', 'svc1', [ep('10.180.0.1'), ep('10.180.2.1', TEST_HOSTNAME)]),
    ],
  },
  {
    name: 'TestLoadBalancerReject',
    fixture: 'TestLoadBalancerReject',
    options: OLD_FAKE,
    objects: [OLD_NODE, kubeProxy(), localLB],
  },
  {
    name: 'TestHealthCheckNodePort',
    fixture: 'TestHealthCheckNodePort',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy({ nodePortAddresses: ['127.0.0.0/8'] }),
      service('ns1', 'svc1', {
        type: 'LoadBalancer',
        clusterIP: '172.30.0.42',
        ports: [{ ...P80, nodePort: 3001 }],
        healthCheckNodePort: 30000,
        externalTrafficPolicy: 'Local',
      }),
    ],
  },
  {
    name: 'TestOnlyLocalNodePorts',
    fixture: 'TestOnlyLocalNodePorts',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy({ nodePortAddresses: ['192.168.0.0/24'] }, false),
      service('ns1', 'svc1', {
        type: 'NodePort',
        clusterIP: '172.30.0.41',
        ports: [{ ...P80, nodePort: 3001 }],
        externalTrafficPolicy: 'Local',
      }),
      slice('ns1', 'svc1', [ep('10.180.0.1'), ep('10.180.2.1', TEST_HOSTNAME)]),
    ],
  },
  // The cases with the ProxyTerminatingEndpoints gate enabled (it is GA and always on now);
  // the gate-disabled cases describe a kube-proxy that no longer exists and are left out.
  terminatingCase('ready endpoints exist', 'ready', [
    ep('10.0.1.1', TEST_HOSTNAME, READY),
    ep('10.0.1.2', TEST_HOSTNAME, READY),
    ep('10.0.1.3', TEST_HOSTNAME, TERMINATING),
    ep('10.0.1.4', TEST_HOSTNAME, GONE),
    ep('10.0.1.5', 'host-1', READY),
  ]),
  terminatingCase('only terminating endpoints exist', 'terminating', [
    ep('10.0.1.2', TEST_HOSTNAME, TERMINATING),
    ep('10.0.1.3', TEST_HOSTNAME, TERMINATING),
    ep('10.0.1.4', TEST_HOSTNAME, GONE),
    ep('10.0.1.5', 'host-1', READY),
  ]),
  terminatingCase('terminating endpoints on remote node', 'remote', [
    ep('10.0.1.5', 'host-1', TERMINATING),
  ]),
  terminatingCase('no usable endpoints on any node', 'none', [
    ep('10.0.1.5', TEST_HOSTNAME, GONE),
    ep('10.0.1.5', 'host-1', GONE),
  ]),
  itpCase('internalTrafficPolicy is cluster', 'cluster', 'Cluster', [
    TEST_HOSTNAME,
    'host1',
    'host2',
  ]),
  itpCase('internalTrafficPolicy is local and there are local endpoints', 'local', 'Local', [
    TEST_HOSTNAME,
    'host1',
    'host2',
  ]),
  itpCase('internalTrafficPolicy is local and there are no local endpoints', 'nolocal', 'Local', [
    'host0',
    'host1',
    'host2',
  ]),
];

/** Every reproduced kube-proxy test, the overall one first. */
/** The externalIPs Service of TestOnlyLocalExternalIPs / TestNonLocalExternalIPs (OLD). */
function externalIPService(spec: Partial<NonNullable<Service['spec']>>): ScenarioObject {
  return service('ns1', 'svc1', {
    clusterIP: '172.30.0.41',
    externalIPs: ['192.168.99.11'],
    ports: [{ ...P80, targetPort: 80 }],
    ...spec,
  });
}

/** Endpoints 10.180.0.1 (no nodeName: not local) and 10.180.2.1 on this node. */
const externalIPSlice = slice('ns1', 'svc1', [ep('10.180.0.1'), ep('10.180.2.1', TEST_HOSTNAME)]);

/**
 * The externalIPs tests (OLD). kube-proxy reads the Service type only through
 * `ExternalPolicyLocal` (pkg/api/v1/service/util.go: LoadBalancer, NodePort, or ClusterIP with
 * externalIPs) and the per-port `ExternallyAccessible` (pkg/proxy/serviceport.go: a nodePort,
 * a VIP or an externalIP), so TestOnlyLocalExternalIPs' NodePort Service without a nodePort
 * and the same Service as type ClusterIP give the same dump.
 */
const externalIPTests: ProxierTest[] = [
  {
    name: 'TestExternalIPsReject',
    fixture: 'TestExternalIPsReject',
    options: OLD_FAKE,
    objects: [OLD_NODE, kubeProxy(), externalIPService({ type: 'ClusterIP' })],
  },
  {
    name: 'TestOnlyLocalExternalIPs',
    fixture: 'TestOnlyLocalExternalIPs',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy(),
      externalIPService({ type: 'NodePort', externalTrafficPolicy: 'Local' }),
      externalIPSlice,
    ],
  },
  {
    name: 'TestOnlyLocalExternalIPs, the Service as type ClusterIP',
    fixture: 'TestOnlyLocalExternalIPs',
    options: OLD_FAKE,
    objects: [
      OLD_NODE,
      kubeProxy(),
      externalIPService({ type: 'ClusterIP', externalTrafficPolicy: 'Local' }),
      externalIPSlice,
    ],
  },
  {
    name: 'TestNonLocalExternalIPs',
    fixture: 'TestNonLocalExternalIPs',
    options: OLD_FAKE,
    objects: [OLD_NODE, kubeProxy(), externalIPService({}), externalIPSlice],
  },
];

export const PROXIER_TESTS: ProxierTest[] = [overall, badIPs, ...lbTests, ...externalIPTests];

/**
 * TestSyncProxyRulesLargeClusterMode (NEW): masqueradeAll, three ClusterIP Services; svc1 and
 * svc2 get `largeClusterEndpointsThreshold/2-1` = 499 endpoints each ("10.0.%d.%d" and
 * "10.1.%d.%d" of i%256, i/256), svc3 gets three more (203.0.113.4, .8, .12) only in the
 * second step, which pushes the total past 1000.
 */
export function largeClusterObjects(withSvc3Endpoints: boolean): ScenarioObject[] {
  const many = (prefix: string) =>
    Array.from({ length: 499 }, (_, i) => ep(`${prefix}.${i % 256}.${Math.floor(i / 256)}`));
  const clusterIP = (name: string, ip: string, port: number) =>
    service('ns' + name.slice(-1), name, {
      type: 'ClusterIP',
      clusterIP: ip,
      ports: [{ name: `p${port}`, port, protocol: 'TCP' }],
    });
  return [
    NEW_NODE,
    kubeProxy({ iptables: { masqueradeBit: 14, localhostNodePorts: true, masqueradeAll: true } }),
    clusterIP('svc1', '172.30.0.41', 80),
    clusterIP('svc2', '172.30.0.42', 8080),
    clusterIP('svc3', '172.30.0.43', 8081),
    slice('ns1', 'svc1', many('10.0'), 'p80', 80),
    slice('ns2', 'svc2', many('10.1'), 'p8080', 8080),
    ...(withSvc3Endpoints
      ? [
          slice(
            'ns3',
            'svc3',
            ['203.0.113.4', '203.0.113.8', '203.0.113.12'].map((ip) => ep(ip)),
            'p8081',
            8081,
          ),
        ]
      : []),
  ];
}

/**
 * TestLoadBalancerIngressRouteTypeProxy (NEW), the cases with the LoadBalancerIPMode gate
 * enabled (GA): one LoadBalancer Service, ClusterIP `svcIP`, one ingress `lbIP` with the given
 * ipMode (none = nil), endpoint 10.180.0.1. The test only checks whether nat KUBE-SERVICES
 * has a rule with `-d lbIP`.
 */
export function ipModeObjects(
  svcIP: string,
  lbIP: string,
  ipMode: 'VIP' | 'Proxy' | undefined,
): ScenarioObject[] {
  const lb = service(
    'ns1',
    'svc1',
    { type: 'LoadBalancer', clusterIP: svcIP, ports: [{ ...P80, nodePort: 3001 }] },
    [{ ip: lbIP, ...(ipMode ? { ipMode } : {}) }],
  );
  return [NEW_NODE, kubeProxy(), lb, slice('ns1', 'svc1', [ep('10.180.0.1')])];
}
