/**
 * The JSON types of every field the model reads, per kind, checked before the model sees an
 * object (issue 15 point 9: what the validator accepts, the model runs). The API server
 * refuses a value of the wrong JSON type while decoding it (`json: cannot unmarshal string
 * into Go struct field …`), before validation; that text names Go types, so these messages
 * use the Checker's wording (`<path>: Invalid value: <v>: must be a list`), as the other type
 * errors do.
 *
 * {@link normalize} then gives the model what Go's decoder would hold: a `null` field is
 * absent (the zero value), a `null` item of a list is that item's zero value (`{}`, `''`).
 */
import type { Checker } from './checks';
import { isObj } from './checks';

/** A field's JSON type; `{ list }` and `{ fields }` nest. */
export type Shape =
  | 'string'
  | 'int'
  | 'bool'
  | 'intOrString'
  /** An object whose values are all strings (labels, a selector). */
  | 'stringMap'
  /** Any JSON value: the model does not read inside it. */
  | 'any'
  | { list: Shape }
  | { fields: Record<string, Shape> };

const METADATA: Shape = {
  fields: {
    name: 'string',
    namespace: 'string',
    labels: 'stringMap',
    annotations: 'stringMap',
  },
};

const CONDITIONS: Shape = { list: { fields: { type: 'string', status: 'string' } } };

/** Per kind, the fields the model (resolve, fill, the checks) reads; others are not looked at. */
export const SHAPES: Record<string, Shape> = {
  Node: {
    fields: {
      metadata: METADATA,
      spec: {
        fields: { podCIDR: 'string', podCIDRs: { list: 'string' }, unschedulable: 'bool' },
      },
      status: {
        fields: {
          addresses: { list: { fields: { type: 'string', address: 'string' } } },
          conditions: CONDITIONS,
        },
      },
    },
  },
  Pod: {
    fields: {
      metadata: METADATA,
      spec: {
        fields: {
          nodeName: 'string',
          hostNetwork: 'bool',
          containers: {
            list: {
              fields: {
                name: 'string',
                ports: {
                  list: { fields: { name: 'string', containerPort: 'int', protocol: 'string' } },
                },
              },
            },
          },
        },
      },
      status: {
        fields: {
          podIP: 'string',
          podIPs: { list: { fields: { ip: 'string' } } },
          hostIP: 'string',
          phase: 'string',
          conditions: CONDITIONS,
        },
      },
    },
  },
  Service: {
    fields: {
      metadata: METADATA,
      spec: {
        fields: {
          type: 'string',
          clusterIP: 'string',
          clusterIPs: { list: 'string' },
          ipFamilies: { list: 'string' },
          ipFamilyPolicy: 'string',
          externalIPs: { list: 'string' },
          loadBalancerIP: 'string',
          loadBalancerClass: 'string',
          loadBalancerSourceRanges: { list: 'string' },
          allocateLoadBalancerNodePorts: 'bool',
          externalTrafficPolicy: 'string',
          internalTrafficPolicy: 'string',
          healthCheckNodePort: 'int',
          publishNotReadyAddresses: 'bool',
          sessionAffinity: 'string',
          sessionAffinityConfig: {
            fields: { clientIP: { fields: { timeoutSeconds: 'int' } } },
          },
          selector: 'stringMap',
          ports: {
            list: {
              fields: {
                name: 'string',
                protocol: 'string',
                appProtocol: 'string',
                port: 'int',
                targetPort: 'intOrString',
                nodePort: 'int',
              },
            },
          },
        },
      },
      status: {
        fields: {
          loadBalancer: {
            fields: {
              ingress: {
                list: {
                  fields: { ip: 'string', hostname: 'string', ipMode: 'string', ports: 'any' },
                },
              },
            },
          },
          conditions: { list: 'any' },
        },
      },
    },
  },
  EndpointSlice: {
    fields: {
      metadata: METADATA,
      addressType: 'string',
      endpoints: {
        list: {
          fields: {
            addresses: { list: 'string' },
            nodeName: 'string',
            zone: 'string',
            hostname: 'string',
            conditions: { fields: { ready: 'bool', serving: 'bool', terminating: 'bool' } },
            targetRef: { fields: { kind: 'string', name: 'string', namespace: 'string' } },
          },
        },
      },
      ports: { list: { fields: { name: 'string', port: 'int', protocol: 'string' } } },
    },
  },
  ServiceCIDR: {
    fields: { metadata: METADATA, spec: { fields: { cidrs: { list: 'string' } } } },
  },
};

const WHAT: Record<string, string> = {
  string: 'a string',
  int: 'an integer',
  bool: 'a boolean',
  intOrString: 'an integer or a string',
  stringMap: 'an object',
};

function fits(v: unknown, shape: Shape): boolean {
  if (shape === 'any') return true;
  if (shape === 'string') return typeof v === 'string';
  if (shape === 'int') return typeof v === 'number' && Number.isInteger(v);
  if (shape === 'bool') return typeof v === 'boolean';
  if (shape === 'intOrString')
    return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
  if (shape === 'stringMap' || 'fields' in shape) return isObj(v);
  return Array.isArray(v);
}

function what(shape: Shape): string {
  if (typeof shape === 'string') return WHAT[shape] ?? 'a value';
  return 'list' in shape ? 'a list' : 'an object';
}

function walk(c: Checker, v: unknown, shape: Shape, path: string): void {
  if (v === null || v === undefined || shape === 'any') return;
  if (!fits(v, shape)) {
    c.typeError(path, v, what(shape));
    return;
  }
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (shape === 'stringMap') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      if (typeof x !== 'string' && x !== null) c.typeError(at(k), x, 'a string');
    return;
  }
  if (typeof shape === 'string') return;
  if ('list' in shape) {
    (v as unknown[]).forEach((item, i) => walk(c, item, shape.list, `${path}[${i}]`));
    return;
  }
  const obj = v as Record<string, unknown>;
  for (const [key, sub] of Object.entries(shape.fields))
    if (Object.prototype.hasOwnProperty.call(obj, key)) walk(c, obj[key], sub, at(key));
}

/**
 * Reports each field of `obj` (of `kind`) whose JSON type is not the one the API defines.
 * Kinds without a shape (ours) are not looked at. Never throws.
 */
export function checkShape(c: Checker, kind: string, obj: unknown): void {
  const shape = SHAPES[kind];
  if (shape) walk(c, obj, shape, '');
}

function zero(shape: Shape): unknown {
  if (shape === 'string' || shape === 'intOrString') return '';
  if (shape === 'int') return 0;
  if (shape === 'bool') return false;
  if (shape === 'any') return null;
  return shape === 'stringMap' || 'fields' in shape ? {} : [];
}

function norm(v: unknown, shape: Shape): unknown {
  if (shape === 'any' || (typeof shape === 'string' && shape !== 'stringMap')) return v;
  if (shape === 'stringMap') {
    if (!isObj(v)) return v;
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null));
  }
  if ('list' in shape)
    return Array.isArray(v)
      ? v.map((item) => (item === null ? zero(shape.list) : norm(item, shape.list)))
      : v;
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [key, x] of Object.entries(v)) {
    if (x === null) continue;
    const sub = Object.prototype.hasOwnProperty.call(shape.fields, key)
      ? shape.fields[key]
      : undefined;
    // defineProperty, not `out[key] =`: a `__proto__` key stays a plain key.
    Object.defineProperty(out, key, {
      value: sub ? norm(x, sub) : x,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * `obj` as Go's decoder would hold it, for the fields of its kind's shape: `null` fields
 * dropped (absent and null are the same zero value), `null` list items replaced by their zero
 * value. A new object; `obj` is not changed. Objects of kinds without a shape come back as is.
 */
export function normalize(kind: string, obj: unknown): unknown {
  const shape = SHAPES[kind];
  return shape ? norm(obj, shape) : obj;
}
