/**
 * The gap filler as it was before its lookups were indexed (commit 775d2af), kept verbatim
 * (only this comment and the import paths differ) so that tests can check that the indexed
 * {@link fillGaps} of ../fill.ts gives the very same answer on generated clusters. Test-only:
 * nothing in the app imports it. Its searches grow with nodes × Pods.
 */
/**
 * Filling gaps honestly. What a user pastes is rarely the whole cluster: `kubectl get svc,pods`
 * without the EndpointSlices, Pods without their Nodes, no kube-proxy configuration. The
 * model needs all of them, so {@link fillGaps} adds what the cluster itself would hold, the way
 * the component that writes it would write it, and lists every assumption in plain words
 * (the UI prefixes them with "assumed: "). What nobody can know is not invented: a
 * LoadBalancer Service without `status.loadBalancer.ingress` stays `<pending>`.
 *
 * Sources:
 * - EndpointSlices: the EndpointSlice controller, kubernetes/kubernetes
 *   `staging/src/k8s.io/endpointslice/utils.go` (`podToEndpoint`, `getEndpointPorts`,
 *   `setEndpointSliceLabels`), `reconciler.go` (one slice per distinct port list, a
 *   placeholder slice when no Pod matches), `pkg/api/v1/pod/util.go` (`FindPort`: a named
 *   targetPort is looked up in the Pod's containers' ports, name and protocol must both match;
 *   restartable init containers count too) and `pkg/api/v1/endpoints/util.go`
 *   (`ShouldPodBeInEndpoints`: no terminal Pods, no Pods without an IP; the slice controller
 *   keeps terminating Pods).
 * - kube-proxy's defaults: `pkg/proxy/apis/config/v1alpha1/defaults.go` (mode iptables on
 *   Linux, no clusterCIDR).
 * - The client and the cloud balancer: {@link completeScenario}.
 */
import type {
  EndpointSlice,
  KubeProxyConfiguration,
  Node,
  ScenarioObject,
} from '../../k8s/objects';
import { completeScenario } from '../load';
import { ipToInt, isIPv4 } from '../../net/ip';
import { mirrorEndpoints } from '../mirror';

/** The result of {@link fillGaps}. */
export interface Filled {
  /** The input objects, unchanged and in order, followed by the objects added. */
  objects: ScenarioObject[];
  /** Each assumption, in plain words. */
  assumed: string[];
}

/** The annotation on objects {@link fillGaps} wrote, saying where they came from. */
export const ASSUMED_ANNOTATION = 'lbpath.example/assumed';

/** The label the EndpointSlice controller sets on its slices (`discovery.LabelManagedBy`). */
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
const SERVICE_NAME = 'kubernetes.io/service-name';

type Rec = Record<string, unknown>;
const rec = (x: unknown): Rec =>
  x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Rec) : {};
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const strMap = (x: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(rec(x)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function metaOf(o: unknown): { namespace: string; name: string } {
  const m = rec(rec(o).metadata);
  return { namespace: str(m.namespace) || 'default', name: str(m.name) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function maskOf(bits: number): number {
  return bits === 0 ? 0 : (~(2 ** (32 - bits) - 1) >>> 0) >>> 0;
}

/** `10.244.1.0/24` → base and prefix length; undefined when malformed. */
function parseCidr(s: string): { base: number; bits: number } | undefined {
  const [ip, bitsText, extra] = s.trim().split('/');
  if (extra !== undefined || ip === undefined || !isIPv4(ip) || !/^\d{1,2}$/.test(bitsText ?? ''))
    return undefined;
  const bits = Number(bitsText);
  if (bits > 32) return undefined;
  return { base: (ipToInt(ip) & maskOf(bits)) >>> 0, bits };
}

function inCidr(c: { base: number; bits: number }, ip: string): boolean {
  return isIPv4(ip) && (ipToInt(ip) & maskOf(c.bits)) >>> 0 === c.base;
}

function cidrText(c: { base: number; bits: number }): string {
  return `${intToIp(c.base)}/${c.bits}`;
}

/** The /24 holding `ip`. */
function slash24(ip: string): string {
  return cidrText({ base: (ipToInt(ip) & maskOf(24)) >>> 0, bits: 24 });
}

/** Orders `node-2` before `node-10`. */
function naturalCompare(a: string, b: string): number {
  const split = (s: string) => s.split(/(\d+)/);
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p === q) continue;
    if (i % 2 === 1) return Number(p) - Number(q) || (p < q ? -1 : 1);
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** The Pod's IPv4 address: the IPv4 entry of `status.podIPs`, else `status.podIP`. */
function podIPv4(pod: Rec): string {
  const status = rec(pod.status);
  for (const p of arr(status.podIPs)) {
    const ip = str(rec(p).ip);
    if (isIPv4(ip)) return ip;
  }
  const ip = str(status.podIP);
  return isIPv4(ip) ? ip : '';
}

/** `podutil.IsPodReady`: the Pod's Ready condition is True. */
function podReady(pod: Rec): boolean {
  return arr(rec(pod.status).conditions).some(
    (c) => str(rec(c).type) === 'Ready' && str(rec(c).status) === 'True',
  );
}

/**
 * `podutil.FindPort`: a number is taken as is; a name is looked up in the containers' (and
 * restartable init containers') ports, where both name and protocol must match.
 */
function findPort(pod: Rec, servicePort: Rec): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return Number.isInteger(target) ? target : undefined;
  const name = str(target);
  // The model's reading of a digit-only string (resolve.ts does the same).
  if (/^\d+$/.test(name)) return Number(name);
  const protocol = str(servicePort.protocol) || 'TCP';
  const spec = rec(pod.spec);
  const containers = [
    ...arr(spec.containers),
    ...arr(spec.initContainers).filter((c) => str(rec(c).restartPolicy) === 'Always'),
  ];
  for (const c of containers)
    for (const p of arr(rec(c).ports)) {
      const port = rec(p);
      if (str(port.name) === name && (str(port.protocol) || 'TCP') === protocol) {
        const n = port.containerPort;
        if (typeof n === 'number' && Number.isInteger(n)) return n;
      }
    }
  return undefined;
}

type EndpointPort = NonNullable<EndpointSlice['ports']>[number];
type Endpoint = EndpointSlice['endpoints'][number];

/** The endpoint slices the controller would write for `svc`, or undefined when it writes none. */
function deriveSlices(
  svcObj: Rec,
  pods: Rec[],
  nodeZones: Map<string, string>,
  assumed: string[],
): EndpointSlice[] | undefined {
  const { namespace, name } = metaOf(svcObj);
  const spec = rec(svcObj.spec);
  const selector = strMap(spec.selector);
  // A Service without a selector: its EndpointSlices are the user's to write
  // (the controller's syncService returns early when spec.selector is nil).
  if (Object.keys(selector).length === 0 || str(spec.type) === 'ExternalName') return undefined;
  const servicePorts = arr(spec.ports).map(rec);
  const publishNotReady = spec.publishNotReadyAddresses === true;
  const matching = pods.filter((p) => {
    const m = metaOf(p);
    const labels = strMap(rec(p.metadata).labels);
    return m.namespace === namespace && Object.entries(selector).every(([k, v]) => labels[k] === v);
  });
  const groups = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
  const notes: string[] = [];
  let used = 0;
  for (const pod of matching) {
    const phase = str(rec(pod.status).phase);
    const ip = podIPv4(pod);
    // ShouldPodBeInEndpoints(pod, includeTerminating=true).
    if (phase === 'Succeeded' || phase === 'Failed' || ip === '') continue;
    used++;
    const podMeta = rec(pod.metadata);
    const podSpec = rec(pod.spec);
    const ports: EndpointPort[] = [];
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) {
        notes.push(
          `Pod ${namespace}/${metaOf(pod).name} has no ${str(sp.protocol) || 'TCP'} container port named "${str(sp.targetPort)}", so its endpoint lists no port "${str(sp.name)}"`,
        );
        continue;
      }
      ports.push({
        name: str(sp.name),
        port,
        protocol: str(sp.protocol) || 'TCP',
        ...(typeof sp.appProtocol === 'string' ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    // podToEndpoint: serving is the Ready condition; ready is never true while terminating
    // unless the Service publishes not-ready addresses.
    const serving = podReady(pod);
    const terminating =
      podMeta.deletionTimestamp !== undefined && podMeta.deletionTimestamp !== null;
    const ready = publishNotReady || (serving && !terminating);
    const nodeName = str(podSpec.nodeName);
    const zone = nodeZones.get(nodeName);
    const uid = str(podMeta.uid);
    const hostname = str(podSpec.hostname);
    const endpoint: Endpoint = {
      addresses: [ip],
      conditions: { ready, serving, terminating },
      ...(hostname !== '' && str(podSpec.subdomain) === name ? { hostname } : {}),
      ...(nodeName ? { nodeName } : {}),
      targetRef: {
        kind: 'Pod',
        namespace,
        name: metaOf(pod).name,
        ...(uid ? { uid } : {}),
      },
      ...(zone ? { zone } : {}),
    };
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? { ports, endpoints: [] };
    group.endpoints.push(endpoint);
    groups.set(key, group);
  }
  // No Pod: the controller still writes one empty placeholder slice.
  if (groups.size === 0) groups.set('[]', { ports: [], endpoints: [] });

  // setEndpointSliceLabels: the Service's labels, then the controller's own two.
  const labels: Record<string, string> = { ...strMap(rec(svcObj.metadata).labels) };
  delete labels[SERVICE_NAME];
  delete labels[MANAGED_BY];
  if (str(spec.clusterIP) === 'None') labels['service.kubernetes.io/headless'] = '';
  labels[SERVICE_NAME] = name;
  labels[MANAGED_BY] = CONTROLLER_NAME;

  const slices: EndpointSlice[] = [];
  let i = 0;
  for (const g of groups.values()) {
    i++;
    slices.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: i === 1 ? `${name}-derived` : `${name}-derived-${i}`,
        namespace,
        labels: { ...labels },
        annotations: {
          [ASSUMED_ANNOTATION]: `derived from the Pods matching the selector of Service ${namespace}/${name}`,
        },
      },
      addressType: 'IPv4',
      endpoints: g.endpoints,
      ports: g.ports,
    });
  }
  const names = slices.map((s) => s.metadata?.name ?? '').join(', ');
  assumed.push(
    used === 0
      ? `EndpointSlice ${namespace}/${names}, empty: no EndpointSlice of Service ${namespace}/${name} was given and no Pod with an IP matches its selector, so it has no endpoints`
      : `EndpointSlice${slices.length > 1 ? 's' : ''} ${namespace}/${names} for Service ${namespace}/${name}, derived from the ${plural(used, 'Pod')} its selector matches as the EndpointSlice controller would write ${slices.length > 1 ? 'them' : 'it'} (no EndpointSlice was given)`,
    ...notes,
  );
  return slices;
}

/** Nodes named by Pods or endpoints but absent from the objects, built from what those say. */
function deriveNodes(
  missing: string[],
  pods: Rec[],
  slices: EndpointSlice[],
  knownAddresses: Set<string>,
  givenPodCIDRs: { base: number; bits: number }[],
  assumed: string[],
): Node[] {
  // Per missing node: its host IP (the Pods' status.hostIP, or a hostNetwork Pod's IP) and
  // the IPs of its Pods on the pod network.
  const hostIP = new Map<string, string>();
  const podIPs = new Map<string, Set<string>>();
  const hostNetworkIPs = new Set<string>();
  for (const name of missing) podIPs.set(name, new Set());
  for (const pod of pods) {
    const node = str(rec(pod.spec).nodeName);
    const ips = podIPs.get(node);
    if (!ips) continue;
    const status = rec(pod.status);
    let host = str(status.hostIP);
    if (!isIPv4(host))
      host =
        arr(status.hostIPs)
          .map((h) => str(rec(h).ip))
          .find(isIPv4) ?? '';
    const ip = podIPv4(pod);
    if (rec(pod.spec).hostNetwork === true) {
      if (ip) hostNetworkIPs.add(ip);
      if (!host) host = ip;
    } else if (ip) ips.add(ip);
    if (host && !hostIP.has(node)) hostIP.set(node, host);
  }
  for (const s of slices)
    for (const ep of arr(rec(s).endpoints)) {
      const e = rec(ep);
      const ips = podIPs.get(str(e.nodeName));
      const ip = str(arr(e.addresses)[0]);
      if (ips && isIPv4(ip) && !hostNetworkIPs.has(ip)) ips.add(ip);
    }
  for (const name of missing) {
    const host = hostIP.get(name);
    if (host) podIPs.get(name)?.delete(host);
  }

  // A /24 is a node's podCIDR when all its Pod IPs lie in it and no other node's do.
  const candidate = new Map<string, string>();
  const why = new Map<string, string>();
  for (const name of missing) {
    const ips = [...(podIPs.get(name) ?? [])];
    const nets = new Set(ips.map(slash24));
    const [only] = nets;
    if (ips.length === 0) why.set(name, 'no Pod IPs on it to infer it from');
    else if (nets.size !== 1 || only === undefined)
      why.set(name, `its Pods' IPs (${ips.join(', ')}) do not share one /24`);
    else candidate.set(name, only);
  }
  for (const [name, net] of candidate) {
    const c = parseCidr(net);
    const clash =
      [...candidate].some(([other, n]) => other !== name && n === net) ||
      [...podIPs].some(
        ([other, ips]) => other !== name && [...ips].some((ip) => c && inCidr(c, ip)),
      ) ||
      givenPodCIDRs.some((g) => c && (inCidr(g, intToIp(c.base)) || inCidr(c, intToIp(g.base))));
    if (clash) {
      candidate.delete(name);
      why.set(name, `${net}, the /24 of its Pods' IPs, also holds other nodes' Pods`);
    }
  }

  // Placeholder InternalIPs: 192.168.0.(10+i) for the i-th missing node (from 1), moving up
  // past any address already in use or on a pod network.
  const podNets = [...givenPodCIDRs, ...[...candidate.values()].map((n) => parseCidr(n))].filter(
    (c): c is { base: number; bits: number } => c !== undefined,
  );
  for (const host of hostIP.values()) knownAddresses.add(host);
  const placeholder = (i: number): string => {
    let n = ipToInt('192.168.0.10') + i;
    let ip = intToIp(n);
    // Bounded: a pod network as wide as 0.0.0.0/0 would hold every candidate.
    for (let tries = 0; tries < 65536; tries++) {
      ip = intToIp(n);
      if (!knownAddresses.has(ip) && !podNets.some((c) => inCidr(c, ip))) break;
      n = (n + 1) >>> 0;
    }
    knownAddresses.add(ip);
    return ip;
  };

  return missing.map((name, i): Node => {
    const host = hostIP.get(name);
    const internalIP = host ?? placeholder(i + 1);
    const podCIDR = candidate.get(name);
    assumed.push(
      `Node ${name}, named by Pods or endpoints but by no Node object: Ready, InternalIP ${internalIP} ${host ? "(its Pods' status.hostIP)" : '(a placeholder)'}, ${podCIDR ? `podCIDR ${podCIDR} (the /24 holding its Pods' IPs)` : `no podCIDR (${why.get(name) ?? 'unknown'})`}`,
    );
    return {
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
          { type: 'InternalIP', address: internalIP },
          { type: 'Hostname', address: name },
        ],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    };
  });
}

/**
 * The clusterCIDR to assume from the Nodes' podCIDRs: their smallest common supernet, widened
 * to the /16 around it when that /16 holds none of `others` (node, Service and balancer
 * addresses) — the usual size of a pod network (kubeadm/flannel's 10.244.0.0/16).
 */
function inferClusterCIDR(
  podCIDRs: string[],
  others: Set<string>,
): { cidr: string; widened: boolean } | { why: string } {
  if (podCIDRs.length === 0) return { why: 'no Node has a spec.podCIDR to infer it from' };
  // The IPv4 proxier's clusterCIDR is IPv4: a dual-stack or IPv6 node's IPv6 range is not it.
  const v4 = podCIDRs.filter((c) => !c.includes(':'));
  if (v4.length === 0)
    return { why: 'no Node has an IPv4 spec.podCIDR to infer it from (IPv6 is not modelled yet)' };
  const parsed = v4.map(parseCidr);
  if (parsed.some((c) => c === undefined)) return { why: 'a Node has a malformed spec.podCIDR' };
  const cs = parsed as { base: number; bits: number }[];
  const first = cs[0] as { base: number; bits: number };
  let bits = Math.min(...cs.map((c) => c.bits));
  for (const c of cs) bits = Math.min(bits, Math.clz32((c.base ^ first.base) >>> 0));
  const minimal = { base: (first.base & maskOf(bits)) >>> 0, bits };
  if (bits > 16) {
    const wide = { base: (first.base & maskOf(16)) >>> 0, bits: 16 };
    if (![...others].some((ip) => inCidr(wide, ip))) return { cidr: cidrText(wide), widened: true };
  }
  return { cidr: cidrText(minimal), widened: false };
}

function fill(objects: ScenarioObject[]): Filled {
  const assumed: string[] = [];
  const added: ScenarioObject[] = [];
  const all = objects as unknown[];
  const ofKind = (k: string) => all.filter((o) => rec(o).kind === k).map(rec);
  const services = ofKind('Service');
  const pods = ofKind('Pod');
  const nodes = ofKind('Node');
  const givenSlices = ofKind('EndpointSlice');

  // 1. EndpointSlices the controller would have written.
  const nodeZones = new Map<string, string>();
  for (const n of nodes) {
    const zone = strMap(rec(n.metadata).labels)['topology.kubernetes.io/zone'];
    if (zone) nodeZones.set(metaOf(n).name, zone);
  }
  const derivedSlices: EndpointSlice[] = [];
  for (const svc of services) {
    const { namespace, name } = metaOf(svc);
    const hasSlice = givenSlices.some(
      (s) =>
        metaOf(s).namespace === namespace && strMap(rec(s.metadata).labels)[SERVICE_NAME] === name,
    );
    if (hasSlice) continue;
    const slices = deriveSlices(svc, pods, nodeZones, assumed);
    if (slices) derivedSlices.push(...slices);
    else if (Object.keys(strMap(rec(svc.spec).selector)).length === 0)
      assumed.push(
        `no endpoints for Service ${namespace}/${name}: it has no selector and no EndpointSlice was given`,
      );
  }
  added.push(...derivedSlices.map((s) => ({ ...s, kind: 'EndpointSlice' as const })));

  // 2. Nodes the Pods and endpoints name but nobody gave.
  const slicesNow = [...(givenSlices as unknown as EndpointSlice[]), ...derivedSlices];
  const nodeNames = new Set(nodes.map((n) => metaOf(n).name));
  const referenced = new Set<string>();
  for (const p of pods) referenced.add(str(rec(p.spec).nodeName));
  for (const s of slicesNow)
    for (const ep of arr(rec(s).endpoints)) referenced.add(str(rec(ep).nodeName));
  const missing = [...referenced].filter((n) => n !== '' && !nodeNames.has(n)).sort(naturalCompare);
  const knownAddresses = new Set<string>();
  for (const n of nodes)
    for (const a of arr(rec(n.status).addresses)) knownAddresses.add(str(rec(a).address));
  for (const p of pods) knownAddresses.add(podIPv4(p));
  for (const s of slicesNow)
    for (const ep of arr(rec(s).endpoints)) knownAddresses.add(str(arr(rec(ep).addresses)[0]));
  const serviceAddresses = new Set<string>();
  for (const s of services) {
    const spec = rec(s.spec);
    for (const ip of [
      str(spec.clusterIP),
      ...arr(spec.clusterIPs).map(str),
      ...arr(spec.externalIPs).map(str),
    ])
      serviceAddresses.add(ip);
    for (const ing of arr(rec(rec(s.status).loadBalancer).ingress))
      serviceAddresses.add(str(rec(ing).ip));
  }
  for (const ip of serviceAddresses) knownAddresses.add(ip);
  knownAddresses.delete('');
  const givenPodCIDRs = nodes
    .map((n) => parseCidr(str(rec(n.spec).podCIDR)))
    .filter((c): c is { base: number; bits: number } => c !== undefined);
  const derivedNodes =
    missing.length > 0
      ? deriveNodes(missing, pods, slicesNow, knownAddresses, givenPodCIDRs, assumed)
      : [];
  added.push(...derivedNodes.map((n) => ({ ...n, kind: 'Node' as const })));

  // 3. No Pods: the endpoints are what the slices say, nothing more.
  if (pods.length === 0 && slicesNow.some((s) => arr(rec(s).endpoints).length > 0)) {
    assumed.push(
      'no Pods given: the endpoints are taken from the EndpointSlices alone (address, node and conditions)',
    );
    const unnamed = new Map<string, string[]>();
    for (const s of slicesNow) {
      const svc = `${metaOf(s).namespace}/${strMap(rec(rec(s).metadata).labels)[SERVICE_NAME] ?? ''}`;
      for (const ep of arr(rec(s).endpoints)) {
        const e = rec(ep);
        if (str(rec(e.targetRef).kind) === 'Pod' && str(rec(e.targetRef).name) !== '') continue;
        const list = unnamed.get(svc) ?? [];
        list.push(str(arr(e.addresses)[0]));
        unnamed.set(svc, list);
      }
    }
    for (const [svc, ips] of unnamed)
      assumed.push(
        `the Pods behind ${ips.join(', ')} (Service ${svc}) are unnamed: their endpoints carry no targetRef`,
      );
  }

  // 4. A LoadBalancer Service nobody has answered for stays <pending>.
  const pending = new Set<unknown>();
  for (const svc of services) {
    if (str(rec(svc.spec).type) !== 'LoadBalancer') continue;
    const ingress = arr(rec(rec(svc.status).loadBalancer).ingress).map(rec);
    if (ingress.some((i) => str(i.ip) !== '')) continue;
    const { namespace, name } = metaOf(svc);
    const hostname = ingress.map((i) => str(i.hostname)).find((h) => h !== '');
    // A hostname is a published address (AWS's ELB/NLB publish only one): EXTERNAL-IP shows
    // it and clients dial it; kube-proxy has no rule for it (only ingress IPs become
    // load-balancer VIPs, pkg/proxy/serviceport.go), so the balancer targets NodePorts.
    if (hostname) {
      assumed.push(
        `Service ${namespace}/${name} published only the hostname ${hostname} (no load-balancer IP): clients dial the name, and kube-proxy writes no load-balancer-IP rule for it, so the balancer delivers to the NodePort`,
      );
      continue;
    }
    pending.add(svc);
    assumed.push(
      `no load-balancer address for Service ${namespace}/${name}: status.loadBalancer is empty, so EXTERNAL-IP stays <pending> — no cloud controller or load-balancer implementation (such as MetalLB) has answered; none is invented`,
    );
  }

  // 5. kube-proxy's configuration: its defaults, and a clusterCIDR if the Nodes tell one.
  if (!all.some((o) => rec(o).kind === 'KubeProxyConfiguration')) {
    const allNodes = [...nodes, ...(derivedNodes as unknown as Rec[])];
    const podCIDRs = allNodes.map((n) => str(rec(n.spec).podCIDR));
    const others = new Set(serviceAddresses);
    for (const n of allNodes)
      for (const a of arr(rec(n.status).addresses)) others.add(str(rec(a).address));
    const inferred = podCIDRs.some((c) => c === '')
      ? {
          why: podCIDRs.every((c) => c === '')
            ? 'no Node has a spec.podCIDR to infer it from'
            : 'not every Node has a spec.podCIDR',
        }
      : inferClusterCIDR(podCIDRs, others);
    const cfg: KubeProxyConfiguration = {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      ...('cidr' in inferred ? { clusterCIDR: inferred.cidr } : {}),
    };
    added.push(cfg);
    assumed.push(
      "kube-proxy's defaults (mode iptables): no KubeProxyConfiguration was given",
      'cidr' in inferred
        ? `kube-proxy clusterCIDR ${inferred.cidr}: ${inferred.widened ? "the /16 holding every Node's spec.podCIDR" : "the smallest range holding every Node's spec.podCIDR"} (kube-proxy's own default is empty; kubeadm sets it to the pod subnet)`
        : `no kube-proxy clusterCIDR (its default): ${inferred.why}`,
    );
  }

  // 6. The client, and a balancer for each Service that has an address.
  const filled = [...objects, ...added];
  const forBalancers = filled.filter((o) => !pending.has(o));
  try {
    const done = completeScenario(forBalancers);
    const extra = done.objects.filter((o) => !forBalancers.includes(o));
    return { objects: [...filled, ...extra], assumed: [...assumed, ...done.assumed] };
  } catch (e) {
    return {
      objects: filled,
      assumed: [...assumed, `no client or balancer added (${errorText(e)})`],
    };
  }
}

/**
 * Adds what the objects lack and the model needs, as the cluster would hold it:
 * - a Service with a selector but no EndpointSlice gets the slices the EndpointSlice
 *   controller would write from the Pods it selects;
 * - a node that Pods or endpoints name but no Node describes is built from them (Ready; the
 *   Pods' `status.hostIP`, else a placeholder 192.168.0.x, as InternalIP; the /24 of its Pods'
 *   IPs as podCIDR when that is unambiguous);
 * - without a KubeProxyConfiguration, kube-proxy's defaults, with a clusterCIDR inferred
 *   from the Nodes' podCIDRs when they have one;
 * - a client and cloud balancers, by {@link completeScenario} (none for a Service whose
 *   address is `<pending>`).
 * Nothing is invented for a missing load-balancer address or missing Pods. The input is not
 * modified. Never throws: on input too malformed to read, the objects come back as they were.
 */
export function fillGaps(objects: ScenarioObject[]): Filled {
  try {
    const mirrored = mirrorEndpoints(objects);
    const filled = fill(mirrored.objects);
    return { ...filled, assumed: [...mirrored.notes, ...filled.assumed] };
  } catch (e) {
    return {
      objects: Array.isArray(objects) ? [...objects] : [],
      assumed: [`nothing filled in: the objects could not be read (${errorText(e)})`],
    };
  }
}
