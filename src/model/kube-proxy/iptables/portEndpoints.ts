/**
 * One service port's endpoints as one node's iptables rules use them, and the KUBE-SEP-
 * chains they need, remembered by content: every node of a Cluster-policy Service has the
 * same lists, so a 10,000-endpoint Service is sorted, split and written once, not once per
 * node and per toggle. Sources as {@link categorizeEndpoints} and {@link endpointSet}.
 */
import type { Cluster, EndpointModel, ServiceModel } from '../../scenario/cluster';
import type { Protocol } from '../../net/ip';
import { categorizeEndpoints, endpointString, externallyAccessible } from '../endpoints';
import { endpointSet } from './endpointSet';
import { endpointChainName } from './hash';
import { comment as c, jump } from './build';
import type { Chain, Match } from './rule';
import { byChainName, sharedChain } from './rule';

/** An endpoint with its `ip:port` and its KUBE-SEP- chain name. */
export interface NamedEndpoint {
  ep: EndpointModel;
  ip: string;
  sep: string;
}

/** What the rules of one service port on one node need of its endpoints. */
export interface PortEndpoints {
  /** Some endpoint is ready, or serving and terminating (`hasAny`). */
  hasAny: boolean;
  /** The cluster-wide and the node-local load-balancing lists, sorted by `ip:port`. */
  cluster: NamedEndpoint[];
  local: NamedEndpoint[];
  /** Keys for `RuleWriter.addRun` that name each list's cascade exactly. */
  clusterRun: string;
  localRun: string;
  /** The KUBE-SEP- chains of every endpoint the node's rules reach, sorted by chain name. */
  sepChains: Chain[];
}

const store = new Map<string, PortEndpoints>();

// A resolved cluster is not changed afterwards (the model treats it as a value), so a list's
// content key is worked out once per list: once for all the nodes of one run.
const contents = new WeakMap<readonly EndpointModel[], string>();

/** Every field of every endpoint that the lists and rules read, in order, as one string. */
function contentOf(raw: readonly EndpointModel[]): string {
  let text = contents.get(raw);
  if (text === undefined) {
    const parts: (string | number)[] = [];
    for (const e of raw)
      parts.push(
        e.ip,
        e.port,
        e.nodeName,
        (e.ready ? 4 : 0) + (e.serving ? 2 : 0) + (e.terminating ? 1 : 0),
      );
    text = parts.join('/');
    contents.set(raw, text);
  }
  return text;
}
/** Entries kept (each may hold a 10,000-endpoint list) before the memo starts afresh. */
const LIMIT = 32;

/**
 * The endpoints of service port `S` (protocol `p`) on `nodeName`, as the iptables proxier
 * sorts and splits them, with their KUBE-SEP- chains. Same result as categorizing
 * `endpointSet(cluster.endpoints[S])` afresh; memoised by the list's content.
 * @param largeClusterMode the rules leave out per-endpoint comments
 */
export function portEndpoints(
  cluster: Cluster,
  svc: ServiceModel,
  S: string,
  p: Protocol,
  nodeName: string,
  largeClusterMode: boolean,
): PortEndpoints {
  const raw = cluster.endpoints[S] ?? [];
  const affinity = svc.sessionAffinity === 'ClientIP';
  const usesLocal = svc.externalTrafficPolicy === 'Local' || svc.internalTrafficPolicy === 'Local';
  // Everything the lists and the KUBE-SEP- rules depend on.
  const rules = `${S}\u0000${p}\u0000${largeClusterMode ? 1 : 0}${affinity ? `\u0000${svc.affinityTimeoutSeconds}` : ''}`;
  // categorizeEndpoints also asks whether the Service is externally accessible.
  const ext = externallyAccessible(svc) ? 1 : 0;
  const key = `${rules}\u0000${svc.type}\u0000${ext}\u0000${svc.externalTrafficPolicy}\u0000${svc.internalTrafficPolicy}\u0000${usesLocal ? nodeName : ''}\u0000${contentOf(raw)}`;
  const hit = store.get(key);
  if (hit) return hit;

  const eps = categorizeEndpoints(endpointSet(raw), svc, nodeName);
  const named = new Map<EndpointModel, NamedEndpoint>();
  const name = (ep: EndpointModel): NamedEndpoint => {
    let n = named.get(ep);
    if (!n) {
      const ip = endpointString(ep);
      n = { ep, ip, sep: endpointChainName(S, p, ip) };
      named.set(ep, n);
    }
    return n;
  };
  const cl = eps.cluster.map(name);
  const local = eps.local.map(name);
  const epComment = (text: string): Match[] => (largeClusterMode ? [] : [c(text)]);
  const proto: Match = { kind: 'proto', proto: p };
  const sepChains = eps.allReachable.map((ep) => {
    const { ip, sep } = name(ep);
    return sharedChain('nat', sep, `${rules}\u0000${ip}\u0000${ep.ip}`, () => {
      const m: Match[] = epComment(S);
      if (affinity) m.push({ kind: 'recent', name: sep, mode: 'set' });
      m.push(proto);
      return [
        {
          matches: [...epComment(S), { kind: 'src', cidr: ep.ip, not: false }],
          target: jump('KUBE-MARK-MASQ'),
        },
        { matches: m, target: { kind: 'DNAT', to: ip } },
      ];
    });
  });
  const result: PortEndpoints = {
    hasAny: eps.hasAny,
    cluster: cl,
    local,
    clusterRun: `${rules}\u0000${cl.map((e) => e.ip).join(',')}`,
    localRun: `${rules}\u0000${local.map((e) => e.ip).join(',')}`,
    sepChains: sepChains.sort(byChainName),
  };
  if (store.size >= LIMIT) store.clear();
  store.set(key, result);
  return result;
}
