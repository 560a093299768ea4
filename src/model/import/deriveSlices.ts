/**
 * The EndpointSlices the EndpointSlice controller would write for a Service with a selector,
 * from the Pods it selects. Sources: kubernetes/kubernetes
 * `staging/src/k8s.io/endpointslice/utils.go` (`podToEndpoint`, `getEndpointPorts`,
 * `setEndpointSliceLabels`), `reconciler.go` (one slice per distinct port list, a placeholder
 * slice when no Pod matches), `pkg/api/v1/pod/util.go` (`FindPort`: a named targetPort is
 * looked up in the Pod's containers' ports, name and protocol must both match; restartable
 * init containers count too) and `pkg/api/v1/endpoints/util.go` (`ShouldPodBeInEndpoints`: no
 * terminal Pods, no Pods without an IP; the slice controller keeps terminating Pods).
 */
import type { EndpointSlice } from '../k8s/objects';
import type { Rec } from './raw';
import {
  arr,
  ASSUMED_ANNOTATION,
  metaOf,
  plural,
  podIPv4,
  podReady,
  rec,
  SERVICE_NAME,
  str,
  strMap,
} from './raw';

/** The label the EndpointSlice controller sets on its slices (`discovery.LabelManagedBy`). */
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

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

/**
 * The Pods by namespace and by each string label, so that a selector's Pods are found from its
 * rarest label instead of by reading every Pod for every Service. Keeps input order.
 */
export class PodIndex {
  private readonly byLabel = new Map<string, Rec[]>();
  private readonly byNamespace = new Map<string, Rec[]>();

  constructor(pods: readonly Rec[]) {
    const push = (map: Map<string, Rec[]>, key: string, pod: Rec) => {
      const list = map.get(key);
      if (list) list.push(pod);
      else map.set(key, [pod]);
    };
    for (const pod of pods) {
      const { namespace } = metaOf(pod);
      push(this.byNamespace, namespace, pod);
      for (const [k, v] of Object.entries(strMap(rec(pod.metadata).labels)))
        push(this.byLabel, JSON.stringify([namespace, k, v]), pod);
    }
  }

  /** The Pods of `namespace` whose labels hold every pair of `selector`, in input order. */
  matching(namespace: string, selector: Record<string, string>): Rec[] {
    const entries = Object.entries(selector);
    if (entries.length === 0) return this.byNamespace.get(namespace) ?? [];
    let rarest: Rec[] | undefined;
    for (const [k, v] of entries) {
      const list = this.byLabel.get(JSON.stringify([namespace, k, v])) ?? [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return (rarest ?? []).filter((p) => {
      const labels = strMap(rec(p.metadata).labels);
      return entries.every(([k, v]) => labels[k] === v);
    });
  }
}

type EndpointPort = NonNullable<EndpointSlice['ports']>[number];
type Endpoint = EndpointSlice['endpoints'][number];

/**
 * `getEndpointPorts`: the Pod's port for each Service port, named as the Service names it; a
 * Service port whose named targetPort the Pod lacks is left out, with a note in `notes`.
 */
function endpointPorts(
  pod: Rec,
  servicePorts: Rec[],
  namespace: string,
  notes: string[],
): EndpointPort[] {
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
  return ports;
}

/**
 * `podToEndpoint`: the Pod's endpoint in a slice of Service `service` (`namespace/name`).
 * Serving is the Ready condition; ready is never true while terminating unless the Service
 * publishes not-ready addresses.
 */
function podEndpoint(
  pod: Rec,
  ip: string,
  service: { namespace: string; name: string },
  publishNotReady: boolean,
  nodeZones: Map<string, string>,
): Endpoint {
  const { namespace, name } = service;
  const podMeta = rec(pod.metadata);
  const podSpec = rec(pod.spec);
  const serving = podReady(pod);
  const terminating = podMeta.deletionTimestamp !== undefined && podMeta.deletionTimestamp !== null;
  const ready = publishNotReady || (serving && !terminating);
  const nodeName = str(podSpec.nodeName);
  const zone = nodeZones.get(nodeName);
  const uid = str(podMeta.uid);
  const hostname = str(podSpec.hostname);
  return {
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
}

/** `setEndpointSliceLabels`: the Service's labels, then the controller's own two. */
function sliceLabels(svcObj: Rec, name: string): Record<string, string> {
  const labels: Record<string, string> = { ...strMap(rec(svcObj.metadata).labels) };
  delete labels[SERVICE_NAME];
  delete labels[MANAGED_BY];
  if (str(rec(svcObj.spec).clusterIP) === 'None') labels['service.kubernetes.io/headless'] = '';
  labels[SERVICE_NAME] = name;
  labels[MANAGED_BY] = CONTROLLER_NAME;
  return labels;
}

/**
 * The endpoint slices the controller would write for `svc` (one per distinct port list, named
 * `<service>-derived`, `-derived-2`, …), or undefined when it writes none (no selector, or
 * type ExternalName). Pushes what it assumed onto `assumed`.
 */
export function deriveSlices(
  svcObj: Rec,
  pods: PodIndex,
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
  const groups = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
  const notes: string[] = [];
  let used = 0;
  for (const pod of pods.matching(namespace, selector)) {
    const phase = str(rec(pod.status).phase);
    const ip = podIPv4(pod);
    // ShouldPodBeInEndpoints(pod, includeTerminating=true).
    if (phase === 'Succeeded' || phase === 'Failed' || ip === '') continue;
    used++;
    const ports = endpointPorts(pod, servicePorts, namespace, notes);
    const endpoint = podEndpoint(pod, ip, { namespace, name }, publishNotReady, nodeZones);
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? { ports, endpoints: [] };
    group.endpoints.push(endpoint);
    groups.set(key, group);
  }
  // No Pod: the controller still writes one empty placeholder slice.
  if (groups.size === 0) groups.set('[]', { ports: [], endpoints: [] });

  const labels = sliceLabels(svcObj, name);
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
