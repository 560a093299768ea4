/**
 * The field checks for EndpointSlice, Node and Pod, and the typed field reader the Service
 * checks share. Sources are cited per rule; where a check is ours and not the API server's,
 * the comment says so.
 */
import { IP_DETAIL, invalid, notSupported, portNumDetails, required } from './field';
import { isV4, parseIP, specialIPDetails } from './ip';

/** One finding about one object; `path` is the field in the input, `message` the full line. */
export interface Finding {
  severity: 'error' | 'warning';
  path: string;
  message: string;
}

/** A plain JSON object as parsed from YAML. */
export type Obj = Record<string, unknown>;

/** The value of an own property (never one inherited from `Object.prototype`). */
export function prop(o: unknown, key: string): unknown {
  return isObj(o) && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** True for a JSON object (not an array, not null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Collects findings for one object and reads its fields with the types the API expects.
 * A value of the wrong JSON type is reported and read as absent. The API server rejects such
 * a manifest while decoding it (`json: cannot unmarshal …`), before any validation; that text
 * names Go types, so the wording of these type errors is ours.
 */
export class Checker {
  /** What was found, in the order the rules ran. */
  readonly findings: Finding[] = [];

  /** `path` and message of every finding so far: two rules that see the same fault say it once. */
  private readonly seen = new Set<string>();

  private add(severity: Finding['severity'], path: string, message: string): void {
    const key = `${path}\n${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.findings.push({ severity, path, message });
  }

  /** Records an error at `path` (once, however many rules find it). */
  error(path: string, message: string): void {
    this.add('error', path, message);
  }

  /** Records a warning at `path` (once). */
  warn(path: string, message: string): void {
    this.add('warning', path, message);
  }

  /** Records a value of the wrong JSON type at `path`: `<path>: Invalid value: <v>: must be <what>`. */
  typeError(path: string, v: unknown, what: string): void {
    this.wrongType(path, v, what);
  }

  private wrongType(path: string, v: unknown, what: string): undefined {
    this.error(path, invalid(path, v, `must be ${what}`));
    return undefined;
  }

  /** An integer field; `null` and absence read as undefined (Go's zero value follows). */
  int(o: unknown, key: string, path: string): number | undefined {
    const v = prop(o, key);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    return this.wrongType(path, v, 'an integer');
  }

  /** A string field. */
  str(o: unknown, key: string, path: string): string | undefined {
    const v = prop(o, key);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    return this.wrongType(path, v, 'a string');
  }

  /** A list field. */
  list(o: unknown, key: string, path: string): unknown[] | undefined {
    const v = prop(o, key);
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v)) return v;
    return this.wrongType(path, v, 'a list');
  }

  /** An object field. */
  obj(o: unknown, key: string, path: string): Obj | undefined {
    const v = prop(o, key);
    if (v === undefined || v === null) return undefined;
    if (isObj(v)) return v;
    return this.wrongType(path, v, 'an object');
  }

  /** A list of objects: each item that is not an object is reported; the index is kept. */
  objects(o: unknown, key: string, path: string): [Obj, number][] {
    return this.items(this.list(o, key, path), path, isObj, 'an object');
  }

  /** A list of strings, with indices. */
  strings(o: unknown, key: string, path: string): [string, number][] {
    return this.items(this.list(o, key, path), path, isString, 'a string');
  }

  /** The items of `list` that pass `test`, with their indices; the others are reported. */
  items<T>(
    list: unknown[] | undefined,
    path: string,
    test: (v: unknown) => v is T,
    what: string,
  ): [T, number][] {
    const out: [T, number][] = [];
    (list ?? []).forEach((item, i) => {
      if (test(item)) out.push([item, i]);
      else if (item !== null) this.wrongType(`${path}[${i}]`, item, what);
    });
    return out;
  }
}

/** True for a string. */
export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

/** `validation.IsValidIP` (apimachinery ip.go): one error for an unparseable address. */
export function checkIP(c: Checker, path: string, value: string): void {
  if (!parseIP(value)) c.error(path, invalid(path, value, IP_DETAIL));
}

const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** The port protocols the API accepts, sorted as `sets.List` prints them. */
export const SUPPORTED_PROTOCOLS: readonly string[] = PORT_PROTOCOLS;

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

/**
 * EndpointSlice, after pkg/apis/discovery/validation/validation.go (`ValidateEndpointSlice`):
 * `validateAddressType`, `validateEndpoints` (IPv4/IPv6 addresses:
 * `IsValidIPv4Address`/`IsValidIPv6Address`, then `ValidateEndpointIP`) and `validatePorts`
 * (protocol). FQDN addresses are not checked here.
 */
export function checkEndpointSlice(c: Checker, slice: Obj): void {
  const addressType = c.str(slice, 'addressType', 'addressType') ?? '';
  if (addressType === '') c.error('addressType', required('addressType'));
  else if (!ADDRESS_TYPES.includes(addressType)) {
    c.error('addressType', notSupported('addressType', addressType, ADDRESS_TYPES));
  }
  for (const [ep, i] of c.objects(slice, 'endpoints', 'endpoints')) {
    const path = `endpoints[${i}].addresses`;
    const list = c.list(ep, 'addresses', path) ?? [];
    if (list.length === 0) c.error(path, required(path, 'must contain at least 1 address'));
    const addresses = c.items(list, path, isString, 'a string');
    if (addressType !== 'IPv4' && addressType !== 'IPv6') continue;
    for (const [addr, j] of addresses) {
      const p = `${path}[${j}]`;
      const ip = parseIP(addr);
      if (addressType === 'IPv4' && !(ip && isV4(ip))) {
        c.error(p, invalid(p, addr, 'must be a valid IPv4 address'));
      }
      if (addressType === 'IPv6' && !(ip && !isV4(ip))) {
        c.error(p, invalid(p, addr, 'must be a valid IPv6 address'));
      }
      // ValidateEndpointIP (pkg/apis/core/validation/validation.go).
      if (!ip) c.error(p, invalid(p, addr, 'must be a valid IP address'));
      else for (const d of specialIPDetails(addr, ip)) c.error(p, invalid(p, addr, d));
    }
  }
  for (const [port, i] of c.objects(slice, 'ports', 'ports')) {
    const path = `ports[${i}]`;
    // Ours, not the API server's: upstream validatePorts does not range-check `port`, but no
    // packet can carry a port outside 1-65535, so the model cannot use one.
    const num = c.int(port, 'port', `${path}.port`);
    if (num !== undefined) {
      for (const d of portNumDetails(num)) c.error(`${path}.port`, invalid(`${path}.port`, num, d));
    }
    const protocol = c.str(port, 'protocol', `${path}.protocol`);
    if (protocol !== undefined && !PORT_PROTOCOLS.includes(protocol)) {
      c.error(`${path}.protocol`, notSupported(`${path}.protocol`, protocol, PORT_PROTOCOLS));
    }
  }
}

/**
 * Node: every InternalIP/ExternalIP in `status.addresses` must be an IP address.
 * Ours, not the API server's: `ValidateNodeUpdate` only rejects duplicate addresses, but the
 * model routes to these addresses. The message uses `IsValidIP`'s detail.
 */
export function checkNode(c: Checker, node: Obj): void {
  const status = c.obj(node, 'status', 'status');
  for (const [addr, i] of c.objects(status, 'addresses', 'status.addresses')) {
    const type = c.str(addr, 'type', `status.addresses[${i}].type`);
    if (type !== 'InternalIP' && type !== 'ExternalIP') continue;
    const path = `status.addresses[${i}].address`;
    const value = c.str(addr, 'address', path);
    if (value !== undefined) checkIP(c, path, value);
  }
}

/**
 * Pod: `status.podIP` and `status.podIPs[].ip`, as `validatePodIPs` checks them on a status
 * update (pkg/apis/core/validation/validation.go; upstream reports `status.podIPs[0].ip`, to
 * which `podIP` is converted).
 */
export function checkPod(c: Checker, pod: Obj): void {
  const status = c.obj(pod, 'status', 'status');
  const podIP = c.str(status, 'podIP', 'status.podIP');
  if (podIP) checkIP(c, 'status.podIP', podIP);
  for (const [entry, i] of c.objects(status, 'podIPs', 'status.podIPs')) {
    const path = `status.podIPs[${i}].ip`;
    const ip = c.str(entry, 'ip', path);
    if (ip !== undefined) checkIP(c, path, ip);
  }
}
