/**
 * Reading Kubernetes objects as untyped records, for the gap filler (./fill.ts): every field
 * read here may be missing or of the wrong type, and reads as empty instead of throwing. Also
 * the constants the filler writes on what it adds.
 */
import { isIPv4 } from '../net/ip';

/** The annotation on objects the gap filler (`fillGaps`, ./fill.ts) wrote, saying where they came from. */
export const ASSUMED_ANNOTATION = 'lbpath.example/assumed';

/** The label naming an EndpointSlice's Service (`discovery.LabelServiceName`). */
export const SERVICE_NAME = 'kubernetes.io/service-name';

/** An object or a field of one, untyped. */
export type Rec = Record<string, unknown>;
/** `x` when it is a plain object, else `{}`. */
export const rec = (x: unknown): Rec =>
  x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Rec) : {};
/** `x` when it is an array, else `[]`. */
export const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
/** `x` when it is a string, else `''`. */
export const str = (x: unknown): string => (typeof x === 'string' ? x : '');
/** The string-valued entries of `x` (labels, a selector). */
export const strMap = (x: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(rec(x)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

/** An error's message (or the thrown value as text). */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** `metadata.namespace` (default `default`) and `metadata.name`. */
export function metaOf(o: unknown): { namespace: string; name: string } {
  const m = rec(rec(o).metadata);
  return { namespace: str(m.namespace) || 'default', name: str(m.name) };
}

/** `1 Pod`, `2 Pods`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Orders `node-2` before `node-10`. */
export function naturalCompare(a: string, b: string): number {
  const split = (s: string) => s.split(/(\d+)/);
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p === q) continue;
    if (i % 2 === 1) return Number(p) - Number(q) || (p < q ? -1 : 1);
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** The Pod's IPv4 address: the IPv4 entry of `status.podIPs`, else `status.podIP`. */
export function podIPv4(pod: Rec): string {
  const status = rec(pod.status);
  for (const p of arr(status.podIPs)) {
    const ip = str(rec(p).ip);
    if (isIPv4(ip)) return ip;
  }
  const ip = str(status.podIP);
  return isIPv4(ip) ? ip : '';
}

/** `podutil.IsPodReady`: the Pod's Ready condition is True. */
export function podReady(pod: Rec): boolean {
  return arr(rec(pod.status).conditions).some(
    (c) => str(rec(c).type) === 'Ready' && str(rec(c).status) === 'True',
  );
}
