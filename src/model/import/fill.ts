/**
 * Filling gaps honestly. What a user pastes is rarely the whole cluster: `kubectl get svc,pods`
 * without the EndpointSlices, Pods without their Nodes, no kube-proxy configuration. The
 * model needs all of them, so {@link fillGaps} adds what the cluster itself would hold, the way
 * the component that writes it would write it, and lists every assumption in plain words
 * (the UI prefixes them with "assumed: "). What nobody can know is not invented: a
 * LoadBalancer Service without `status.loadBalancer.ingress` stays `<pending>`.
 *
 * Sources, each in the module that follows it:
 * - EndpointSlices: the EndpointSlice controller (./deriveSlices.ts).
 * - Nodes named but not given (./deriveNodes.ts).
 * - kube-proxy's defaults: `pkg/proxy/apis/config/v1alpha1/defaults.go` (mode iptables on
 *   Linux, no clusterCIDR) (./kubeProxyDefaults.ts).
 * - The client and the cloud balancer: {@link completeScenario}.
 */
import type { EndpointSlice, Node, ScenarioObject } from '../k8s/objects';
import { completeScenario } from './load';
import { mirrorEndpoints } from './mirror';
import { allocateClusterIPs } from './allocate';
import type { Cidr4 } from './cidr4';
import { parseCidr } from './cidr4';
import { deriveSlices, PodIndex } from './deriveSlices';
import { deriveNodes } from './deriveNodes';
import { defaultKubeProxy } from './kubeProxyDefaults';
import type { Rec } from './raw';
import {
  arr,
  errorText,
  metaOf,
  naturalCompare,
  podIPv4,
  rec,
  SERVICE_NAME,
  str,
  strMap,
} from './raw';

export { ASSUMED_ANNOTATION } from './raw';

/** The result of {@link fillGaps}. */
export interface Filled {
  /**
   * The input objects in order, followed by the objects added. Each is the input's own object,
   * except a Service allocated a ClusterIP: that one is a copy carrying it (./allocate.ts).
   */
  objects: ScenarioObject[];
  /** Each assumption, in plain words. */
  assumed: string[];
}

/** The objects of the input the filler reads, by kind, as untyped records. */
interface Given {
  services: Rec[];
  pods: Rec[];
  nodes: Rec[];
  slices: Rec[];
}

/**
 * Step 1: the EndpointSlices the controller would have written, for each Service none of the
 * given slices belongs to.
 */
function missingSlices(given: Given, assumed: string[]): EndpointSlice[] {
  const nodeZones = new Map<string, string>();
  for (const n of given.nodes) {
    const zone = strMap(rec(n.metadata).labels)['topology.kubernetes.io/zone'];
    if (zone) nodeZones.set(metaOf(n).name, zone);
  }
  const derived: EndpointSlice[] = [];
  // `namespace/name` of each Service the given EndpointSlices belong to.
  const sliced = new Set<string>();
  for (const s of given.slices) {
    const owner = strMap(rec(s.metadata).labels)[SERVICE_NAME];
    if (owner !== undefined) sliced.add(JSON.stringify([metaOf(s).namespace, owner]));
  }
  const podIndex = new PodIndex(given.pods);
  for (const svc of given.services) {
    const { namespace, name } = metaOf(svc);
    if (sliced.has(JSON.stringify([namespace, name]))) continue;
    const slices = deriveSlices(svc, podIndex, nodeZones, assumed);
    if (slices) derived.push(...slices);
    else if (Object.keys(strMap(rec(svc.spec).selector)).length === 0)
      assumed.push(
        `no endpoints for Service ${namespace}/${name}: it has no selector and no EndpointSlice was given`,
      );
  }
  return derived;
}

/** The Services' ClusterIPs, externalIPs and load-balancer ingress IPs. */
function serviceAddressesOf(services: Rec[]): Set<string> {
  const out = new Set<string>();
  for (const s of services) {
    const spec = rec(s.spec);
    for (const ip of [
      str(spec.clusterIP),
      ...arr(spec.clusterIPs).map(str),
      ...arr(spec.externalIPs).map(str),
    ])
      out.add(ip);
    for (const ing of arr(rec(rec(s.status).loadBalancer).ingress)) out.add(str(rec(ing).ip));
  }
  return out;
}

/** Step 2: the Nodes the Pods and endpoints name but nobody gave (./deriveNodes.ts). */
function missingNodes(
  given: Given,
  slices: EndpointSlice[],
  serviceAddresses: Set<string>,
  assumed: string[],
): Node[] {
  const { nodes, pods } = given;
  const nodeNames = new Set(nodes.map((n) => metaOf(n).name));
  const referenced = new Set<string>();
  for (const p of pods) referenced.add(str(rec(p.spec).nodeName));
  for (const s of slices)
    for (const ep of arr(rec(s).endpoints)) referenced.add(str(rec(ep).nodeName));
  const missing = [...referenced].filter((n) => n !== '' && !nodeNames.has(n)).sort(naturalCompare);
  if (missing.length === 0) return [];
  const knownAddresses = new Set<string>();
  for (const n of nodes)
    for (const a of arr(rec(n.status).addresses)) knownAddresses.add(str(rec(a).address));
  for (const p of pods) knownAddresses.add(podIPv4(p));
  for (const s of slices)
    for (const ep of arr(rec(s).endpoints)) knownAddresses.add(str(arr(rec(ep).addresses)[0]));
  for (const ip of serviceAddresses) knownAddresses.add(ip);
  knownAddresses.delete('');
  const givenPodCIDRs = nodes
    .map((n) => parseCidr(str(rec(n.spec).podCIDR)))
    .filter((c): c is Cidr4 => c !== undefined);
  return deriveNodes(missing, pods, slices, knownAddresses, givenPodCIDRs, assumed);
}

/** Step 3: no Pods, so the endpoints are what the slices say, nothing more. */
function podlessEndpoints(given: Given, slices: EndpointSlice[]): string[] {
  if (given.pods.length > 0 || !slices.some((s) => arr(rec(s).endpoints).length > 0)) return [];
  const out = [
    'no Pods given: the endpoints are taken from the EndpointSlices alone (address, node and conditions)',
  ];
  const unnamed = new Map<string, string[]>();
  for (const s of slices) {
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
    out.push(
      `the Pods behind ${ips.join(', ')} (Service ${svc}) are unnamed: their endpoints carry no targetRef`,
    );
  return out;
}

/**
 * Step 4: a LoadBalancer Service nobody has answered for stays <pending>.
 * @returns the pending Service objects (they get no balancer).
 */
function pendingServices(services: Rec[], assumed: string[]): Set<unknown> {
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
  return pending;
}

/**
 * Step 6: the client, and a balancer for each Service that has an address
 * ({@link completeScenario}, shown every object but the pending Services).
 */
function withClientAndBalancers(
  filled: ScenarioObject[],
  pending: Set<unknown>,
  assumed: string[],
): Filled {
  const forBalancers = filled.filter((o) => !pending.has(o));
  try {
    const done = completeScenario(forBalancers);
    const had = new Set<unknown>(forBalancers);
    const extra = done.objects.filter((o) => !had.has(o));
    return { objects: [...filled, ...extra], assumed: [...assumed, ...done.assumed] };
  } catch (e) {
    return {
      objects: filled,
      assumed: [...assumed, `no client or balancer added (${errorText(e)})`],
    };
  }
}

/** The filler's steps in order, on objects whose ClusterIPs and endpoints are settled. */
function fill(objects: ScenarioObject[]): Filled {
  const assumed: string[] = [];
  const added: ScenarioObject[] = [];
  const all = objects as unknown[];
  const ofKind = (k: string) => all.filter((o) => rec(o).kind === k).map(rec);
  const given: Given = {
    services: ofKind('Service'),
    pods: ofKind('Pod'),
    nodes: ofKind('Node'),
    slices: ofKind('EndpointSlice'),
  };

  const derivedSlices = missingSlices(given, assumed);
  added.push(...derivedSlices.map((s) => ({ ...s, kind: 'EndpointSlice' as const })));
  const slicesNow = [...(given.slices as unknown as EndpointSlice[]), ...derivedSlices];
  const serviceAddresses = serviceAddressesOf(given.services);
  const derivedNodes = missingNodes(given, slicesNow, serviceAddresses, assumed);
  added.push(...derivedNodes.map((n) => ({ ...n, kind: 'Node' as const })));
  assumed.push(...podlessEndpoints(given, slicesNow));
  const pending = pendingServices(given.services, assumed);

  // Step 5: kube-proxy's configuration, its defaults and a clusterCIDR if the Nodes tell one.
  if (!all.some((o) => rec(o).kind === 'KubeProxyConfiguration')) {
    const allNodes = [...given.nodes, ...(derivedNodes as unknown as Rec[])];
    const kp = defaultKubeProxy(allNodes, serviceAddresses);
    added.push(kp.config);
    assumed.push(...kp.assumed);
  }

  return withClientAndBalancers([...objects, ...added], pending, assumed);
}

/**
 * Adds what the objects lack and the model needs, as the cluster would hold it:
 * - a Service without `spec.clusterIP` gets the address the API server would allocate from
 *   the ServiceCIDRs (./allocate.ts);
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
    const allocated = allocateClusterIPs(objects);
    const mirrored = mirrorEndpoints(allocated.objects);
    const filled = fill(mirrored.objects);
    return {
      ...filled,
      assumed: [...allocated.assumed, ...mirrored.notes, ...filled.assumed],
    };
  } catch (e) {
    return {
      objects: Array.isArray(objects) ? [...objects] : [],
      assumed: [`nothing filled in: the objects could not be read (${errorText(e)})`],
    };
  }
}
