/**
 * Nodes that Pods or endpoints name but no Node object describes, built from what those say:
 * Ready; the Pods' `status.hostIP` (else a placeholder 192.168.0.x) as InternalIP; the /24 of
 * its Pods' IPs as podCIDR when that is unambiguous.
 */
import type { EndpointSlice, Node } from '../k8s/objects';
import { ipToInt, isIPv4 } from '../net/ip';
import type { Cidr4 } from './cidr4';
import { CidrSet, intToIp, maskOf, parseCidr, slash24 } from './cidr4';
import type { Rec } from './raw';
import { arr, ASSUMED_ANNOTATION, podIPv4, rec, str } from './raw';

/** What the Pods and endpoints say about the missing nodes. */
interface NodeSightings {
  /** A node's host IP: its Pods' `status.hostIP`, or a hostNetwork Pod's IP. */
  hostIP: Map<string, string>;
  /** The IPs of a node's Pods on the pod network (host IPs left out). */
  podIPs: Map<string, Set<string>>;
}

/** A Pod's `status.hostIP`, else the IPv4 entry of `status.hostIPs`; `''` when none. */
function podHostIP(pod: Rec): string {
  const status = rec(pod.status);
  const host = str(status.hostIP);
  if (isIPv4(host)) return host;
  return (
    arr(status.hostIPs)
      .map((h) => str(rec(h).ip))
      .find(isIPv4) ?? ''
  );
}

/** Per missing node: its host IP and the IPs of its Pods, from the Pods and the endpoints. */
function sightings(missing: string[], pods: Rec[], slices: EndpointSlice[]): NodeSightings {
  const hostIP = new Map<string, string>();
  const podIPs = new Map<string, Set<string>>();
  const hostNetworkIPs = new Set<string>();
  for (const name of missing) podIPs.set(name, new Set());
  for (const pod of pods) {
    const node = str(rec(pod.spec).nodeName);
    const ips = podIPs.get(node);
    if (!ips) continue;
    let host = podHostIP(pod);
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
  return { hostIP, podIPs };
}

/**
 * Each missing node's podCIDR: the /24 that holds all its Pod IPs when no other node's Pods
 * and no given podCIDR are in it; else, in `why`, the reason it has none.
 */
function podCIDRs(
  missing: string[],
  podIPs: Map<string, Set<string>>,
  givenPodCIDRs: Cidr4[],
): { candidate: Map<string, string>; why: Map<string, string> } {
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
  // Indexed: how many candidates claim each /24, which nodes have Pod IPs in each /24 (every
  // IP in podIPs is IPv4, so "in the /24 `net`" is "its /24 is `net`"), and the given podCIDRs.
  const claims = new Map<string, number>();
  for (const net of candidate.values()) claims.set(net, (claims.get(net) ?? 0) + 1);
  const nodesIn = new Map<string, Set<string>>();
  for (const [node, ips] of podIPs)
    for (const ip of ips) {
      const net = slash24(ip);
      const set = nodesIn.get(net) ?? new Set<string>();
      set.add(node);
      nodesIn.set(net, set);
    }
  const given = new CidrSet(givenPodCIDRs);
  // The given podCIDRs by the /24 their base lies in.
  const givenBases = new Set(givenPodCIDRs.map((g) => (g.base & maskOf(24)) >>> 0));
  const snapshot = [...candidate];
  for (const [name, net] of snapshot) {
    const c = parseCidr(net);
    const holders = nodesIn.get(net);
    const clash =
      (claims.get(net) ?? 0) > 1 ||
      (holders !== undefined && [...holders].some((other) => other !== name)) ||
      (c !== undefined && (given.holds(c.base) || givenBases.has(c.base)));
    if (clash) {
      candidate.delete(name);
      why.set(name, `${net}, the /24 of its Pods' IPs, also holds other nodes' Pods`);
    }
  }
  return { candidate, why };
}

/**
 * Placeholder InternalIPs: 192.168.0.(10+i) for the i-th missing node (from 1), moving up
 * past any address in `knownAddresses` (which each one joins) or on a pod network.
 */
function placeholders(knownAddresses: Set<string>, podNets: CidrSet): (i: number) => string {
  return (i) => {
    let n = ipToInt('192.168.0.10') + i;
    let ip = intToIp(n);
    // Bounded: a pod network as wide as 0.0.0.0/0 would hold every candidate.
    for (let tries = 0; tries < 65536; tries++) {
      ip = intToIp(n);
      if (!knownAddresses.has(ip) && !podNets.holds(n >>> 0)) break;
      n = (n + 1) >>> 0;
    }
    knownAddresses.add(ip);
    return ip;
  };
}

/** The Node object built for `name`. */
function nodeObject(name: string, internalIP: string, podCIDR: string | undefined): Node {
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
}

/**
 * Nodes named by Pods or endpoints but absent from the objects, built from what those say (see
 * the module comment), one assumption each pushed onto `assumed`.
 * @param missing the node names, in the order the Nodes are to be added.
 * @param knownAddresses every address already in use; the host IPs and placeholders join it.
 * @param givenPodCIDRs the podCIDRs of the Nodes given.
 */
export function deriveNodes(
  missing: string[],
  pods: Rec[],
  slices: EndpointSlice[],
  knownAddresses: Set<string>,
  givenPodCIDRs: Cidr4[],
  assumed: string[],
): Node[] {
  const { hostIP, podIPs } = sightings(missing, pods, slices);
  const { candidate, why } = podCIDRs(missing, podIPs, givenPodCIDRs);
  const podNets = new CidrSet(
    [...givenPodCIDRs, ...[...candidate.values()].map((n) => parseCidr(n))].filter(
      (c): c is Cidr4 => c !== undefined,
    ),
  );
  for (const host of hostIP.values()) knownAddresses.add(host);
  const placeholder = placeholders(knownAddresses, podNets);
  return missing.map((name, i): Node => {
    const host = hostIP.get(name);
    const internalIP = host ?? placeholder(i + 1);
    const podCIDR = candidate.get(name);
    assumed.push(
      `Node ${name}, named by Pods or endpoints but by no Node object: Ready, InternalIP ${internalIP} ${host ? "(its Pods' status.hostIP)" : '(a placeholder)'}, ${podCIDR ? `podCIDR ${podCIDR} (the /24 holding its Pods' IPs)` : `no podCIDR (${why.get(name) ?? 'unknown'})`}`,
    );
    return nodeObject(name, internalIP, podCIDR);
  });
}
