/**
 * {@link computePaths}'s answer with far fewer traces, for the time view's big clusters: an
 * internet client's connection through the cloud balancer to N nodes × M endpoints has N × M
 * paths, and {@link computePaths} traces every one of them (and generates every node's rules).
 *
 * What is traced instead, in the model's own terms:
 * - The balancer's decision (one trace per epoch: it depends on the rotation).
 * - Per class of entry node, one trace pinned to it: the node's kube-proxy endpoint decision
 *   and its probabilities. Nodes of one class have the same readiness and the same endpoint
 *   lists (`categorizeEndpoints`: the cluster list is every node's; the local list, used only
 *   by a Local policy, is the node's own), so their rules hold the same endpoint choice for
 *   this Service's traffic from the balancer.
 * - Per (entry class, endpoint class), one trace pinned to both: an endpoint's class is where
 *   its Pod runs relative to the entry node (the entry itself, or another node and whether that
 *   node answers), its conditions and port. Endpoints of one class take the same steps on the
 *   same kinds of node; only the Pod and its node differ, and those are read off the endpoint.
 *
 * Anything outside that shape (an in-cluster client, no balancer decision, an endpoint whose
 * Pod is not found by its address or runs on the host network, an endpoint decision not on
 * the entry node, a traced Pod other than the pinned endpoint's) is traced as
 * {@link computePaths} does. `fastPaths.test.ts` checks both give the same list.
 */
import type { SceneOptions } from '../scenario/scene';
import type { Cluster, ClusterNode, EndpointModel, ServiceModel } from '../scenario/cluster';
import { servicePortKey } from '../scenario/cluster';
import { categorizeEndpoints, endpointString } from '../kube-proxy/endpoints';
import { pickService } from '../trace/trace';
import type { Decision, Trace } from '../trace/types';
import { computeEntryPaths, routeOf, traceWith } from './paths';
import type { Prepared } from './paths';
import { flatPaths } from './pathSet';
import type { CandidateSlots, EntryPaths, OwnRoute, PathOption, Route } from './types';

/** A candidate endpoint of an entry class, resolved once. */
interface Resolved {
  id: string;
  probability: number;
  /** The endpoint's node, whether it answers, and its Pod's `namespace/name`. */
  node: string;
  nodeUp: boolean;
  pod: string | null;
  /** Its class apart from where it runs (conditions, port); -1: traced on its own. */
  kind: number;
}

/** One entry class's traced facts, reusable by every epoch with the same cluster state. */
interface EntryClass {
  /** The entry trace's endpoint decision's candidates with probability > 0; null: no decision. */
  candidates: Resolved[] | null;
  /** Per endpoint class (kind × 3 + where it runs): a route traced through it. */
  templates: Map<number, Route>;
  /**
   * The class's slots, shared by its entries: `routes` filled as entries find a slot's route
   * for an entry off the endpoint's node (the same for every such entry).
   */
  slots: CandidateSlots & { routes: (Route | null)[] };
  /** Slots still null in `slots.routes`, ascending. */
  pending: number[];
  /** Node → its slots (the candidates whose Pod runs there), ascending. */
  byNode: Map<string, number[]>;
}

/**
 * What {@link fastPaths} learns about one prepared cluster state (objects and scene apart from
 * the balancer's rotation), kept between epochs that share it.
 */
export interface PathMemo {
  classes: Map<string, EntryClass>;
  /** Set when the cluster is outside the fast path's shape: every call traces in full. */
  full?: boolean;
  index?: ClusterIndex;
}

/** A fresh, empty memo. */
export function newPathMemo(): PathMemo {
  return { classes: new Map() };
}

interface ClusterIndex {
  svc: ServiceModel;
  /** `ip:port` → the first endpoint listed with it (what the trace's decision finds). */
  byId: Map<string, EndpointModel>;
  all: EndpointModel[];
  nodes: Map<string, ClusterNode>;
  /** IP → the first Pod with it (`podByIP`). */
  podByIP: Map<string, { key: string; nodeName: string }>;
  nodeAddresses: Set<string>;
  usesLocal: boolean;
  /** Endpoint classes apart from where they run: `conditions|port` → number. */
  kinds: Map<string, number>;
}

function indexOf(cluster: Cluster, scene: SceneOptions): ClusterIndex {
  const picked = pickService(cluster, scene.service);
  const port = picked.ports.find((p) => p.name === scene.port) ?? picked.ports[0];
  const all = cluster.endpoints[servicePortKey(picked, port?.name ?? '')] ?? [];
  const byId = new Map<string, EndpointModel>();
  for (const e of all) {
    const id = endpointString(e);
    if (!byId.has(id)) byId.set(id, e);
  }
  const podByIP = new Map<string, { key: string; nodeName: string }>();
  for (const p of cluster.pods)
    if (!podByIP.has(p.ip))
      podByIP.set(p.ip, { key: `${p.namespace}/${p.name}`, nodeName: p.nodeName });
  const nodeAddresses = new Set<string>();
  for (const n of cluster.nodes)
    for (const a of [n.internalIP, ...n.addresses]) nodeAddresses.add(a);
  return {
    svc: picked,
    byId,
    all,
    nodes: new Map(cluster.nodes.map((n) => [n.name, n])),
    podByIP,
    nodeAddresses,
    usesLocal: picked.externalTrafficPolicy === 'Local' || picked.internalTrafficPolicy === 'Local',
    kinds: new Map(),
  };
}

function decision(t: Trace, kind: Decision['kind']): { d: Decision; at: string } | undefined {
  const s = t.steps.find((x) => x.decision?.kind === kind);
  return s?.decision ? { d: s.decision, at: s.at } : undefined;
}

const conditions = (e: EndpointModel) =>
  `${e.ready ? 1 : 0}${e.serving ? 1 : 0}${e.terminating ? 1 : 0}`;

/** The entry node's class: its readiness and (under a Local policy) its own endpoint list. */
function entryKey(ix: ClusterIndex, node: string): string {
  const n = ix.nodes.get(node);
  if (!n) return `?${node}`;
  if (!ix.usesLocal) return n.ready ? 'up' : 'down';
  const local = categorizeEndpoints(ix.all, ix.svc, node).local;
  return `${n.ready ? 'up' : 'down'}|${local.map((e) => `${endpointString(e)}/${conditions(e)}`).join(',')}`;
}

/**
 * A candidate with what its class needs. Its kind is -1 (traced on its own) when its Pod is
 * not found by its address, is on another node than the slice says, or shares an address
 * with a node.
 */
function resolve(ix: ClusterIndex, id: string, probability: number): Resolved {
  const ep = ix.byId.get(id);
  const pod = ep ? ix.podByIP.get(ep.ip) : undefined;
  if (!ep || !pod || pod.nodeName !== ep.nodeName || ix.nodeAddresses.has(ep.ip))
    return { id, probability, node: ep?.nodeName ?? '', nodeUp: false, pod: null, kind: -1 };
  const k = `${conditions(ep)}|${ep.port}`;
  let kind = ix.kinds.get(k);
  if (kind === undefined) {
    kind = ix.kinds.size;
    ix.kinds.set(k, kind);
  }
  return {
    id,
    probability,
    node: ep.nodeName,
    nodeUp: ix.nodes.get(ep.nodeName)?.ready === true,
    pod: pod.key,
    kind,
  };
}

/**
 * Every path a new connection from `client` can take under `scene` with its probability,
 * exactly as {@link computePaths} finds them, tracing once per class of entry node and class
 * of endpoint (see the file's comment). `memo` belongs to `p`: pass the same one for every
 * scene (rotation) traced on `p`.
 */
export function fastPaths(
  p: Prepared,
  scene: SceneOptions,
  client: string,
  memo: PathMemo,
): PathOption[] {
  return flatPaths(fastEntryPaths(p, scene, client, memo));
}

function newClass(ix: ClusterIndex, ep: { d: Decision } | undefined, alone: Route | undefined) {
  const candidates = ep
    ? ep.d.candidates.filter((x) => x.probability > 0).map((x) => resolve(ix, x.id, x.probability))
    : null;
  const byNode = new Map<string, number[]>();
  candidates?.forEach((x, j) => {
    const list = byNode.get(x.node);
    if (list) list.push(j);
    else byNode.set(x.node, [j]);
  });
  const cls: EntryClass = {
    candidates,
    templates: new Map(),
    slots: candidates
      ? {
          endpoints: candidates.map((x) => x.id),
          weights: candidates.map((x) => x.probability),
          routes: candidates.map(() => null),
        }
      : { endpoints: [null], weights: [1], routes: [alone as Route] },
    pending: candidates ? candidates.map((_, j) => j) : [],
    byNode,
  };
  return cls;
}

/** The slots `entry` must look at itself: its own node's, then the class's still pending, merged. */
function slotsToVisit(cls: EntryClass, entry: string): number[] {
  const mine = cls.byNode.get(entry) ?? [];
  const pending = cls.pending;
  if (mine.length === 0) return pending;
  const out: number[] = [];
  let a = 0;
  let b = 0;
  while (a < mine.length || b < pending.length) {
    const x = mine[a] ?? Infinity;
    const y = pending[b] ?? Infinity;
    if (x <= y) {
      out.push(x);
      a++;
      if (x === y) b++;
    } else {
      out.push(y);
      b++;
    }
  }
  return out;
}

/**
 * {@link fastPaths}'s paths per entry node ({@link EntryPaths}): entries of one class share
 * their slots and most routes, so a 1,000-node, 10,000-endpoint epoch holds about 10,000
 * routes, not 10 million paths.
 */
export function fastEntryPaths(
  p: Prepared,
  scene: SceneOptions,
  client: string,
  memo: PathMemo,
): EntryPaths[] {
  const c = p.cluster.clients.find((x) => x.name === client);
  if (
    memo.full ||
    !c ||
    c.nodeName ||
    c.location !== 'Internet' ||
    scene.dial.kind !== 'LoadBalancer'
  )
    return computeEntryPaths(p, scene, client);
  const rotation = scene.choices.rotation;
  const baseChoices = rotation ? { rotation } : {};
  // The balancer's decision does not depend on the pin; pinned to a node in rotation, the
  // same trace is that node's entry trace.
  const guess = rotation?.[0];
  const first = traceWith(
    p,
    scene,
    client,
    guess !== undefined ? { ...baseChoices, lbTarget: guess } : baseChoices,
  );
  const lb = decision(first, 'lb-target');
  if (!lb) return computeEntryPaths(p, scene, client);
  const ix = (memo.index ??= indexOf(p.cluster, scene));
  const out: EntryPaths[] = [];
  for (const cand of lb.d.candidates) {
    if (!(cand.probability > 0)) continue;
    const entry = cand.id;
    const share = cand.probability;
    const ek = entryKey(ix, entry);
    let cls = memo.classes.get(ek);
    if (!cls) {
      const t =
        lb.d.kind === 'lb-target' && lb.d.pinned && lb.d.chosen === entry
          ? first
          : traceWith(p, scene, client, { ...baseChoices, lbTarget: entry });
      const ep = decision(t, 'endpoint');
      const alone = ep ? undefined : routeOf(t);
      if ((ep && ep.at !== `node:${entry}`) || alone?.outcome === 'delivered') {
        memo.full = true;
        return computeEntryPaths(p, scene, client);
      }
      cls = newClass(ix, ep, alone);
      memo.classes.set(ek, cls);
    }
    const base = { lbTarget: entry, entryNode: entry, share, slots: cls.slots };
    if (!cls.candidates) {
      out.push({ ...base, own: [] });
      continue;
    }
    const own: OwnRoute[] = [];
    const filled = new Set<number>();
    for (const j of slotsToVisit(cls, entry)) {
      const x = cls.candidates[j] as Resolved;
      const self = x.node === entry;
      const key = x.kind < 0 ? -1 : x.kind * 3 + (self ? 0 : x.nodeUp ? 1 : 2);
      let route = key < 0 ? undefined : cls.templates.get(key);
      let shared = route !== undefined;
      if (route) {
        const delivered = route.outcome === 'delivered';
        route = {
          pod: delivered ? x.pod : null,
          podNode: delivered ? x.node : null,
          crossNode: route.crossNode,
          snat: route.snat,
          outcome: route.outcome,
        };
      } else {
        const pinned = traceWith(p, scene, client, {
          ...baseChoices,
          lbTarget: entry,
          endpoint: x.id,
        });
        route = routeOf(pinned);
        // A template only when the trace ended where the endpoint says (else it stays one of a kind).
        shared =
          key >= 0 &&
          (route.outcome !== 'delivered' || (route.pod === x.pod && route.podNode === x.node));
        if (shared) cls.templates.set(key, route);
      }
      if (shared && !self) {
        cls.slots.routes[j] = route;
        filled.add(j);
      } else own.push({ slot: j, route });
    }
    if (filled.size > 0) cls.pending = cls.pending.filter((j) => !filled.has(j));
    out.push({ ...base, own });
  }
  return out;
}
