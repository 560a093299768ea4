/**
 * Binding a walkthrough to the cluster it runs on. A {@link WalkthroughTemplate} tells its
 * story in terms of *roles* ("a node with no Pod of the Service", "the node the balancer picks
 * and its local endpoint"); {@link bindWalkthrough} finds, in one resolved {@link Cluster}, the
 * node, endpoint and address that plays each role and returns the steps with the cluster's own
 * names and addresses, or, for a step whose roles the cluster cannot fill, `applies: false` and
 * the plain reason.
 *
 * Every role is chosen deterministically (first by node order, then endpoint order as the
 * EndpointSlices list them), and only among choices the model honours, so a bound step's pins
 * never depend on the seed:
 * - the balancer target (`lbNode`) is eligible in the balancer's rotation: registered (not
 *   labelled `node.kubernetes.io/exclude-from-external-load-balancers`, the service
 *   controller's rule) and passing its health check (`targetCandidates`, reference §2);
 * - a pinned endpoint is a ready endpoint of the Service port. The story's scene uses
 *   `externalTrafficPolicy: Cluster`, under which a node's KUBE-EXT/KUBE-SVC chain picks from
 *   every ready endpoint in the cluster (reference §1.3, §1.5 `CategorizeEndpoints`), so any
 *   ready endpoint can be pinned on any node;
 * - a node "without a Pod" (`emptyNode`) is a Ready node with no ready endpoint of the
 *   Service port: kube-proxy still writes its KUBE-NODEPORTS rule there (reference §1.3,
 *   "Capture nodeports"), and under Cluster it DNATs to an endpoint on another node and
 *   masquerades (KUBE-EXT "masquerade traffic for … external destinations").
 *
 * Facts: /work/shared/reference/kube-proxy.md (§1.3 per-service rules, §1.5 endpoint selection,
 * §2 health checks); the seed's five-step story (shared/seeds/004_83d1a20af1ffbd47.txt).
 *
 * Pure: no React, no DOM, no clock, no randomness.
 */
import type { Cluster, ClusterNode, EndpointModel, ServiceModel } from '../scenario/cluster';
import { ingressHostname, servicePortKey } from '../scenario/cluster';
import { DEFAULT_SCENE } from '../scenario/scene';
import type { SceneOptions } from '../scenario/scene';
import type { ScenarioObject } from '../k8s/objects';
import { resolveCluster } from '../scenario/resolve';
import { targetCandidates } from '../cloud/targets';
import type { Place, Transform } from '../trace/types';
import type { Focus, StoryStep } from './types';

/**
 * The roles a story can name, each bound to a string of the cluster's own (a name, an
 * address, `ip:port`, a number, or a phrase):
 * - `serviceName`: the traced Service's `metadata.name` (`web`); `namespace` its namespace;
 * - `client`: the client that dials from outside (the `Client` named `internet`, else the first
 *   with `location: Internet`, else the first client);
 * - `port` / `targetPort` / `nodePort`: `spec.ports[0].port`, `.targetPort`, `.nodePort`
 *   (`80`, `8080`, `31000`); `nodePort` is unbound when none was allocated;
 * - `lbService`: bound (to the type) only when the Service is `type: LoadBalancer`;
 * - `lbAddress`: `status.loadBalancer.ingress[0].ip` of a LoadBalancer Service (`203.0.113.7`),
 *   or the hostname when the ingress has only hostnames (AWS);
 * - `readyEndpoint`: the first ready endpoint of the Service port (without one kube-proxy
 *   writes no nat rules for the Service, only REJECTs in the filter table, reference §1.4);
 * - `emptyNode`: the first Ready node with no ready endpoint (`node-2`);
 * - `dialNode`: `emptyNode`, else the first Ready node (what a step sets up to dial);
 * - `podNode` / `podEndpoint`: the first Ready node with a ready endpoint of its own, preferring
 *   nodes in the balancer's rotation, and its first ready endpoint (`node-1`, `10.244.1.5:8080`);
 * - `otherEndpoint` / `otherEndpointIP` / `otherNode`: the first ready endpoint on another node
 *   than `podNode` (`10.244.3.9:8080` on `node-3`);
 * - `remoteEndpoint` / `remoteNode`: the endpoint a connection dialled at `emptyNode` is pinned
 *   to: `otherEndpoint`, else `podEndpoint` (on another node than the one dialled either way);
 * - `lbNode`: the node the balancer is pinned to: `podNode` when in rotation, else the first
 *   node in rotation; `lbEndpoint` / `lbEndpointIP` / `lbEndpointNode`: the endpoint that node
 *   DNATs to (`podEndpoint`); `lbLocal`: bound when that endpoint runs on `lbNode` itself;
 * - `readyPods`: `both ready pods` / `all N ready pods` (bound with two or more).
 */
export type RoleName =
  | 'serviceName'
  | 'namespace'
  | 'client'
  | 'port'
  | 'targetPort'
  | 'nodePort'
  | 'lbService'
  | 'lbAddress'
  | 'readyEndpoint'
  | 'emptyNode'
  | 'dialNode'
  | 'podNode'
  | 'podEndpoint'
  | 'otherEndpoint'
  | 'otherEndpointIP'
  | 'otherNode'
  | 'remoteEndpoint'
  | 'remoteNode'
  | 'lbNode'
  | 'lbEndpoint'
  | 'lbEndpointIP'
  | 'lbEndpointNode'
  | 'lbLocal'
  | 'readyPods';

/** Each role's value in one cluster, and for every role left unbound, why. */
export interface Roles {
  /** The traced Service, `namespace/name` (the one `runScene` picks). */
  service: string;
  values: Partial<Record<RoleName, string>>;
  /** One plain sentence per unbound role, naming the cluster's own objects. */
  why: Partial<Record<RoleName, string>>;
}

/**
 * Text with `{role}` placeholders. An array's parts are joined; a conditional part is used
 * only when every role in `if` is bound, else its `else` (or nothing).
 * E.g. `['Dialling ', { if: ['emptyNode'], then: '{emptyNode}', else: 'a node' }]`.
 */
export type TextTemplate = string | readonly TextPart[];
export type TextPart = string | { if: readonly RoleName[]; then: string; else?: string };

/**
 * One step of a walkthrough template: a {@link StoryStep} whose texts are templates and whose
 * scene and `show.at` strings may hold `{role}` placeholders (e.g. `dial: { kind: 'NodePort',
 * nodeName: '{emptyNode}' }`, `show: { at: 'node:{emptyNode}', transform: 'DNAT' }`).
 * A step applies when every role its scene, `show`, body (outside the parts not taken) and
 * `needs` name is bound. Its title must render with no role bound (use conditional parts): a
 * step that does not apply is still listed by its title.
 */
export interface StoryTemplate {
  id: string;
  title: TextTemplate;
  body: TextTemplate;
  scene: Partial<SceneOptions>;
  show: { at: 'start' } | { at: string; transform?: Transform };
  focus?: Focus[];
  /** Roles the step needs although no text names them (e.g. `lbService`). */
  needs?: readonly RoleName[];
}

/**
 * What the walkthrough offers after its last step: the tutorial chapter that carries the story
 * on (its slug, `content/chapters/NN-<slug>.md`, opened at `#/learn/<slug>`) and its title.
 */
export interface WhatNextTemplate {
  chapter: string;
  chapterTitle: string;
}

/** A walkthrough as templates over roles (see {@link bindWalkthrough}). */
export interface WalkthroughTemplate {
  id: string;
  title: string;
  steps: readonly StoryTemplate[];
  whatNext: WhatNextTemplate;
}

/** A step bound to a cluster: the {@link StoryStep} with the cluster's own names. */
export interface ApplicableStep extends StoryStep {
  applies: true;
}

/** A step the cluster cannot tell: its title (with no role filled) and why. */
export interface InapplicableStep {
  id: string;
  title: string;
  applies: false;
  /** One plain sentence: what the cluster lacks, e.g. "Every node in your cluster runs a web Pod, …". */
  reason: string;
  /** The role that could not be bound. */
  missing: RoleName;
  focus?: Focus[];
}

export type BoundStep = ApplicableStep | InapplicableStep;

/**
 * What to offer after the last step that applies:
 * - `lastStep`: its index (-1 when no step applies);
 * - `dnatStep`: the last applicable step that shows a DNAT (-1 when none): the connection
 *   "what next" replays under `externalTrafficPolicy: Local`;
 * - `failNode`: the node that DNATs on that step (the one to fail), when any.
 */
export interface WhatNext extends WhatNextTemplate {
  lastStep: number;
  dnatStep: number;
  failNode?: string;
}

/** A walkthrough bound to one cluster. */
export interface BoundWalkthrough {
  id: string;
  title: string;
  steps: BoundStep[];
  roles: Roles;
  whatNext: WhatNext;
}

const isReadyNode = (n: ClusterNode) => n.ready;

/** The endpoints kube-proxy may pick under Cluster: `ready` (reference §1.5). */
function readyEndpoints(cluster: Cluster, svc: ServiceModel): EndpointModel[] {
  const port = svc.ports[0];
  if (!port) return [];
  return (cluster.endpoints[servicePortKey(svc, port.name)] ?? []).filter((e) => e.ready);
}

const epId = (e: EndpointModel) => `${e.ip}:${e.port}`;

/**
 * The roles of the story in `cluster` for the Service `service` (`namespace/name`; unset: the
 * one `runScene` picks — the first LoadBalancer Service, else the first Service). `cluster`
 * is read as the story's scene has it: the Service's rotation is the one under
 * `externalTrafficPolicy: Cluster` (see {@link storyCluster}).
 * @throws {Error} when the cluster has no such Service.
 */
export function storyRoles(cluster: Cluster, service?: string): Roles {
  const svc = service
    ? cluster.services.find((s) => `${s.namespace}/${s.name}` === service)
    : (cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0]);
  if (!svc) throw new Error(service ? `no Service "${service}"` : 'the scenario has no Service');
  const key = `${svc.namespace}/${svc.name}`;
  const values: Partial<Record<RoleName, string>> = {};
  const why: Partial<Record<RoleName, string>> = {};
  const name = svc.name;
  const set = (role: RoleName, value: string | undefined, reason: string) => {
    if (value !== undefined) values[role] = value;
    else why[role] = reason;
  };

  values.serviceName = name;
  values.namespace = svc.namespace;
  const clients = cluster.clients;
  const client =
    clients.find((c) => c.name === 'internet') ??
    clients.find((c) => c.location === 'Internet') ??
    clients[0];
  set('client', client?.name, 'Your scenario has no Client to dial from.');

  const port = svc.ports[0];
  if (port) {
    values.port = String(port.port);
    values.targetPort = String(port.targetPort);
  }
  set(
    'nodePort',
    port && port.nodePort > 0 ? String(port.nodePort) : undefined,
    svc.type === 'ClusterIP'
      ? `Your Service ${name} is type ClusterIP: it has no node port.`
      : `Your Service ${name} has no spec.ports[0].nodePort (allocateLoadBalancerNodePorts: false).`,
  );

  const isLB = svc.type === 'LoadBalancer';
  const noBalancer = `Your Service ${name} is type ${svc.type}: no balancer.`;
  set('lbService', isLB ? svc.type : undefined, noBalancer);
  set(
    'lbAddress',
    // An AWS balancer publishes a DNS name only; that is the address the client dials.
    isLB ? (svc.ingress[0]?.ip ?? ingressHostname(svc)) : undefined,
    isLB
      ? `Your Service ${name} has no status.loadBalancer.ingress: nothing has published an address for it (kubectl shows EXTERNAL-IP <pending>), so a client outside has nothing to dial.`
      : `${noBalancer} There is no load-balancer address to dial.`,
  );

  const ready = cluster.nodes.filter(isReadyNode);
  const eps = readyEndpoints(cluster, svc);
  const byNode = new Map<string, EndpointModel[]>();
  for (const e of eps) byNode.set(e.nodeName, [...(byNode.get(e.nodeName) ?? []), e]);
  const epsOn = (node: string) => byNode.get(node) ?? [];
  const hasLB =
    isLB &&
    (svc.ingress.length > 0 || ingressHostname(svc) !== undefined) &&
    cluster.loadBalancers.some((l) => l.service === key);
  // The story runs under externalTrafficPolicy: Cluster (DEFAULT_SCENE), whatever the objects
  // say: the balancer then asks kube-proxy's /healthz on every node (reference §2.2).
  const asStory: ServiceModel = {
    ...svc,
    externalTrafficPolicy: 'Cluster',
    healthCheckNodePort: 0,
  };
  const rotation = hasLB
    ? new Set(
        targetCandidates(cluster, asStory)
          .filter((c) => c.eligible)
          .map((c) => c.id),
      )
    : new Set<string>();

  set(
    'readyEndpoint',
    eps[0] && epId(eps[0]),
    `Your Service ${name} has no ready endpoints: kube-proxy then writes no KUBE-NODEPORTS rule for it, only a REJECT in KUBE-EXTERNAL-SERVICES ("has no endpoints").`,
  );
  const empty = ready.find((n) => epsOn(n.name).length === 0);
  set(
    'emptyNode',
    empty?.name,
    ready.length === 0
      ? 'No node in your cluster is Ready.'
      : eps.length === 0
        ? `Your Service ${name} has no ready endpoints.`
        : cluster.nodes.length === 1
          ? `Your cluster has one node, and it runs a ${name} Pod, so there is no node without one to dial.`
          : `Every node in your cluster runs a ${name} Pod, so there is no node without one to dial.`,
  );
  set('dialNode', empty?.name ?? ready[0]?.name, 'No node in your cluster is Ready.');

  const noEndpoints =
    eps.length === 0
      ? `Your Service ${name} has no ready endpoints, so kube-proxy has nowhere to send the connection.`
      : `No Ready node runs a ready ${name} Pod.`;
  const withPods = ready.filter((n) => epsOn(n.name).length > 0);
  const podNode = withPods.find((n) => rotation.has(n.name)) ?? withPods[0];
  const podEndpoint = podNode ? epsOn(podNode.name)[0] : undefined;
  set('podNode', podNode?.name, noEndpoints);
  set('podEndpoint', podEndpoint && epId(podEndpoint), noEndpoints);

  const other = podNode ? eps.find((e) => e.nodeName !== podNode.name) : undefined;
  const noOther = podNode ? `Every ready ${name} Pod runs on ${podNode.name}.` : noEndpoints;
  set('otherEndpoint', other && epId(other), noOther);
  set('otherEndpointIP', other?.ip, noOther);
  set('otherNode', other?.nodeName, noOther);

  const remote = other ?? podEndpoint;
  set('remoteEndpoint', remote && epId(remote), noEndpoints);
  set('remoteNode', remote?.nodeName, noEndpoints);

  const lbNode =
    podNode && rotation.has(podNode.name)
      ? podNode
      : cluster.nodes.find((n) => rotation.has(n.name));
  set(
    'lbNode',
    lbNode?.name,
    !isLB
      ? noBalancer
      : !hasLB
        ? (why.lbAddress ?? noBalancer)
        : `No node of your cluster is in the balancer's rotation (none is registered and passing its health check).`,
  );
  const lbEndpoint = lbNode ? podEndpoint : undefined;
  set('lbEndpoint', lbEndpoint && epId(lbEndpoint), lbNode ? noEndpoints : (why.lbNode ?? ''));
  set('lbEndpointIP', lbEndpoint?.ip, why.lbEndpoint ?? '');
  set('lbEndpointNode', lbEndpoint?.nodeName, why.lbEndpoint ?? '');
  set(
    'lbLocal',
    lbEndpoint && lbEndpoint.nodeName === lbNode?.name ? 'yes' : undefined,
    `The node the balancer picks runs no ready ${name} Pod.`,
  );
  set(
    'readyPods',
    eps.length === 2
      ? 'both ready pods'
      : eps.length > 2
        ? `all ${eps.length} ready pods`
        : undefined,
    `Your Service ${name} has ${eps.length === 0 ? 'no' : 'one'} ready endpoint.`,
  );
  return { service: key, values, why };
}

/** Thrown inside rendering when a placeholder's role is unbound. */
class Unbound extends Error {
  constructor(readonly role: RoleName) {
    super(`role ${role} is unbound`);
  }
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

function fill(text: string, values: Roles['values']): string {
  return text.replace(PLACEHOLDER, (_m, role: string) => {
    const v = values[role as RoleName];
    if (v === undefined) throw new Unbound(role as RoleName);
    return v;
  });
}

/** Renders a text template with `values`. @throws {Unbound} for a placeholder not bound. */
function render(t: TextTemplate, values: Roles['values']): string {
  if (typeof t === 'string') return fill(t, values);
  return t
    .map((p) => {
      if (typeof p === 'string') return fill(p, values);
      const taken = p.if.every((r) => values[r] !== undefined);
      return fill(taken ? p.then : (p.else ?? ''), values);
    })
    .join('');
}

/** Every string in `x` (a scene) with its placeholders filled; other values as they are. */
function fillDeep<T>(x: T, values: Roles['values']): T {
  if (typeof x === 'string') return fill(x, values) as T;
  if (Array.isArray(x)) return x.map((v: unknown) => fillDeep(v, values)) as T;
  if (x !== null && typeof x === 'object')
    return Object.fromEntries(
      Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fillDeep(v, values)]),
    ) as T;
  return x;
}

/** One step bound to `roles`. */
export function bindStep(t: StoryTemplate, roles: Roles): BoundStep {
  const { values } = roles;
  const focus = t.focus ? { focus: [...t.focus] } : {};
  let title: string;
  try {
    title = render(t.title, values);
  } catch (e) {
    if (!(e instanceof Unbound)) throw e;
    title = render(t.title, {});
  }
  try {
    for (const r of t.needs ?? []) if (values[r] === undefined) throw new Unbound(r);
    const scene = fillDeep(t.scene, values);
    const at = t.show.at;
    const transform = 'transform' in t.show ? t.show.transform : undefined;
    const show: StoryStep['show'] =
      at === 'start'
        ? { at: 'start' }
        : { at: fill(at, values) as Place, ...(transform ? { transform } : {}) };
    const body = render(t.body, values);
    return { applies: true, id: t.id, title, body, scene, show, ...focus };
  } catch (e) {
    if (!(e instanceof Unbound)) throw e;
    return {
      applies: false,
      id: t.id,
      title,
      reason: roles.why[e.role] ?? `The story's ${e.role} has no counterpart in your cluster.`,
      missing: e.role,
      ...focus,
    };
  }
}

/**
 * Binds every step of `walkthrough` to `cluster` (for the Service `service`, default: the one
 * `runScene` traces). Steps keep their order and number, applicable or not, so a step's index
 * means the same in every cluster.
 * @returns `{ id, title, steps: BoundStep[], roles, whatNext }`.
 * @throws {Error} when the cluster has no Service.
 */
export function bindWalkthrough(
  walkthrough: WalkthroughTemplate,
  cluster: Cluster,
  service?: string,
): BoundWalkthrough {
  const roles = storyRoles(cluster, service);
  const steps = walkthrough.steps.map((t) => bindStep(t, roles));
  let lastStep = -1;
  let dnatStep = -1;
  steps.forEach((s, i) => {
    if (!s.applies) return;
    lastStep = i;
    if (s.show.at !== 'start' && s.show.transform === 'DNAT') dnatStep = i;
  });
  const dnat = steps[dnatStep];
  const failNode =
    dnat?.applies && dnat.show.at.startsWith('node:')
      ? dnat.show.at.slice('node:'.length)
      : undefined;
  return {
    id: walkthrough.id,
    title: walkthrough.title,
    steps,
    roles,
    whatNext: {
      ...walkthrough.whatNext,
      lastStep,
      dnatStep,
      ...(failNode !== undefined ? { failNode } : {}),
    },
  };
}

/**
 * The story's world for `objects`: the objects resolved as they are. Every story step's scene
 * is {@link DEFAULT_SCENE} with the step's toggles, and of what DEFAULT_SCENE writes onto the
 * objects (`applyScene`) only the policy changes a role (the balancer's rotation), which
 * {@link storyRoles} takes as Cluster itself; ipMode, delivery and the kube-proxy mode change
 * no role, and DEFAULT_SCENE fails no node. So the objects need no copy (`applyScene` clones
 * them: 0.3–0.5 s for 1,000 nodes and 10,000 endpoints, against 30–130 ms to resolve).
 * @throws {ScenarioError} when the objects cannot be resolved.
 */
export function storyCluster(objects: readonly ScenarioObject[]): Cluster {
  return resolveCluster(objects);
}

/**
 * {@link bindWalkthrough} for a scenario's objects, resolved under the story's scene
 * ({@link storyCluster}).
 * @throws {ScenarioError} when the objects cannot be resolved; {@link Error} without a Service.
 */
export function bindToObjects(
  walkthrough: WalkthroughTemplate,
  objects: readonly ScenarioObject[],
  service?: string,
): BoundWalkthrough {
  return bindWalkthrough(walkthrough, storyCluster(objects), service);
}

/** The scene a bound step opens: `base` (default {@link DEFAULT_SCENE}) with the step's toggles. */
export function storyScene(step: ApplicableStep, base: SceneOptions = DEFAULT_SCENE): SceneOptions {
  return { ...base, ...step.scene };
}

/**
 * `walkthrough` with no step applicable, each for `reason` (e.g. the objects cannot be
 * resolved): what the panel shows instead of a story that cannot run.
 */
export function unboundWalkthrough(
  walkthrough: WalkthroughTemplate,
  reason: string,
): BoundWalkthrough {
  const roles: Roles = { service: '', values: {}, why: {} };
  return {
    id: walkthrough.id,
    title: walkthrough.title,
    steps: walkthrough.steps.map((t) => {
      const bound = bindStep({ ...t, needs: ['serviceName'] }, roles);
      return { ...bound, applies: false, reason, missing: 'serviceName' } as InapplicableStep;
    }),
    roles,
    whatNext: { ...walkthrough.whatNext, lastStep: -1, dnatStep: -1 },
  };
}
