/**
 * Text → scenario objects, for the CLI (the app's full importer with API-server validation
 * is issue #4). Reads JSON or YAML, one object, several YAML documents, or a `kind: List`
 * as `kubectl get … -o yaml` prints it; kinds the model does not use are skipped and named.
 */
import { parseAllDocuments } from 'yaml';
import { expandedOutOfBounds, outOfBounds } from './bounds';
import { KUBECTL_TAGS } from './yamlTags';
import type { ScenarioObject } from '../k8s/objects';
import { OUR_GROUP } from '../k8s/objects';

/** The kinds the model reads; any other kind in the input is skipped with a notice. */
export const KINDS: ReadonlySet<string> = new Set([
  'Service',
  'EndpointSlice',
  'Endpoints',
  'Node',
  'Pod',
  'KubeProxyConfiguration',
  'ServiceCIDR',
  'CloudLoadBalancer',
  'Client',
]);

/** The result of {@link loadObjects}. */
export interface Loaded {
  objects: ScenarioObject[];
  /** Kinds that were skipped, e.g. `Deployment default/web`. */
  skipped: string[];
}

/** Raised for text that is not YAML/JSON or holds no objects; the message names line and column when YAML says so. */
export class LoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadError';
  }
}

function flatten(doc: unknown, out: unknown[]): void {
  if (doc && typeof doc === 'object' && (doc as { kind?: unknown }).kind === 'List') {
    for (const item of (doc as { items?: unknown[] }).items ?? []) flatten(item, out);
  } else if (Array.isArray(doc)) for (const d of doc) flatten(d, out);
  else if (doc !== null && doc !== undefined) out.push(doc);
}

/**
 * How a skipped value is named in {@link Loaded.skipped}: `<kind> [<namespace>/]<name>`, e.g.
 * `Deployment shop/web`; a value without a kind (a plain scalar) reads `undefined`.
 */
export function skippedLabel(o: unknown): string {
  const kind = (o as { kind?: unknown } | null | undefined)?.kind;
  const meta = (o as { metadata?: { namespace?: string; name?: string } } | null | undefined)
    ?.metadata;
  return `${String(kind)} ${meta?.namespace ? `${meta.namespace}/` : ''}${meta?.name ?? ''}`.trim();
}

/**
 * Parses `text` (YAML or JSON) into scenario objects.
 * @throws {LoadError} on a syntax error (`line L, column C: …`) or when no object is found.
 */
export function loadObjects(text: string): Loaded {
  const bounds = outOfBounds(text);
  if (bounds) throw new LoadError(bounds.message);
  const docs = parseAllDocuments(text, { logLevel: 'error', customTags: KUBECTL_TAGS });
  const raw: unknown[] = [];
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    const err = d.errors[0];
    if (err) {
      const pos = err.linePos?.[0];
      throw new LoadError(
        pos ? `line ${pos.line}, column ${pos.col}: ${err.message.split('\n')[0]}` : err.message,
      );
    }
    const value: unknown = d.toJS();
    const expanded = expandedOutOfBounds(value);
    if (expanded)
      throw new LoadError(
        expanded === 'cycle'
          ? "an anchor's value contains itself"
          : 'aliases nest the document too deep',
      );
    flatten(value, raw);
  }
  const objects: ScenarioObject[] = [];
  const skipped: string[] = [];
  for (const o of raw) {
    const kind = (o as { kind?: unknown }).kind;
    if (typeof kind === 'string' && KINDS.has(kind)) objects.push(o as ScenarioObject);
    else skipped.push(skippedLabel(o));
  }
  if (objects.length === 0) throw new LoadError('no Service, EndpointSlice, Node or Pod found');
  return { objects, skipped };
}

/**
 * The address a hostname-only balancer's DNS name stands for: the first of 203.0.113.10,
 * .11, … (RFC 5737 TEST-NET-3) not in `used` (the addresses the objects already hold), which
 * it joins, so two such balancers never share one.
 */
function dnsPlaceholder(used: Set<string>): string {
  let host = 10;
  while (host < 254 && used.has(`203.0.113.${host}`)) host++;
  const ip = `203.0.113.${host}`;
  used.add(ip);
  return ip;
}

/** Every address the objects hold: Node addresses, Pod IPs, Service and balancer addresses. */
function addressesIn(objects: readonly ScenarioObject[]): Set<string> {
  const used = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'Node') for (const a of o.status?.addresses ?? []) used.add(a.address);
    else if (o.kind === 'Pod') used.add(o.status?.podIP ?? '');
    else if (o.kind === 'Service') {
      used.add(o.spec?.clusterIP ?? '');
      for (const ip of o.spec?.externalIPs ?? []) used.add(ip);
      for (const i of o.status?.loadBalancer?.ingress ?? []) used.add(i.ip ?? '');
    } else if (o.kind === 'CloudLoadBalancer') used.add(o.spec.address ?? '');
  }
  return used;
}

/**
 * Adds what a cluster cannot tell: an internet client (198.51.100.23, RFC 5737) and, for
 * each LoadBalancer Service with a published address, a cloud load balancer that targets
 * NodePorts (at the published IP; for a hostname-only ingress, at a placeholder the name is
 * taken to resolve to, see `dnsPlaceholder`). Existing objects of those kinds are kept.
 * @returns the objects and the assumptions made, in words.
 */
export function completeScenario(objects: ScenarioObject[]): {
  objects: ScenarioObject[];
  assumed: string[];
} {
  const out = [...objects];
  const assumed: string[] = [];
  if (!out.some((o) => o.kind === 'Client')) {
    out.push({
      apiVersion: OUR_GROUP,
      kind: 'Client',
      metadata: { name: 'internet' },
      spec: { location: 'Internet', address: '198.51.100.23', sourcePort: 51234 },
    });
    assumed.push('a client on the internet at 198.51.100.23');
  }
  // The Services that have a balancer already (read at the first LoadBalancer Service, as the
  // search it replaces did), kept up to date as balancers are added.
  let balanced: Set<unknown> | undefined;
  let used: Set<string> | undefined;
  for (const o of objects) {
    if (o.kind !== 'Service' || o.spec?.type !== 'LoadBalancer') continue;
    const ns: unknown = o.metadata?.namespace;
    const name: unknown = o.metadata?.name;
    // Names of the wrong shape must not throw here (the validator reports them).
    const key = `${typeof ns === 'string' ? ns : 'default'}/${typeof name === 'string' ? name : ''}`;
    if (!balanced) {
      balanced = new Set();
      for (const x of out) if (x.kind === 'CloudLoadBalancer') balanced.add(x.spec.service);
    }
    if (balanced.has(key)) continue;
    balanced.add(key);
    const ingress = o.status?.loadBalancer?.ingress ?? [];
    const hostname = ingress.some((i) => i.ip)
      ? undefined
      : ingress.find((i) => i.hostname)?.hostname;
    const ip = hostname
      ? dnsPlaceholder((used ??= addressesIn(out)))
      : ingress.find((i) => i.ip)?.ip;
    out.push({
      apiVersion: OUR_GROUP,
      kind: 'CloudLoadBalancer',
      metadata: { name: `${o.metadata?.name ?? 'svc'}-lb` },
      spec: { service: key, delivery: 'NodePort', ...(ip ? { address: ip } : {}) },
    });
    assumed.push(
      hostname
        ? `a cloud load balancer for ${key} that targets NodePorts; its name ${hostname} resolves to ${ip ?? ''} (the model does no DNS lookup: a documentation address, RFC 5737, stands for the balancer's own)`
        : `a cloud load balancer for ${key} that targets NodePorts`,
    );
  }
  return { objects: out, assumed };
}
