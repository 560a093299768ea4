/** Finding the epoch a simulated time falls in. */
import type { SimMs } from './types';

/** The epoch index for time `t` (last epoch for t past the end). */
export function epochIndexAt(epochs: readonly { from: SimMs; to: SimMs }[], t: SimMs): number {
  let lo = 0;
  let hi = epochs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((epochs[mid] as { from: SimMs }).from <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
