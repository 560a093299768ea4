/**
 * Generated clusters of any size, shaped like the canonical scenario (its very Service and
 * internet client): Service `default/web`
 * (port 80/TCP → 8080, nodePort 31000, ingress 203.0.113.7), `nodes` nodes named `node-1` …
 * `node-N` with InternalIPs in 192.168.0.0/16 and podCIDRs 10.244.<i>.0/24 (node i), `pods`
 * ready `web` Pods spread round-robin over the nodes, one EndpointSlice per 100 endpoints (the
 * EndpointSlice controller's default `--max-endpoints-per-slice`), the internet client and the
 * canonical balancer. For drawing and scale tests and benchmarks: real clusters have 100 or
 * 1,000 nodes.
 *
 * Pure and deterministic: the same arguments give the same objects.
 */
import type { ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';
import { canonicalObjects } from './canonical';

/** Options for {@link generatedCluster}. */
export interface GeneratedClusterOptions {
  /** Number of nodes, 1–1,023 (each gets a /24 of the /14 cluster CIDR 10.244.0.0/14). */
  nodes: number;
  /** Number of ready `web` Pods (endpoints), 0–60,000; round-robin from node-1. */
  pods: number;
  /**
   * Put the Pods on the first `spreadOver` nodes only (default: all), so that other nodes have
   * no endpoint — the shape that matters under `externalTrafficPolicy: Local`.
   */
  spreadOver?: number;
}

const MAX_PER_SLICE = 100;

/** Node i's (1-based) InternalIP: 192.168.<hi>.<lo>, skipping .0 and .255 in the last octet. */
export function generatedNodeIP(i: number): string {
  const hi = Math.floor((i - 1) / 250);
  const lo = ((i - 1) % 250) + 1;
  return `192.168.${hi}.${lo}`;
}

/** The Pod CIDR of node i (1-based): 10.<244 + ⌊i/256⌋>.<i mod 256>.0/24. */
function podCIDR(i: number): { cidr: string; prefix: string } {
  const b = 244 + Math.floor(i / 256);
  const c = i % 256;
  return { cidr: `10.${b}.${c}.0/24`, prefix: `10.${b}.${c}` };
}

/**
 * The objects of a generated cluster.
 * @throws {RangeError} when `nodes` is outside 1–1,023 or `pods` outside 0–60,000 (a Pod CIDR
 *   of /24 holds at most 250 Pods a node here).
 */
export function generatedCluster(opts: GeneratedClusterOptions): ScenarioObject[] {
  const { nodes, pods } = opts;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 1023)
    throw new RangeError(`nodes must be a whole number from 1 to 1023 (got ${nodes})`);
  if (!Number.isInteger(pods) || pods < 0 || pods > 60000)
    throw new RangeError(`pods must be a whole number from 0 to 60000 (got ${pods})`);
  const spread = Math.max(1, Math.min(nodes, opts.spreadOver ?? nodes));
  if (pods > spread * 250)
    throw new RangeError(`${pods} Pods do not fit on ${spread} nodes (250 a node at most)`);

  const nodeObjects: ScenarioObject[] = [];
  for (let i = 1; i <= nodes; i++) {
    const name = `node-${i}`;
    const { cidr } = podCIDR(i);
    nodeObjects.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      spec: { podCIDR: cidr, podCIDRs: [cidr] },
      status: {
        addresses: [
          { type: 'InternalIP', address: generatedNodeIP(i) },
          { type: 'Hostname', address: name },
        ],
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      },
    });
  }

  const podObjects: ScenarioObject[] = [];
  const endpoints: { ip: string; node: string; pod: string }[] = [];
  const perNode = new Map<number, number>();
  for (let k = 0; k < pods; k++) {
    const i = (k % spread) + 1;
    const n = (perNode.get(i) ?? 0) + 1;
    perNode.set(i, n);
    const ip = `${podCIDR(i).prefix}.${n + 1}`;
    const name = `web-${i}-${n}`;
    endpoints.push({ ip, node: `node-${i}`, pod: name });
    podObjects.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { app: 'web' } },
      spec: {
        nodeName: `node-${i}`,
        containers: [{ name: 'web', image: 'nginxinc/nginx-unprivileged:1.27' }],
      },
      status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
    });
  }

  const slices: ScenarioObject[] = [];
  for (let s = 0; s * MAX_PER_SLICE < Math.max(endpoints.length, 1); s++) {
    slices.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `web-${s.toString(36).padStart(5, '0')}`,
        namespace: 'default',
        labels: {
          'kubernetes.io/service-name': 'web',
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
        },
      },
      addressType: 'IPv4',
      ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
      endpoints: endpoints.slice(s * MAX_PER_SLICE, (s + 1) * MAX_PER_SLICE).map((e) => ({
        addresses: [e.ip],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: e.node,
        targetRef: { kind: 'Pod', namespace: 'default', name: e.pod },
      })),
    });
  }

  // The canonical scenario's Service and internet client, unchanged: only the cluster grows.
  const canonical = canonicalObjects();
  const service = canonical.find((o) => o.kind === 'Service');
  const internet = canonical.find((o) => o.kind === 'Client' && o.metadata?.name === 'internet');
  if (!service || !internet)
    throw new Error('the canonical scenario has no Service web or Client internet');
  return [
    service,
    ...slices,
    ...nodeObjects,
    ...podObjects,
    // Not the canonical ones: the cluster CIDR must hold 1,023 node /24s, and the balancer's
    // own address must stay clear of the node addresses (192.168.0.250 is node-250 here).
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      mode: 'iptables',
      clusterCIDR: '10.244.0.0/14',
    },
    {
      apiVersion: OUR_GROUP,
      kind: 'CloudLoadBalancer',
      metadata: { name: 'web-lb' },
      spec: {
        service: 'default/web',
        address: '203.0.113.7',
        delivery: 'NodePort',
        backendAddress: '192.168.250.250',
      },
    },
    internet,
  ];
}
