/**
 * Reading an epoch's factored paths ({@link EntryPaths}) without materialising all of them:
 * one path, a route by slot, the entry's slots in order, the flat list (cached), and a Pod
 * index per slot for the expected-share sums.
 */
import type { EntryPaths, Epoch, PathOption, Route, ShareRow } from './types';

/** Slot `j`'s route for `e`: its own when listed, else the class's. */
export function routeAt(e: EntryPaths, j: number): Route {
  const own = e.own;
  // `own` is short (the endpoints on the entry node itself): a linear scan beats a search.
  for (let k = 0; k < own.length; k++) {
    const o = own[k]!;
    if (o.slot === j) return o.route;
    if (o.slot > j) break;
  }
  const r = e.slots.routes[j];
  if (!r) throw new Error(`internal: slot ${j} of ${e.entryNode ?? '-'} has no route`);
  return r;
}

/** Slot `j` of `e` as a {@link PathOption}, with the keys in {@link pathOf}'s order. */
export function pathAt(e: EntryPaths, j: number): PathOption {
  const r = routeAt(e, j);
  return {
    lbTarget: e.lbTarget,
    entryNode: e.entryNode,
    endpoint: e.slots.endpoints[j] ?? null,
    probability: e.share * (e.slots.weights[j] as number),
    pod: r.pod,
    podNode: r.podNode,
    crossNode: r.crossNode,
    snat: r.snat,
    outcome: r.outcome,
  };
}

/**
 * Calls `f(route, j)` for every slot of `e` in order, merging `own` in (no search per slot).
 */
export function eachRoute(e: EntryPaths, f: (r: Route, j: number) => void): void {
  const { routes } = e.slots;
  const own = e.own;
  let k = 0;
  for (let j = 0; j < routes.length; j++) {
    const o = own[k];
    if (o && o.slot === j) {
      k++;
      f(o.route, j);
    } else f(routes[j] as Route, j);
  }
}

/** How many paths `entries` hold (the length of the flat list). */
export function pathCount(entries: readonly EntryPaths[]): number {
  let n = 0;
  for (const e of entries) n += e.slots.weights.length;
  return n;
}

const flat = new WeakMap<readonly EntryPaths[], PathOption[]>();

/** Every path of `entries` in entry then slot order (cached per `entries` array). */
export function flatPaths(entries: readonly EntryPaths[]): PathOption[] {
  let out = flat.get(entries);
  if (!out) {
    out = [];
    for (const e of entries)
      for (let j = 0; j < e.slots.weights.length; j++) out.push(pathAt(e, j));
    flat.set(entries, out);
  }
  return out;
}

/**
 * Pod numbering for per-Pod sums: `index(pod)` gives a stable small integer per Pod, and
 * `slotPods(e)` each slot's Pod number for `e` (-1: not delivered), without a map lookup
 * per slot for the slots `e` shares with its class.
 */
export class PodIndex {
  readonly ids: string[] = [];
  private readonly byId = new Map<string, number>();
  private readonly shared = new WeakMap<EntryPaths['slots'], Int32Array>();

  /** The number of `pod` (-1 for null). */
  index(pod: string | null): number {
    if (pod === null) return -1;
    let i = this.byId.get(pod);
    if (i === undefined) {
      i = this.ids.length;
      this.ids.push(pod);
      this.byId.set(pod, i);
    }
    return i;
  }

  /**
   * Per slot of `e`, its route's Pod number (-1: no Pod, not delivered). The array is
   * reused for the next call: read it before calling again.
   */
  slotPods(e: EntryPaths): Int32Array {
    let base = this.shared.get(e.slots);
    const routes = e.slots.routes;
    if (!base || base.length !== routes.length) {
      base = new Int32Array(routes.length);
      for (let j = 0; j < routes.length; j++) base[j] = this.index(routes[j]?.pod ?? null);
      this.shared.set(e.slots, base);
    } else
      // Slots filled since (a later entry of the class) are numbered now.
      for (let j = 0; j < routes.length; j++)
        if (base[j] === -1 && routes[j]?.pod) base[j] = this.index(routes[j]!.pod);
    if (e.own.length === 0) return base;
    const out = this.scratch(routes.length);
    out.set(base);
    for (const o of e.own) out[o.slot] = this.index(o.route.pod);
    return out;
  }

  private buf = new Int32Array(0);
  private scratch(n: number): Int32Array {
    if (this.buf.length < n) this.buf = new Int32Array(n);
    return this.buf.subarray(0, n);
  }
}

/**
 * Σ n × probability per Pod over paths added entry by entry, in slot order (the flat list's
 * order and arithmetic: `sum + n × (share × weight)`), and the same per entry as returned.
 */
export class ExpectedSums {
  readonly pods = new PodIndex();
  private sums = new Float64Array(64);
  private seen = new Uint8Array(64);

  /** Adds `e`'s paths × `n`; returns `node` plus each of them, added in slot order. */
  add(e: EntryPaths, n: number, node: number): number {
    const slotPods = this.pods.slotPods(e);
    if (this.sums.length < this.pods.ids.length) {
      const size = Math.max(this.pods.ids.length, this.sums.length * 2);
      const sums = new Float64Array(size);
      sums.set(this.sums);
      this.sums = sums;
      const seen = new Uint8Array(size);
      seen.set(this.seen);
      this.seen = seen;
    }
    return addSlots(e.slots.weights, e.share, n, slotPods, this.sums, this.seen, node);
  }

  /** Each Pod some added path was delivered to, with its sum, in Pod-number order. */
  perPod(): Map<string, number> {
    const out = new Map<string, number>();
    this.pods.ids.forEach((id, i) => {
      if (this.seen[i]) out.set(id, this.sums[i] as number);
    });
    return out;
  }
}

// The hot loop on its own (10 million turns at 1,000 nodes), so it is optimised early.
function addSlots(
  w: readonly number[],
  share: number,
  n: number,
  pods: Int32Array,
  sums: Float64Array,
  seen: Uint8Array,
  node: number,
): number {
  for (let j = 0; j < w.length; j++) {
    const x = n * (share * (w[j] as number));
    node += x;
    const pi = pods[j] as number;
    if (pi >= 0) {
      sums[pi] = (sums[pi] as number) + x;
      seen[pi] = 1;
    }
  }
  return node;
}

/**
 * Gives `e` {@link Epoch.paths}: its `byEntry` flattened on first read, not enumerable (so
 * `JSON.stringify`, `structuredClone` and `postMessage` carry `byEntry` alone). Mutates and
 * returns `e`; an epoch that has `paths` already is returned as it is.
 */
export function withFlatPaths(e: Omit<Epoch, 'paths'>): Epoch {
  if ('paths' in e) return e as Epoch;
  return Object.defineProperty(e, 'paths', {
    get(this: Epoch) {
      return flatPaths(this.byEntry);
    },
    enumerable: false,
    configurable: true,
  }) as Epoch;
}

/** The row of `id` in `rows`, added empty (all zeros) the first time: rows keep first-seen order. */
export function shareRow(rows: Map<string, ShareRow>, id: string): ShareRow {
  let r = rows.get(id);
  if (!r) {
    r = { id, count: 0, share: 0, expectedShare: 0, crossNode: 0, snat: 0 };
    rows.set(id, r);
  }
  return r;
}
