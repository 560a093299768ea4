/**
 * kube-proxy's configuration when none is given: its defaults
 * (`pkg/proxy/apis/config/v1alpha1/defaults.go`: mode iptables on Linux, no clusterCIDR), with
 * a clusterCIDR inferred from the Nodes' podCIDRs when every Node has one.
 */
import type { KubeProxyConfiguration } from '../k8s/objects';
import type { Cidr4 } from './cidr4';
import { cidrText, inCidr, maskOf, parseCidr } from './cidr4';
import type { Rec } from './raw';
import { arr, rec, str } from './raw';

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
  const cs = parsed as Cidr4[];
  const first = cs[0] as Cidr4;
  let bits = Math.min(...cs.map((c) => c.bits));
  for (const c of cs) bits = Math.min(bits, Math.clz32((c.base ^ first.base) >>> 0));
  const minimal = { base: (first.base & maskOf(bits)) >>> 0, bits };
  if (bits > 16) {
    const wide = { base: (first.base & maskOf(16)) >>> 0, bits: 16 };
    if (![...others].some((ip) => inCidr(wide, ip))) return { cidr: cidrText(wide), widened: true };
  }
  return { cidr: cidrText(minimal), widened: false };
}

/**
 * The KubeProxyConfiguration to assume for `nodes` (given and derived), and the two
 * assumptions that say so.
 * @param serviceAddresses the Services' ClusterIPs, externalIPs and ingress IPs (a widened
 *   clusterCIDR must hold none of them).
 */
export function defaultKubeProxy(
  nodes: Rec[],
  serviceAddresses: Set<string>,
): { config: KubeProxyConfiguration; assumed: string[] } {
  const podCIDRs = nodes.map((n) => str(rec(n.spec).podCIDR));
  const others = new Set(serviceAddresses);
  for (const n of nodes)
    for (const a of arr(rec(n.status).addresses)) others.add(str(rec(a).address));
  const inferred = podCIDRs.some((c) => c === '')
    ? {
        why: podCIDRs.every((c) => c === '')
          ? 'no Node has a spec.podCIDR to infer it from'
          : 'not every Node has a spec.podCIDR',
      }
    : inferClusterCIDR(podCIDRs, others);
  return {
    config: {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      ...('cidr' in inferred ? { clusterCIDR: inferred.cidr } : {}),
    },
    assumed: [
      "kube-proxy's defaults (mode iptables): no KubeProxyConfiguration was given",
      'cidr' in inferred
        ? `kube-proxy clusterCIDR ${inferred.cidr}: ${inferred.widened ? "the /16 holding every Node's spec.podCIDR" : "the smallest range holding every Node's spec.podCIDR"} (kube-proxy's own default is empty; kubeadm sets it to the pod subnet)`
        : `no kube-proxy clusterCIDR (its default): ${inferred.why}`,
    ],
  };
}
