/**
 * Service checks: `ValidateService` and `ValidateLoadBalancerStatus` from
 * kubernetes/kubernetes pkg/apis/core/validation/validation.go, the NodePort allocator of
 * pkg/registry/core/service/storage/alloc.go (`initNodePorts`, `allocHealthCheckNodePort`)
 * with the port allocator's messages (pkg/registry/core/service/portallocator), and two
 * warnings of ours that compare a Service with the Pods in the same input.
 *
 * Defaults the API server applies before validating (pkg/apis/core/v1/defaults.go,
 * `SetDefaults_Service`) are taken into account: an empty `type` is ClusterIP, an empty
 * `sessionAffinity` None, an empty `protocol` TCP, a zero/empty `targetPort` the `port`, a
 * missing `externalTrafficPolicy` Cluster on externally-accessible Services, a missing
 * `sessionAffinityConfig.clientIP.timeoutSeconds` 10800.
 */
import {
  checkIP,
  isObj,
  isString,
  prop,
  SUPPORTED_PROTOCOLS,
  type Checker,
  type Obj,
} from './checks';
import {
  CIDR_DETAIL,
  IP_DETAIL,
  duplicate,
  forbidden,
  invalid,
  notSupported,
  portNameDetails,
  portNumDetails,
  required,
} from './field';
import { isCIDR, parseIP, specialIPDetails } from './ip';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_MODES = ['Proxy', 'VIP'];
/** The default `--service-node-port-range`. */
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;
/** `core.MaxClientIPServiceAffinitySeconds`. */
const MAX_AFFINITY_SECONDS = 86400;
const LB_ONLY = "may only be used when `type` is 'LoadBalancer'";

/**
 * The NodePorts taken so far by the Services read before, as the API server's allocator
 * would hold them had the Services been created in input order.
 */
export class NodePortAllocator {
  private readonly used = new Set<number>();

  /** `PortAllocator.Allocate`: the error text, or undefined when the port is now taken. */
  allocate(port: number): string | undefined {
    if (port < NODE_PORT_MIN || port > NODE_PORT_MAX) {
      return `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`;
    }
    if (this.used.has(port)) return 'provided port is already allocated';
    this.used.add(port);
    return undefined;
  }
}

interface Port {
  index: number;
  name: string | undefined;
  port: number;
  /** False when `port` had the wrong type (already reported). */
  portOk: boolean;
  nodePort: number;
  protocol: string;
  targetPort: unknown;
}

/** The spec fields the checks and the warnings share. */
export interface ServiceFacts {
  type: string;
  ports: Port[];
  selector: Record<string, string>;
}

/**
 * The allocator's view (alloc.go): only NodePort and LoadBalancer Services get NodePorts;
 * ports with the same `port` number share one (`findRequestedNodePort`). It runs before
 * validation and the API server stops at its first failure, so it answers alone; here every
 * port is tried, to report all problems at once. Returns the indices it reported.
 */
function allocateNodePorts(c: Checker, ports: Port[], alloc: NodePortAllocator): Set<number> {
  const reported = new Set<number>();
  const byPort = new Map<number, number>();
  // The first non-zero nodePort asked for each port number (what a search of `ports` finds).
  const firstAsked = new Map<number, number>();
  for (const q of ports)
    if (q.nodePort !== 0 && !firstAsked.has(q.port)) firstAsked.set(q.port, q.nodePort);
  for (const p of ports) {
    const path = `spec.ports[${p.index}].nodePort`;
    const shared = byPort.get(p.port) ?? 0;
    let want = 0;
    if (shared === 0) {
      want = firstAsked.get(p.port) ?? 0;
    } else if (p.nodePort !== 0 && p.nodePort !== shared) {
      want = p.nodePort;
    }
    if (want === 0) continue; // auto-allocated, or sharing the port's NodePort
    const err = alloc.allocate(want);
    if (err) {
      c.error(path, invalid(path, want, err));
      reported.add(p.index);
    } else if (shared === 0) byPort.set(p.port, want);
  }
  return reported;
}

function readPorts(c: Checker, spec: Obj | undefined): Port[] {
  return c.objects(spec, 'ports', 'spec.ports').map(([p, index]) => {
    const path = `spec.ports[${index}]`;
    const name = c.str(p, 'name', `${path}.name`);
    const protocol = c.str(p, 'protocol', `${path}.protocol`) || 'TCP';
    const portValue = prop(p, 'port');
    const portRead = c.int(p, 'port', `${path}.port`);
    // Absent is Go's zero (and reported as 0); a wrong type was reported already.
    const portOk = portRead !== undefined || portValue === undefined || portValue === null;
    const port = portRead ?? 0;
    const nodePort = c.int(p, 'nodePort', `${path}.nodePort`) ?? 0;
    let targetPort = prop(p, 'targetPort');
    if (targetPort !== undefined && targetPort !== null && typeof targetPort !== 'string') {
      if (typeof targetPort !== 'number' || !Number.isInteger(targetPort)) {
        c.error(
          `${path}.targetPort`,
          invalid(`${path}.targetPort`, targetPort, 'must be an integer or a string'),
        );
        targetPort = undefined;
      }
    }
    return { index, name, port, portOk, nodePort, protocol, targetPort };
  });
}

/** `validateServicePort` (validation.go) for each port: name, port, protocol, targetPort. */
function checkPorts(c: Checker, ports: Port[]): void {
  const names = new Set<string>();
  for (const p of ports) {
    const path = `spec.ports[${p.index}]`;
    const name = p.name;
    if (ports.length > 1 && !name) c.error(`${path}.name`, required(`${path}.name`));
    else if (name) {
      if (names.has(name)) c.error(`${path}.name`, duplicate(`${path}.name`, name));
      names.add(name);
    }
    const portDetails = p.portOk ? portNumDetails(p.port) : [];
    for (const d of portDetails) c.error(`${path}.port`, invalid(`${path}.port`, p.port, d));
    if (!SUPPORTED_PROTOCOLS.includes(p.protocol)) {
      c.error(
        `${path}.protocol`,
        notSupported(`${path}.protocol`, p.protocol, SUPPORTED_PROTOCOLS),
      );
    }
    // ValidatePortNumOrName; 0 and "" were defaulted to `port`.
    const tp = p.targetPort;
    const tpPath = `${path}.targetPort`;
    const details =
      typeof tp === 'number' && tp !== 0
        ? portNumDetails(tp)
        : typeof tp === 'string' && tp !== ''
          ? portNameDetails(tp)
          : [];
    for (const d of details) c.error(tpPath, invalid(tpPath, tp, d));
  }
}

/** `validateClientIPAffinityConfig` / `validateAffinityTimeout` and the None case. */
function checkAffinity(c: Checker, spec: Obj | undefined): void {
  const affinity = c.str(spec, 'sessionAffinity', 'spec.sessionAffinity') || 'None';
  if (!AFFINITIES.includes(affinity)) {
    c.error('spec.sessionAffinity', notSupported('spec.sessionAffinity', affinity, AFFINITIES));
  }
  const config = c.obj(spec, 'sessionAffinityConfig', 'spec.sessionAffinityConfig');
  if (affinity === 'ClientIP') {
    const path = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
    const clientIP = c.obj(config, 'clientIP', 'spec.sessionAffinityConfig.clientIP');
    const t = c.int(clientIP, 'timeoutSeconds', path) ?? 10800;
    if (t <= 0 || t > MAX_AFFINITY_SECONDS) {
      c.error(
        path,
        invalid(path, t, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`),
      );
    }
  } else if (affinity === 'None' && config) {
    c.error(
      'spec.sessionAffinityConfig',
      forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'),
    );
  }
}

/**
 * `spec.loadBalancerSourceRanges`. Upstream names the field `spec.LoadBalancerSourceRanges`
 * (capital L, `specPath.Child("LoadBalancerSourceRanges")`), so the messages do too; the
 * finding's `path` is the field as written.
 */
function checkSourceRanges(c: Checker, spec: Obj | undefined, type: string): void {
  const path = 'spec.loadBalancerSourceRanges';
  const list = c.list(spec, 'loadBalancerSourceRanges', path) ?? [];
  const ranges = c.items(list, path, isString, 'a string');
  if (list.length === 0) return;
  if (type !== 'LoadBalancer') {
    c.error(path, forbidden('spec.LoadBalancerSourceRanges', LB_ONLY));
  }
  for (const [raw, i] of ranges) {
    const value = raw.trim(); // "these values are allowed to be space-padded"
    if (!isCIDR(value)) {
      c.error(`${path}[${i}]`, invalid(`spec.LoadBalancerSourceRanges[${i}]`, value, CIDR_DETAIL));
    }
  }
}

/** `validateServiceExternalTrafficPolicy`, with the allocator's health check NodePort. */
function checkTrafficPolicy(
  c: Checker,
  spec: Obj | undefined,
  type: string,
  alloc: NodePortAllocator,
): void {
  const externalIPs = c.strings(spec, 'externalIPs', 'spec.externalIPs');
  for (const [ip, i] of externalIPs) {
    const path = `spec.externalIPs[${i}]`;
    const parsed = parseIP(ip);
    checkIP(c, path, ip);
    if (parsed) for (const d of specialIPDetails(ip, parsed)) c.error(path, invalid(path, ip, d));
  }
  // apiservice.ExternallyAccessible.
  const external =
    type === 'LoadBalancer' ||
    type === 'NodePort' ||
    (type === 'ClusterIP' && externalIPs.length > 0);
  const etp = c.str(spec, 'externalTrafficPolicy', 'spec.externalTrafficPolicy') ?? '';
  const etpPath = 'spec.externalTrafficPolicy';
  if (!external && etp !== '') {
    c.error(etpPath, invalid(etpPath, etp, 'may only be set for externally-accessible services'));
  } else if (external && etp !== '' && !TRAFFIC_POLICIES.includes(etp)) {
    c.error(etpPath, notSupported(etpPath, etp, TRAFFIC_POLICIES));
  }
  const hcnp = c.int(spec, 'healthCheckNodePort', 'spec.healthCheckNodePort') ?? 0;
  const path = 'spec.healthCheckNodePort';
  if (hcnp === 0) return;
  if (!(type === 'LoadBalancer' && etp === 'Local')) {
    const detail =
      "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'";
    c.error(path, invalid(path, hcnp, detail));
    return;
  }
  // allocHealthCheckNodePort: wrapped in errors.NewInternalError, not a field error.
  const err = alloc.allocate(hcnp);
  if (err) {
    c.error(
      path,
      `Internal error occurred: failed to allocate requested HealthCheck NodePort ${hcnp}: ${err}`,
    );
  }
  for (const d of portNumDetails(hcnp)) c.error(path, invalid(path, hcnp, d));
}

/**
 * `ValidateLoadBalancerStatus` (validation.go) on `status.loadBalancer.ingress`. An `ip`
 * without `ipMode` is not reported: for a LoadBalancer Service the API server defaults
 * `ipMode` to VIP first (`SetDefaults_Service`), so the `Required value` never shows.
 */
function checkStatus(c: Checker, svc: Obj): void {
  const lb = c.obj(c.obj(svc, 'status', 'status'), 'loadBalancer', 'status.loadBalancer');
  for (const [ing, i] of c.objects(lb, 'ingress', 'status.loadBalancer.ingress')) {
    const path = `status.loadBalancer.ingress[${i}]`;
    const ip = c.str(ing, 'ip', `${path}.ip`) ?? '';
    if (ip !== '') checkIP(c, `${path}.ip`, ip);
    const mode = c.str(ing, 'ipMode', `${path}.ipMode`);
    if (mode === undefined) continue;
    if (ip === '') {
      c.error(
        `${path}.ipMode`,
        forbidden(`${path}.ipMode`, 'may not be specified when `ip` is not set'),
      );
    } else if (!IP_MODES.includes(mode)) {
      c.error(`${path}.ipMode`, notSupported(`${path}.ipMode`, mode, IP_MODES));
    }
  }
}

/**
 * `spec.clusterIPs`, each a valid IP (`None` only first): `ValidateService` in
 * pkg/apis/core/validation/validation.go runs `validation.IsValidIP(clusterIPsField.Index(i),
 * ip)`. The API server fills `clusterIPs` from `clusterIP` before validating, so a bad
 * `clusterIP` is reported as `spec.clusterIPs[0]` (placed at the `clusterIP` line). Not
 * checked here: that `clusterIP` equals `clusterIPs[0]` when both are given.
 */
function checkClusterIPs(c: Checker, spec: Obj | undefined): void {
  const listed = c.strings(spec, 'clusterIPs', 'spec.clusterIPs');
  const single = c.str(spec, 'clusterIP', 'spec.clusterIP');
  const values: [string, string][] =
    listed.length > 0
      ? listed.map(([ip, i]) => [ip, `spec.clusterIPs[${i}]`])
      : single !== undefined && single !== ''
        ? [[single, 'spec.clusterIP']]
        : [];
  values.forEach(([ip, at], i) => {
    if (i === 0 && ip === 'None') return;
    if (!parseIP(ip)) c.error(at, invalid(`spec.clusterIPs[${i}]`, ip, IP_DETAIL));
  });
}

/** All API checks of one Service; returns what the warnings need. */
export function checkService(c: Checker, svc: Obj, alloc: NodePortAllocator): ServiceFacts {
  const spec = c.obj(svc, 'spec', 'spec');
  const typeText = c.str(spec, 'type', 'spec.type') || 'ClusterIP';
  const ports = readPorts(c, spec);
  const byAllocator =
    typeText === 'NodePort' || typeText === 'LoadBalancer'
      ? allocateNodePorts(c, ports, alloc)
      : new Set<number>();
  const headless = prop(spec, 'clusterIP') === 'None';
  checkClusterIPs(c, spec);
  if (ports.length === 0 && !headless && typeText !== 'ExternalName') {
    c.error('spec.ports', required('spec.ports'));
  }
  checkPorts(c, ports);
  checkAffinity(c, spec);
  if (!TYPES.includes(typeText)) c.error('spec.type', notSupported('spec.type', typeText, TYPES));
  const seen = new Set<string>();
  for (const p of ports) {
    const path = `spec.ports[${p.index}].nodePort`;
    if (p.nodePort === 0) continue;
    if (typeText === 'ClusterIP') {
      c.error(path, forbidden(path, "may not be used when `type` is 'ClusterIP'"));
    }
    const key = `${p.protocol}/${p.nodePort}`;
    if (seen.has(key) && !byAllocator.has(p.index)) c.error(path, duplicate(path, p.nodePort));
    seen.add(key);
  }
  checkSourceRanges(c, spec, typeText);
  for (const field of ['allocateLoadBalancerNodePorts', 'loadBalancerClass']) {
    const v = prop(spec, field);
    if (v !== undefined && v !== null && typeText !== 'LoadBalancer') {
      c.error(`spec.${field}`, forbidden(`spec.${field}`, LB_ONLY));
    }
  }
  checkTrafficPolicy(c, spec, typeText, alloc);
  // A pointer: only absence is defaulted, so "" is reported too.
  const itpPath = 'spec.internalTrafficPolicy';
  const itp = c.str(spec, 'internalTrafficPolicy', itpPath);
  if (itp !== undefined && !TRAFFIC_POLICIES.includes(itp)) {
    c.error(itpPath, notSupported(itpPath, itp, TRAFFIC_POLICIES));
  }
  checkStatus(c, svc);
  const selector: Record<string, string> = {};
  const raw = c.obj(spec, 'selector', 'spec.selector');
  for (const [k, v] of Object.entries(raw ?? {})) if (typeof v === 'string') selector[k] = v;
  return { type: typeText, ports, selector };
}

/** A Pod as the warnings need it. */
export interface PodFacts {
  namespace: string;
  labels: Record<string, unknown>;
  /** `protocol/name` of every named container port. */
  portNames: Set<string>;
}

/** Reads what {@link selectorWarnings} needs from a Pod (no findings: the Pod's own checks report). */
export function podFacts(pod: Obj): PodFacts {
  const meta = prop(pod, 'metadata');
  const labels = prop(meta, 'labels');
  const portNames = new Set<string>();
  const containers = prop(prop(pod, 'spec'), 'containers');
  for (const ctr of Array.isArray(containers) ? containers : []) {
    const ports = prop(ctr, 'ports');
    for (const p of Array.isArray(ports) ? ports : []) {
      const name = prop(p, 'name');
      const protocol = prop(p, 'protocol');
      if (typeof name === 'string')
        portNames.add(`${typeof protocol === 'string' && protocol ? protocol : 'TCP'}/${name}`);
    }
  }
  const ns = prop(meta, 'namespace');
  return {
    namespace: typeof ns === 'string' && ns ? ns : 'default',
    labels: isObj(labels) ? labels : {},
    portNames,
  };
}

/**
 * The Pods of the input indexed by namespace and string label, so that a selector's Pods are
 * found from its rarest label rather than by reading every Pod for every Service.
 */
export class PodFactsIndex {
  /** How many Pods there are. */
  readonly size: number;
  private readonly byLabel = new Map<string, PodFacts[]>();

  constructor(pods: readonly PodFacts[]) {
    this.size = pods.length;
    for (const pod of pods)
      for (const [k, v] of Object.entries(pod.labels)) {
        if (typeof v !== 'string') continue;
        const key = JSON.stringify([pod.namespace, k, v]);
        const list = this.byLabel.get(key);
        if (list) list.push(pod);
        else this.byLabel.set(key, [pod]);
      }
  }

  /** The Pods of `namespace` whose labels hold every `[key, value]` of `entries` (not empty), in input order. */
  matching(namespace: string, entries: readonly [string, string][]): PodFacts[] {
    let rarest: PodFacts[] | undefined;
    for (const [k, v] of entries) {
      const list = this.byLabel.get(JSON.stringify([namespace, k, v])) ?? [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return (rarest ?? []).filter((p) => entries.every(([k, v]) => prop(p.labels, k) === v));
  }
}

/**
 * Ours, warnings: a selector that matches no Pod of the input (when it has Pods), and a
 * named `targetPort` that none of the selected Pods declares (`FindPort` in
 * pkg/api/v1/pod/util.go matches `containers[].ports[].name` and the protocol), which leaves
 * that port without endpoints.
 */
export function selectorWarnings(
  c: Checker,
  svc: ServiceFacts,
  namespace: string,
  pods: PodFactsIndex,
): void {
  const entries = Object.entries(svc.selector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (pods.size === 0 || entries.length === 0 || svc.type === 'ExternalName') return;
  const selected = pods.matching(namespace, entries);
  if (selected.length === 0) {
    const text = entries.map(([k, v]) => `${k}=${v}`).join(',');
    c.warn('spec.selector', `spec.selector: no Pod in the input matches ${text}`);
    return;
  }
  for (const p of svc.ports) {
    const tp = p.targetPort;
    if (typeof tp !== 'string' || tp === '' || portNameDetails(tp).length > 0) continue;
    if (selected.some((pod) => pod.portNames.has(`${p.protocol}/${tp}`))) continue;
    const path = `spec.ports[${p.index}].targetPort`;
    c.warn(
      path,
      `${path}: no selected Pod declares a ${p.protocol} container port named "${tp}", so this port has no endpoints`,
    );
  }
}
