import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod, ScenarioObject, Service } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import { canonicalObjects } from '../scenario/canonical';
import { resolveCluster } from '../scenario/resolve';
import { completeScenario } from './load';
import { ASSUMED_ANNOTATION, fillGaps } from './fill';

type PodObj = Pod & { kind: 'Pod' };
type NodeObj = Node & { kind: 'Node' };
type SvcObj = Service & { kind: 'Service' };

const readyTrue = [{ type: 'Ready', status: 'True' }];
const readyFalse = [{ type: 'Ready', status: 'False' }];

function mkPod(
  name: string,
  o: {
    ns?: string;
    labels?: Record<string, string>;
    node?: string;
    ip?: string;
    hostIP?: string;
    ready?: boolean;
    phase?: string;
    ports?: { name: string; containerPort: number; protocol?: string }[];
    deletionTimestamp?: string;
    hostNetwork?: boolean;
  } = {},
): PodObj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.ns ?? 'default',
      labels: o.labels ?? { app: 'web' },
      uid: `uid-${name}`,
      ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}),
    },
    spec: {
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.hostNetwork ? { hostNetwork: true } : {}),
      containers: [{ name: 'web', image: 'nginx', ports: o.ports ?? [] }],
    },
    status: {
      phase: o.phase ?? 'Running',
      ...(o.ip ? { podIP: o.ip, podIPs: [{ ip: o.ip }] } : {}),
      ...(o.hostIP ? { hostIP: o.hostIP } : {}),
      conditions: o.ready === false ? readyFalse : readyTrue,
    },
  };
}

function mkNode(name: string, ip: string, podCIDR?: string, zone?: string): NodeObj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} },
    spec: podCIDR ? { podCIDR } : {},
    status: { addresses: [{ type: 'InternalIP', address: ip }], conditions: readyTrue },
  };
}

function mkService(
  name: string,
  spec: NonNullable<Service['spec']>,
  status?: Service['status'],
  labels?: Record<string, string>,
): SvcObj {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    spec,
    ...(status ? { status } : {}),
  };
}

const kubeProxy: ScenarioObject = {
  apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
  kind: 'KubeProxyConfiguration',
  clusterCIDR: '10.244.0.0/16',
};
const client: ScenarioObject = {
  apiVersion: OUR_GROUP,
  kind: 'Client',
  metadata: { name: 'internet' },
  spec: { location: 'Internet', address: '198.51.100.23' },
};
/** Everything but the objects a test is about, so only its rule speaks. */
const quiet = [
  mkNode('node-1', '192.168.0.11', '10.244.1.0/24', 'zone-a'),
  mkNode('node-2', '192.168.0.12', '10.244.2.0/24'),
  mkNode('node-3', '192.168.0.13', '10.244.3.0/24'),
  kubeProxy,
  client,
];

const added = (input: ScenarioObject[]) => fillGaps(input).objects.slice(input.length);

describe('fillGaps: nothing to fill', () => {
  it('leaves the canonical scenario exactly as it is and assumes nothing', () => {
    const objs = canonicalObjects();
    expect(fillGaps(objs)).toEqual({ objects: canonicalObjects(), assumed: [] });
  });

  it('never modifies its input', () => {
    const input = canonicalObjects().filter(
      (o) => o.kind === 'Service' || o.kind === 'Pod' || o.kind === 'Node',
    );
    const before = structuredClone(input);
    fillGaps(input);
    expect(input).toEqual(before);
  });
});

describe('fillGaps: EndpointSlices from the Pods a selector matches', () => {
  const svc = mkService(
    'web',
    {
      type: 'ClusterIP',
      clusterIP: '10.96.0.50',
      selector: { app: 'web' },
      ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    },
    undefined,
    { app: 'web', team: 'shop' },
  );
  const http = [{ name: 'http', containerPort: 8080 }];
  const pods: PodObj[] = [
    mkPod('web-a', { node: 'node-1', ip: '10.244.1.5', ports: http }),
    mkPod('web-b', { node: 'node-2', ip: '10.244.2.6', ports: http, ready: false }),
    mkPod('web-c', {
      node: 'node-3',
      ip: '10.244.3.7',
      ports: http,
      deletionTimestamp: '2025-06-12T14:00:00Z',
    }),
    mkPod('web-done', { node: 'node-1', ip: '10.244.1.8', ports: http, phase: 'Succeeded' }),
    mkPod('web-pending', { ports: http, phase: 'Pending' }),
    mkPod('web-elsewhere', { ns: 'other', node: 'node-1', ip: '10.244.1.9', ports: http }),
    mkPod('api-x', { labels: { app: 'api' }, node: 'node-1', ip: '10.244.1.10', ports: http }),
    mkPod('web-udp', {
      node: 'node-2',
      ip: '10.244.2.11',
      ports: [{ name: 'http', containerPort: 8080, protocol: 'UDP' }],
    }),
  ];

  it('writes what the controller writes: conditions, nodeName, zone, targetRef, resolved named port', () => {
    const ep = (name: string, ip: string, node: string, c: [boolean, boolean, boolean]) => ({
      addresses: [ip],
      conditions: { ready: c[0], serving: c[1], terminating: c[2] },
      nodeName: node,
      targetRef: { kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` },
      ...(node === 'node-1' ? { zone: 'zone-a' } : {}),
    });
    const labels = {
      app: 'web',
      team: 'shop',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    };
    const meta = (name: string) => ({
      name,
      namespace: 'default',
      labels,
      annotations: {
        [ASSUMED_ANNOTATION]: 'derived from the Pods matching the selector of Service default/web',
      },
    });
    const r = fillGaps([svc, ...pods, ...quiet]);
    expect(r.objects.slice(pods.length + quiet.length + 1)).toEqual([
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: meta('web-derived'),
        addressType: 'IPv4',
        endpoints: [
          ep('web-a', '10.244.1.5', 'node-1', [true, true, false]),
          ep('web-b', '10.244.2.6', 'node-2', [false, false, false]),
          // Terminating: never ready, still serving while its Ready condition holds.
          ep('web-c', '10.244.3.7', 'node-3', [false, true, true]),
        ],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
      {
        // A Pod whose ports resolve differently goes to a slice of its own (here: none resolves).
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: meta('web-derived-2'),
        addressType: 'IPv4',
        endpoints: [ep('web-udp', '10.244.2.11', 'node-2', [true, true, false])],
        ports: [],
      },
    ]);
    expect(r.assumed).toEqual([
      'EndpointSlices default/web-derived, web-derived-2 for Service default/web, derived from the 4 Pods its selector matches as the EndpointSlice controller would write them (no EndpointSlice was given)',
      'Pod default/web-udp has no TCP container port named "http", so its endpoint lists no port "http"',
    ]);
  });

  it('resolves the named port into the model: targetPort 8080 from the derived slice', () => {
    const c = resolveCluster(fillGaps([svc, ...pods.slice(0, 3), ...quiet]).objects);
    expect(c.services[0]?.ports[0]?.targetPort).toBe(8080);
    expect(c.endpoints['default/web:http']?.map((e) => [e.ip, e.port, e.ready])).toEqual([
      ['10.244.1.5', 8080, true],
      ['10.244.2.6', 8080, false],
      ['10.244.3.7', 8080, false],
    ]);
  });

  it('finds a named port on a restartable init container (a sidecar); publishNotReadyAddresses makes every endpoint ready', () => {
    const sidecar: PodObj = mkPod('web-s', { node: 'node-1', ip: '10.244.1.20', ready: false });
    sidecar.spec!.initContainers = [
      { name: 'proxy', restartPolicy: 'Always', ports: [{ name: 'http', containerPort: 15001 }] },
    ];
    const s = structuredClone(svc);
    s.spec!.publishNotReadyAddresses = true;
    const [slice] = added([s, sidecar, ...quiet]);
    expect(slice?.kind === 'EndpointSlice' && slice.ports).toEqual([
      { name: 'http', port: 15001, protocol: 'TCP' },
    ]);
    expect(slice?.kind === 'EndpointSlice' && slice.endpoints[0]?.conditions).toEqual({
      ready: true,
      serving: false,
      terminating: false,
    });
  });

  it('numeric targetPort, appProtocol and an unnamed port are copied as the controller copies them', () => {
    const s = mkService('db', {
      selector: { app: 'web' },
      ports: [{ port: 5432, targetPort: 15432, protocol: 'TCP', appProtocol: 'postgresql' }],
    });
    const [slice] = added([s, pods[0] as PodObj, ...quiet]);
    expect(slice?.kind === 'EndpointSlice' && slice.ports).toEqual([
      { name: '', port: 15432, protocol: 'TCP', appProtocol: 'postgresql' },
    ]);
  });

  it('writes an empty placeholder slice when no Pod matches, and says the Service has no endpoints', () => {
    const r = fillGaps([svc, ...quiet]);
    expect(r.objects.slice(quiet.length + 1)).toMatchObject([
      { kind: 'EndpointSlice', metadata: { name: 'web-derived' }, endpoints: [], ports: [] },
    ]);
    expect(r.assumed).toEqual([
      'EndpointSlice default/web-derived, empty: no EndpointSlice of Service default/web was given and no Pod with an IP matches its selector, so it has no endpoints',
    ]);
  });

  it('derives nothing for a Service that has a slice, or has no selector (and says the latter has no endpoints)', () => {
    const own = canonicalObjects().find((o) => o.kind === 'EndpointSlice') as ScenarioObject;
    expect(added([svc, own, ...pods, ...quiet])).toEqual([]);
    const noSelector = mkService('ext', { clusterIP: '10.96.0.60', ports: [{ port: 443 }] });
    const r = fillGaps([noSelector, ...quiet]);
    expect(r.objects).toHaveLength(quiet.length + 1);
    expect(r.assumed).toEqual([
      'no endpoints for Service default/ext: it has no selector and no EndpointSlice was given',
    ]);
  });
});

describe('fillGaps: Nodes from the Pods that name them', () => {
  it('builds each missing node from its Pods: hostIP or a placeholder, the /24 of its Pod IPs, Ready', () => {
    const pods = [
      mkPod('a', { node: 'node-1', ip: '10.244.1.5', hostIP: '10.0.0.4' }),
      mkPod('b', { node: 'node-2', ip: '10.244.2.6' }),
      mkPod('c', { node: 'node-2', ip: '10.244.2.7' }),
      // Pod IPs in two /24s: no podCIDR can be told.
      mkPod('d', { node: 'node-10', ip: '10.244.3.3' }),
      mkPod('e', { node: 'node-10', ip: '10.244.4.4' }),
      // A host-network Pod's IP is the node's own.
      mkPod('f', { node: 'node-3', ip: '10.0.0.9', hostNetwork: true }),
    ];
    const r = fillGaps([...pods, kubeProxy, client]);
    const node = (name: string, ip: string, podCIDR?: string): NodeObj => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name },
        annotations: {
          [ASSUMED_ANNOTATION]: 'built from the Pods and endpoints that name this node',
        },
      },
      spec: podCIDR ? { podCIDR, podCIDRs: [podCIDR] } : {},
      status: {
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    expect(r.objects.slice(pods.length + 2)).toEqual([
      node('node-1', '10.0.0.4', '10.244.1.0/24'),
      node('node-2', '192.168.0.12', '10.244.2.0/24'),
      node('node-3', '10.0.0.9'),
      node('node-10', '192.168.0.14'),
    ]);
    const n = 'named by Pods or endpoints but by no Node object: Ready, InternalIP';
    expect(r.assumed).toEqual([
      `Node node-1, ${n} 10.0.0.4 (its Pods' status.hostIP), podCIDR 10.244.1.0/24 (the /24 holding its Pods' IPs)`,
      `Node node-2, ${n} 192.168.0.12 (a placeholder), podCIDR 10.244.2.0/24 (the /24 holding its Pods' IPs)`,
      `Node node-3, ${n} 10.0.0.9 (its Pods' status.hostIP), no podCIDR (no Pod IPs on it to infer it from)`,
      `Node node-10, ${n} 192.168.0.14 (a placeholder), no podCIDR (its Pods' IPs (10.244.3.3, 10.244.4.4) do not share one /24)`,
    ]);
  });

  it('claims no /24 that two nodes share, and moves a placeholder past an address in use', () => {
    const pods = [
      mkPod('a', { node: 'node-a', ip: '10.244.1.5' }),
      mkPod('b', { node: 'node-b', ip: '10.244.1.9' }),
      // The Pod network of this cluster is 192.168.0.0/16 (Calico's default): 192.168.0.11 is a Pod.
      mkPod('c', { node: 'node-c', ip: '192.168.0.11' }),
    ];
    const r = fillGaps([...pods, kubeProxy, client]);
    const nodes = r.objects.filter((o): o is NodeObj => o.kind === 'Node');
    expect(
      nodes.map((n) => [n.metadata?.name, n.status?.addresses?.[0]?.address, n.spec?.podCIDR]),
    ).toEqual([
      ['node-a', '192.168.1.0', undefined],
      ['node-b', '192.168.1.1', undefined],
      ['node-c', '192.168.1.2', '192.168.0.0/24'],
    ]);
    expect(r.assumed[0]).toContain(
      "no podCIDR (10.244.1.0/24, the /24 of its Pods' IPs, also holds other nodes' Pods)",
    );
  });

  it('also builds nodes that only EndpointSlices name', () => {
    const slice = structuredClone(
      canonicalObjects().find((o) => o.kind === 'EndpointSlice') as ScenarioObject,
    );
    const r = fillGaps([slice, kubeProxy, client]);
    expect(r.objects.filter((o) => o.kind === 'Node').map((n) => n.metadata?.name)).toEqual([
      'node-1',
      'node-3',
    ]);
  });
});

describe('fillGaps: no Pods', () => {
  it('keeps the endpoints the slices hold, invents no Pod, and names endpoints without a targetRef', () => {
    const slice = structuredClone(
      canonicalObjects().find((o) => o.kind === 'EndpointSlice'),
    ) as ScenarioObject & { kind: 'EndpointSlice' };
    delete slice.endpoints[1]!.targetRef;
    const svc = canonicalObjects().find((o) => o.kind === 'Service') as SvcObj;
    const lb = canonicalObjects().find((o) => o.kind === 'CloudLoadBalancer') as ScenarioObject;
    const r = fillGaps([svc, slice, ...quiet, lb]);
    expect(r.objects).toEqual([svc, slice, ...quiet, lb]);
    expect(r.assumed).toEqual([
      'no Pods given: the endpoints are taken from the EndpointSlices alone (address, node and conditions)',
      'the Pods behind 10.244.3.9 (Service default/web) are unnamed: their endpoints carry no targetRef',
    ]);
    expect(resolveCluster(r.objects).endpoints['default/web:http']?.map((e) => e.podName)).toEqual([
      'web-6d8f9c7b5-x2k4p',
      '',
    ]);
  });
});

describe('fillGaps: a LoadBalancer Service without an address', () => {
  const lbSvc = (status: Service['status']) =>
    mkService(
      'web',
      {
        type: 'LoadBalancer',
        clusterIP: '10.96.0.50',
        selector: { app: 'web' },
        ports: [{ port: 80, nodePort: 31000 }],
      },
      status,
    );
  // The canonical slice and Pods, so that only the address is missing.
  const rest = canonicalObjects().filter((o) => o.kind === 'EndpointSlice' || o.kind === 'Pod');
  const others = [...rest, ...quiet.slice(0, 4)];

  it('stays <pending>: no address and no balancer invented, and says why', () => {
    const svc = lbSvc({ loadBalancer: {} });
    const r = fillGaps([svc, ...others]);
    expect(r.objects.slice(others.length + 1).map((o) => o.kind)).toEqual(['Client']);
    expect(r.assumed).toEqual([
      'no load-balancer address for Service default/web: status.loadBalancer is empty, so EXTERNAL-IP stays <pending> — no cloud controller or load-balancer implementation (such as MetalLB) has answered; none is invented',
      'a client on the internet at 198.51.100.23',
    ]);
    expect(resolveCluster(r.objects).services[0]?.ingress).toEqual([]);
  });

  it('a hostname-only address (AWS) is published: a NodePort balancer the name resolves to, the hostname kept', () => {
    // AWS publishes ingress[].hostname only; kube-proxy makes VIPs of ingress IPs only
    // (pkg/proxy/serviceport.go), so the balancer must target NodePorts.
    const svc = lbSvc({ loadBalancer: { ingress: [{ hostname: 'lb-1.example.net' }] } });
    const r = fillGaps([svc, ...others, client]);
    expect(r.objects.slice(others.length + 2)).toEqual([
      {
        apiVersion: 'lbpath.example/v1alpha1',
        kind: 'CloudLoadBalancer',
        metadata: { name: 'web-lb' },
        spec: { service: 'default/web', delivery: 'NodePort', address: '203.0.113.10' },
      },
    ]);
    expect(r.assumed).toEqual([
      'Service default/web published only the hostname lb-1.example.net (no load-balancer IP): clients dial the name, and kube-proxy writes no load-balancer-IP rule for it, so the balancer delivers to the NodePort',
      "a cloud load balancer for default/web that targets NodePorts; its name lb-1.example.net resolves to 203.0.113.10 (the model does no DNS lookup: a documentation address, RFC 5737, stands for the balancer's own)",
    ]);
    const svcModel = resolveCluster(r.objects).services[0];
    expect(svcModel?.ingress).toEqual([]);
    expect(svcModel?.statusIngress).toEqual([{ ip: '', hostname: 'lb-1.example.net' }]);
  });
});

describe('fillGaps: kube-proxy configuration', () => {
  const without = () => canonicalObjects().filter((o) => o.kind !== 'KubeProxyConfiguration');

  it("assumes kube-proxy's defaults with the /16 around the Nodes' podCIDRs as clusterCIDR", () => {
    const r = fillGaps(without());
    expect(r.objects.slice(without().length)).toEqual([
      {
        apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
        kind: 'KubeProxyConfiguration',
        clusterCIDR: '10.244.0.0/16',
      },
    ]);
    expect(r.assumed).toEqual([
      "kube-proxy's defaults (mode iptables): no KubeProxyConfiguration was given",
      "kube-proxy clusterCIDR 10.244.0.0/16: the /16 holding every Node's spec.podCIDR (kube-proxy's own default is empty; kubeadm sets it to the pod subnet)",
    ]);
    expect(resolveCluster(r.objects).kubeProxy).toMatchObject({
      mode: 'iptables',
      clusterCIDR: '10.244.0.0/16',
    });
    // The ServiceCIDR is the resolver's to assume (no ServiceCIDR object is given).
    expect(resolveCluster(r.objects).assumed).toEqual([
      "ServiceCIDR kubernetes 10.96.0.0/12: no ServiceCIDR given; kubeadm's default serviceSubnet, which it passes as kube-apiserver's --service-cluster-ip-range",
    ]);
  });

  it('keeps to the smallest common range when the /16 would hold a node address', () => {
    const objs = without().map((o) =>
      o.kind === 'Node' && o.metadata?.name === 'node-3'
        ? { ...o, status: { addresses: [{ type: 'InternalIP', address: '10.244.200.13' }] } }
        : o,
    );
    const r = fillGaps(objs);
    expect(r.objects.at(-1)).toEqual({
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      clusterCIDR: '10.244.0.0/22',
    });
    expect(r.assumed[1]).toBe(
      "kube-proxy clusterCIDR 10.244.0.0/22: the smallest range holding every Node's spec.podCIDR (kube-proxy's own default is empty; kubeadm sets it to the pod subnet)",
    );
  });

  it('leaves clusterCIDR empty when a Node has no podCIDR, and says so', () => {
    const objs = without().map((o) =>
      o.kind === 'Node' && o.metadata?.name === 'node-2' ? { ...o, spec: {} } : o,
    );
    const r = fillGaps(objs);
    expect(r.objects.at(-1)).toEqual({
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
    });
    expect(r.assumed[1]).toBe(
      'no kube-proxy clusterCIDR (its default): not every Node has a spec.podCIDR',
    );
  });
});

describe('fillGaps: the client and the balancer', () => {
  it('adds them through completeScenario, saying the same', () => {
    const objs = canonicalObjects().filter(
      (o) => o.kind !== 'Client' && o.kind !== 'CloudLoadBalancer',
    );
    expect(fillGaps(objs)).toEqual(completeScenario(objs));
  });
});

describe('fillGaps never throws', () => {
  it('on anything at all', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), (xs) => {
        const r = fillGaps(xs as ScenarioObject[]);
        expect(Array.isArray(r.objects)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('on objects of the right kinds with fields of the wrong shapes, and still fills what it can', () => {
    const kinds = fc.constantFrom(
      'Service',
      'Pod',
      'Node',
      'EndpointSlice',
      'KubeProxyConfiguration',
      'ServiceCIDR',
    );
    const junk = fc.oneof(fc.anything(), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: kinds,
            metadata: fc.oneof(junk, fc.record({ name: junk, namespace: junk, labels: junk })),
            spec: fc.oneof(
              junk,
              fc.record({
                selector: junk,
                ports: fc.oneof(junk, fc.array(fc.record({ port: junk, targetPort: junk }))),
                nodeName: junk,
                podCIDR: junk,
                clusterIP: junk,
                clusterIPs: junk,
                cidrs: junk,
                type: fc.constantFrom('LoadBalancer', 'ClusterIP', 5),
              }),
            ),
            status: junk,
            endpoints: junk,
          }),
        ),
        (xs) => {
          const r = fillGaps(xs as unknown as ScenarioObject[]);
          expect(r.assumed.some((a) => a.startsWith('nothing filled in'))).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
