/**
 * The roles of a walkthrough in one cluster ({@link storyRoles}): which of the cluster's own
 * nodes, endpoints and addresses plays each part a story names, and for each part no object
 * can play, why. See ./bind.ts for how the roles are chosen and what binds them to the steps.
 *
 * Facts: /work/shared/reference/kube-proxy.md (§1.3 per-service rules, §1.5 endpoint selection,
 * §2 health checks).
 */
import type { Cluster, ClusterNode, EndpointModel, ServiceModel } from '../scenario/cluster';
import { ingressHostname, servicePortKey } from '../scenario/cluster';
import { targetCandidates } from '../cloud/targets';

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

/** Each role's value in one cluster, and for every role left unbound, why. */
export interface Roles {
  /** The traced Service, `namespace/name` (the one `runScene` picks). */
  service: string;
  values: Partial<Record<RoleName, string>>;
  /** One plain sentence per unbound role, naming the cluster's own objects. */
  why: Partial<Record<RoleName, string>>;
}

const isReadyNode = (n: ClusterNode) => n.ready;

/** The endpoints kube-proxy may pick under Cluster: `ready` (reference §1.5). */
function readyEndpoints(cluster: Cluster, svc: ServiceModel): EndpointModel[] {
  const port = svc.ports[0];
  if (!port) return [];
  return (cluster.endpoints[servicePortKey(svc, port.name)] ?? []).filter((e) => e.ready);
}

const epId = (e: EndpointModel) => `${e.ip}:${e.port}`;

/** Binds roles: a value, or when there is none the reason. */
interface RoleBinder {
  values: Partial<Record<RoleName, string>>;
  why: Partial<Record<RoleName, string>>;
  set: (role: RoleName, value: string | undefined, reason: string) => void;
}

/** What the endpoint and balancer roles are chosen from. */
interface RoleGround {
  cluster: Cluster;
  svc: ServiceModel;
  /** The ready endpoints of the Service port, in EndpointSlice order. */
  eps: EndpointModel[];
  /** The ready endpoints on a node. */
  epsOn: (node: string) => EndpointModel[];
  /** The Service is type LoadBalancer. */
  isLB: boolean;
  /** It has a published address and a modelled balancer. */
  hasLB: boolean;
  /** The nodes in the balancer's rotation under the story's scene. */
  rotation: Set<string>;
  noBalancer: string;
}

/** The traced Service: `service` (`namespace/name`), else the first LoadBalancer, else the first. */
function tracedService(cluster: Cluster, service?: string): ServiceModel {
  const svc = service
    ? cluster.services.find((s) => `${s.namespace}/${s.name}` === service)
    : (cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0]);
  if (!svc) throw new Error(service ? `no Service "${service}"` : 'the scenario has no Service');
  return svc;
}

/** The Service's own roles: names, the client, the ports, the balancer and its address. */
function serviceRoles(
  b: RoleBinder,
  cluster: Cluster,
  svc: ServiceModel,
  noBalancer: string,
): void {
  const { values, set } = b;
  const name = svc.name;
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
  set('lbService', isLB ? svc.type : undefined, noBalancer);
  set(
    'lbAddress',
    // An AWS balancer publishes a DNS name only; that is the address the client dials.
    isLB ? (svc.ingress[0]?.ip ?? ingressHostname(svc)) : undefined,
    isLB
      ? `Your Service ${name} has no status.loadBalancer.ingress: nothing has published an address for it (kubectl shows EXTERNAL-IP <pending>), so a client outside has nothing to dial.`
      : `${noBalancer} There is no load-balancer address to dial.`,
  );
}

/**
 * The nodes in the balancer's rotation as the story's scene has it: under
 * externalTrafficPolicy: Cluster (DEFAULT_SCENE), whatever the objects say, the balancer asks
 * kube-proxy's /healthz on every node (reference §2.2). Empty without a balancer.
 */
function storyRotation(cluster: Cluster, svc: ServiceModel, hasLB: boolean): Set<string> {
  if (!hasLB) return new Set<string>();
  const asStory: ServiceModel = {
    ...svc,
    externalTrafficPolicy: 'Cluster',
    healthCheckNodePort: 0,
  };
  return new Set(
    targetCandidates(cluster, asStory)
      .filter((c) => c.eligible)
      .map((c) => c.id),
  );
}

/**
 * The endpoint roles: a ready endpoint, the node without one, the node with one (preferring
 * the rotation) and its endpoint, an endpoint on another node, and the remote endpoint.
 * @returns the pod node and its endpoint, for the balancer's roles.
 */
function endpointRoles(
  b: RoleBinder,
  g: RoleGround,
): { podNode: ClusterNode | undefined; podEndpoint: EndpointModel | undefined } {
  const { set } = b;
  const { cluster, svc, eps, epsOn, rotation } = g;
  const name = svc.name;
  const ready = cluster.nodes.filter(isReadyNode);
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

  const noEndpoints = noEndpointsReason(g);
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
  return { podNode, podEndpoint };
}

/** Why there is no pod node: no ready endpoint, or none on a Ready node. */
function noEndpointsReason(g: RoleGround): string {
  return g.eps.length === 0
    ? `Your Service ${g.svc.name} has no ready endpoints, so kube-proxy has nowhere to send the connection.`
    : `No Ready node runs a ready ${g.svc.name} Pod.`;
}

/** The balancer's roles: the node it is pinned to, the endpoint that node DNATs to, locality. */
function balancerRoles(
  b: RoleBinder,
  g: RoleGround,
  podNode: ClusterNode | undefined,
  podEndpoint: EndpointModel | undefined,
): void {
  const { why, set } = b;
  const { cluster, svc, isLB, hasLB, rotation, noBalancer } = g;
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
  set(
    'lbEndpoint',
    lbEndpoint && epId(lbEndpoint),
    lbNode ? noEndpointsReason(g) : (why.lbNode ?? ''),
  );
  set('lbEndpointIP', lbEndpoint?.ip, why.lbEndpoint ?? '');
  set('lbEndpointNode', lbEndpoint?.nodeName, why.lbEndpoint ?? '');
  set(
    'lbLocal',
    lbEndpoint && lbEndpoint.nodeName === lbNode?.name ? 'yes' : undefined,
    `The node the balancer picks runs no ready ${svc.name} Pod.`,
  );
}

/**
 * The roles of the story in `cluster` for the Service `service` (`namespace/name`; unset: the
 * one `runScene` picks — the first LoadBalancer Service, else the first Service). `cluster`
 * is read as the story's scene has it: the Service's rotation is the one under
 * `externalTrafficPolicy: Cluster` (see `storyCluster`, ./bind.ts).
 * @throws {Error} when the cluster has no such Service.
 */
export function storyRoles(cluster: Cluster, service?: string): Roles {
  const svc = tracedService(cluster, service);
  const key = `${svc.namespace}/${svc.name}`;
  const values: Partial<Record<RoleName, string>> = {};
  const why: Partial<Record<RoleName, string>> = {};
  const b: RoleBinder = {
    values,
    why,
    set: (role, value, reason) => {
      if (value !== undefined) values[role] = value;
      else why[role] = reason;
    },
  };
  const isLB = svc.type === 'LoadBalancer';
  const noBalancer = `Your Service ${svc.name} is type ${svc.type}: no balancer.`;
  serviceRoles(b, cluster, svc, noBalancer);

  const eps = readyEndpoints(cluster, svc);
  const byNode = new Map<string, EndpointModel[]>();
  for (const e of eps) byNode.set(e.nodeName, [...(byNode.get(e.nodeName) ?? []), e]);
  const hasLB =
    isLB &&
    (svc.ingress.length > 0 || ingressHostname(svc) !== undefined) &&
    cluster.loadBalancers.some((l) => l.service === key);
  const g: RoleGround = {
    cluster,
    svc,
    eps,
    epsOn: (node) => byNode.get(node) ?? [],
    isLB,
    hasLB,
    rotation: storyRotation(cluster, svc, hasLB),
    noBalancer,
  };
  const { podNode, podEndpoint } = endpointRoles(b, g);
  balancerRoles(b, g, podNode, podEndpoint);
  b.set(
    'readyPods',
    eps.length === 2
      ? 'both ready pods'
      : eps.length > 2
        ? `all ${eps.length} ready pods`
        : undefined,
    `Your Service ${svc.name} has ${eps.length === 0 ? 'no' : 'one'} ready endpoint.`,
  );
  return { service: key, values, why };
}
