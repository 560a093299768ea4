/** Simulated time as wall-clock timestamps in objects (a constant epoch, never a clock read). */
import type { SimMs } from './types';

/** Simulated t = 0 as a wall-clock date, for timestamps in objects and bodies (a constant, never a clock read). */
export const SIM_EPOCH_MS = Date.UTC(2025, 0, 1, 0, 0, 0);

/** `t` as an RFC 3339 timestamp (`metadata.deletionTimestamp`, `lastTransitionTime`). */
export function simTimestamp(t: SimMs): string {
  return new Date(SIM_EPOCH_MS + Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
