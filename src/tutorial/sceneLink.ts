/**
 * Scene links: `[text](scene:policy=Local&lbTarget=node-2&step=last)` puts the visualiser in a
 * state. The part after `scene:` is a URL query string whose keys are listed in
 * content/AUTHORING.md ("Scene links"); this module reads it into a typed {@link SceneLink}.
 * Resolving it against a scenario is `resolveSceneLink` (./sceneResolve.ts).
 */
import { DEFAULT_WALKTHROUGH, LOAD_BALANCER_IMPLEMENTATIONS } from '../model';
import type { DialTarget, LoadBalancerImplementation } from '../model';

/** A scene link, read but not yet checked against a scenario. Every key is optional. */
export interface SceneLink {
  /** Walkthrough step, 1-based (1–5 for the default walkthrough). */
  story?: number;
  /** An example file name without `.yaml` (`canonical`, `local-uneven`, …). */
  scenario?: string;
  /** `spec.externalTrafficPolicy`. */
  policy?: 'Cluster' | 'Local';
  /** `status.loadBalancer.ingress[].ipMode`. */
  ipMode?: 'VIP' | 'Proxy';
  /** How the balancer delivers under VIP. */
  delivery?: 'NodePort' | 'LoadBalancerIP';
  /** What carries the connection, and so where the reply goes (`spec.implementation`). */
  balancer?: LoadBalancerImplementation;
  /** Whether `status.loadBalancer.ingress` is published. */
  published?: boolean;
  /** Nodes that are down, by name. */
  failed?: string[];
  /** A Client object's name. */
  client?: string;
  /** What the client dials. */
  dial?: DialTarget;
  /** kube-proxy's mode (`KubeProxyConfiguration.mode`). */
  mode?: 'iptables' | 'nftables' | 'ipvs';
  /** Pins the balancer's node. */
  lbTarget?: string;
  /** Pins kube-proxy's endpoint, `ip:port`. */
  endpoint?: string;
  /** The random seed, an integer ≥ 0. */
  seed?: number;
  /** The trace step shown: 1-based, `last`, or 0 (before the first step). */
  step?: number | 'last';
  /** The node whose kube-proxy rules the Rules panel shows. */
  node?: string;
}

/** The keys a scene link may use, in the order AUTHORING.md lists them. */
export const SCENE_KEYS = [
  'story',
  'scenario',
  'policy',
  'ipMode',
  'delivery',
  'balancer',
  'published',
  'failed',
  'client',
  'dial',
  'mode',
  'lbTarget',
  'endpoint',
  'seed',
  'step',
  'node',
] as const satisfies readonly (keyof SceneLink)[];

/** A problem with a scene link, naming the key and the value concerned when there is one. */
export interface SceneLinkError {
  key?: string;
  value?: string;
  message: string;
}

/** The result of {@link parseSceneQuery}: the keys that could be read, and every problem. */
export interface ParsedSceneLink {
  link: SceneLink;
  errors: SceneLinkError[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const ENDPOINT = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}):(\d{1,5})$/;

function choice<T extends string>(options: readonly T[]) {
  const last = options.length - 1;
  const expected = `must be ${options.slice(0, last).join(', ')} or ${options[last]}`;
  return (value: string): { ok: T } | string =>
    (options as readonly string[]).includes(value) ? { ok: value as T } : expected;
}

function name(what: string) {
  return (value: string): string | { ok: string } =>
    NAME.test(value)
      ? { ok: value }
      : `must be a ${what} name (lower-case letters, digits, - and .)`;
}

/** Each key's reader: the value, or a message (a string) saying what it must be. */
const READERS: { [K in keyof SceneLink]-?: (v: string) => { ok: SceneLink[K] } | string } = {
  story: (v) => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    const max = DEFAULT_WALKTHROUGH.steps.length;
    return n >= 1 && n <= max ? { ok: n } : `must be a walkthrough step from 1 to ${max}`;
  },
  scenario: name('example file'),
  policy: choice(['Cluster', 'Local'] as const),
  ipMode: choice(['VIP', 'Proxy'] as const),
  delivery: choice(['NodePort', 'LoadBalancerIP'] as const),
  balancer: choice(LOAD_BALANCER_IMPLEMENTATIONS),
  published: (v) =>
    v === 'true' ? { ok: true } : v === 'false' ? { ok: false } : 'must be true or false',
  failed: (v) => {
    const names = v.split(',');
    if (names.some((n) => !NAME.test(n))) return 'must be node names separated by commas';
    if (new Set(names).size !== names.length) return 'names a node twice';
    return { ok: names };
  },
  client: name('Client'),
  dial: (v) => {
    if (v === 'lb') return { ok: { kind: 'LoadBalancer' } };
    if (v === 'clusterip') return { ok: { kind: 'ClusterIP' } };
    const m = /^nodeport:(.+)$/.exec(v);
    if (m?.[1] && NAME.test(m[1])) return { ok: { kind: 'NodePort', nodeName: m[1] } };
    return 'must be lb, clusterip or nodeport:<node>';
  },
  mode: choice(['iptables', 'nftables', 'ipvs'] as const),
  lbTarget: name('node'),
  endpoint: (v) => {
    const m = ENDPOINT.exec(v);
    const ok =
      m !== null &&
      m.slice(1, 5).every((o) => Number(o) <= 255) &&
      Number(m[5]) >= 1 &&
      Number(m[5]) <= 65535;
    return ok ? { ok: v } : 'must be an endpoint ip:port, e.g. 10.244.1.5:8080';
  },
  seed: (v) =>
    /^\d+$/.test(v) && Number.isSafeInteger(Number(v))
      ? { ok: Number(v) }
      : 'must be an integer ≥ 0',
  step: (v) =>
    v === 'last'
      ? { ok: 'last' }
      : /^\d+$/.test(v) && Number(v) <= 100_000
        ? { ok: Number(v) }
        : 'must be a step number (1, 2, …), last, or 0 for before the first step',
  node: name('node'),
};

/**
 * Reads a scene query (`policy=Local&step=last`, with or without a leading `scene:`) with
 * URLSearchParams. Unknown keys, repeated keys, empty and bad values are reported with the key
 * and the value (`policy=cluster: must be Cluster or Local`); the keys that could be read are
 * returned either way. Never throws.
 */
export function parseSceneQuery(query: string): ParsedSceneLink {
  const link: SceneLink = {};
  const errors: SceneLinkError[] = [];
  const text = query.startsWith('scene:') ? query.slice('scene:'.length) : query;
  if (text.trim() === '') return { link, errors };
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(text)) {
    const shown = `${key}=${value}`;
    if (!(SCENE_KEYS as readonly string[]).includes(key)) {
      errors.push({
        key,
        value,
        message: `${shown}: unknown key "${key}" (keys: ${SCENE_KEYS.join(', ')})`,
      });
      continue;
    }
    const k = key as keyof SceneLink;
    if (seen.has(k)) {
      errors.push({ key, value, message: `${shown}: "${key}" is given more than once` });
      continue;
    }
    seen.add(k);
    if (value === '') {
      errors.push({ key, value, message: `${key}= has no value` });
      continue;
    }
    const r = (READERS[k] as (v: string) => { ok: unknown } | string)(value);
    if (typeof r === 'string') errors.push({ key, value, message: `${shown}: ${r}` });
    else (link as Record<string, unknown>)[k] = r.ok;
  }
  return { link, errors };
}

/** The link as a query string again, keys in AUTHORING.md's order (for messages and tests). */
export function formatSceneLink(link: SceneLink): string {
  const parts: string[] = [];
  for (const key of SCENE_KEYS) {
    const v = link[key];
    if (v === undefined) continue;
    let text: string;
    if (key === 'dial') {
      const d = v as DialTarget;
      text =
        d.kind === 'LoadBalancer'
          ? 'lb'
          : d.kind === 'ClusterIP'
            ? 'clusterip'
            : `nodeport:${d.nodeName}`;
    } else if (Array.isArray(v)) text = v.join(',');
    else text = String(v);
    parts.push(`${key}=${text}`);
  }
  return parts.join('&');
}
