/**
 * The simulation's agenda: actions ordered by simulated time, then by the order they were
 * scheduled in (so two actions at the same millisecond always run in the same order).
 */
import type { SimMs } from './types';

interface Item<T> {
  t: SimMs;
  seq: number;
  value: T;
}

/** A binary min-heap on (t, seq). */
export class Agenda<T> {
  private readonly heap: Item<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `value` at `t`. */
  push(t: SimMs, value: T): void {
    const h = this.heap;
    h.push({ t, seq: this.seq++, value });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** Time of the next action; Infinity when empty. */
  peekTime(): SimMs {
    return this.heap[0]?.t ?? Infinity;
  }

  /** Removes and returns the next action. @throws {Error} when empty. */
  pop(): { t: SimMs; value: T } {
    const h = this.heap;
    const top = h[0];
    if (!top) throw new Error('empty agenda');
    const last = h.pop() as Item<T>;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(l, m)) m = l;
        if (r < h.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return { t: top.t, value: top.value };
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a] as Item<T>;
    const y = this.heap[b] as Item<T>;
    return x.t < y.t || (x.t === y.t && x.seq < y.seq);
  }

  private swap(a: number, b: number): void {
    const h = this.heap;
    const x = h[a] as Item<T>;
    h[a] = h[b] as Item<T>;
    h[b] = x;
  }
}
