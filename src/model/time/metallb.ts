/**
 * MetalLB layer 2: which node's speaker answers ARP for the Service's address.
 *
 * `speaker/layer2_controller.go` `ShouldAnnounce`: the candidates are the nodes with an
 * active speaker (memberlist), and under `externalTrafficPolicy: Local` only those with an
 * endpoint that can serve (`epslices.EndpointCanServe`: ready, or serving); they are sorted
 * by `sha256(node + "#" + ip)` and the first one announces. Stateless: every speaker computes
 * the same answer, and a node joining changes the leader only when it sorts first.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { ipToInt } from '../net/ip';
import type { EndpointState } from './types';

const encoder = new TextEncoder();

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * The announcing node, or null when no node qualifies.
 * @param speakers nodes whose speaker memberlist considers alive, in any order
 */
export function metallbLeader(
  speakers: readonly string[],
  ip: string,
  policy: 'Cluster' | 'Local',
  endpoints: readonly EndpointState[],
): string | null {
  let candidates = [...speakers];
  if (policy === 'Local')
    candidates = candidates.filter((n) =>
      endpoints.some((e) => e.node === n && (e.ready || e.serving)),
    );
  // activeEndpointExists: no endpoint that can serve anywhere → nobody announces.
  if (!endpoints.some((e) => e.ready || e.serving)) return null;
  const hashed = candidates.map((n) => ({ n, h: sha256(encoder.encode(`${n}#${ip}`)) }));
  hashed.sort((a, b) => compareBytes(a.h, b.h));
  return hashed[0]?.n ?? null;
}

/** A stable, locally administered MAC for a node's interface, from its IP (`02:42:c0:a8:00:0b`). */
export function macOf(ip: string): string {
  const n = ipToInt(ip);
  return ['02', '42', n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
    .map((b) => (typeof b === 'string' ? b : b.toString(16).padStart(2, '0')))
    .join(':');
}

/** The first address of a MetalLB pool range `a.b.c.d-a.b.c.e` or CIDR `a.b.c.d/n`. */
export function firstPoolAddress(range: string): string {
  const first = range.split(/[-/]/)[0]?.trim() ?? '';
  return first;
}
