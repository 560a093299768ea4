/**
 * Cutting the run into epochs: after each simulated millisecond in which something happened,
 * the world is read; a new epoch starts when it differs from the current one's.
 */
import type { SimMs } from '../types';
import type { Sim } from './state';
import { world } from './state';
import type { RawEpoch } from './types';

/** Records the run's epochs: {@link mark} after each millisecond, {@link finish} at the horizon. */
export class EpochRecorder {
  private readonly epochs: RawEpoch[] = [];
  private cur: RawEpoch | undefined;
  private marked = { version: -1, rotations: -1 };

  constructor(private readonly sim: Sim) {}

  /** Reads the world at `t`: a new epoch from `t` if it changed (one that starts at `t` is replaced). */
  mark(t: SimMs): void {
    const { sim, epochs } = this;
    // Nothing but probes since the last mark and no change of rotation: the same world.
    if (
      this.cur &&
      this.marked.version === sim.version &&
      this.marked.rotations === sim.rotation.length
    )
      return;
    this.marked = { version: sim.version, rotations: sim.rotation.length };
    const st = world(sim);
    const key = JSON.stringify(st);
    const cur = this.cur;
    if (cur && cur.key === key) return;
    if (cur && cur.from === t) {
      cur.state = st;
      cur.key = key;
      const prev = epochs[epochs.length - 1];
      if (prev && prev.key === key) {
        this.cur = prev;
        prev.to = Infinity;
        epochs.pop();
      }
      return;
    }
    if (cur) {
      cur.to = t;
      epochs.push(cur);
    }
    this.cur = { from: t, to: Infinity, state: st, key };
  }

  /** The epochs, the last one ending at `horizon` (or where it starts, if later). */
  finish(horizon: SimMs): RawEpoch[] {
    const { epochs } = this;
    if (this.cur) {
      this.cur.to = horizon;
      epochs.push(this.cur);
    }
    const last = epochs[epochs.length - 1];
    if (last && last.to < last.from) last.to = last.from;
    return epochs;
  }
}
