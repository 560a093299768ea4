/**
 * The timeline: a deterministic discrete-event simulation of a LoadBalancer Service over
 * simulated time (issue 6). Pure: no wall clock, every random draw from a seeded generator.
 *
 * - {@link simulate}: input (objects, scene, events, settings, workload, seed) → {@link Timeline}.
 * - {@link stateAt} / {@link sceneAt}: the cluster as of a moment or a connection, as
 *   objects + scene for `runScene` (choices pinned for a connection).
 * - {@link svcRowAt}, {@link formatSvcTable}, {@link humanDuration}: `kubectl get svc`.
 * - {@link connectionStats}: N connections through the current state (the `stats` command).
 * - {@link parseEvents} / {@link parseTimelineSpec}: the events format.
 * - `./limits.ts`, `./registry.ts` and `./eventArgs.ts` (re-exported): every bound on the
 *   inputs, and the event kinds with their arguments' checks, defined once; they import nothing
 *   else, so code outside the time model's chunk (the share link) imports them directly.
 * - {@link benchmarkSampling} / {@link benchmarkSimulate}: connections per second, sampling only
 *   or a whole run (for the browser benchmark).
 */
export type * from './types';
export {
  simulate,
  stateAt,
  sceneAt,
  svcRowAt,
  formatSvcTable,
  deadNodeWindowBound,
} from './timeline';
export {
  connectionStats,
  benchmarkSampling,
  benchmarkSimulate,
  statsFromCounts,
  statsFromEntryCounts,
  statsOfCurrent,
  currentPaths,
  currentEntryPaths,
} from './stats';
export type { CurrentPaths } from './stats';
export { flatPaths } from './pathSet';
export { parseEvents, parseTimelineSpec, parseCompactEvents } from './events';
export type { TimelineSpec } from './events';
export { humanDuration, parseDuration, formatSimTime } from './duration';
export {
  DEFAULT_HEALTH_CHECK,
  HEALTH_CHECK_PRESETS,
  DEFAULT_PROVISIONING,
  DEFAULT_METALLB,
  DEFAULT_CONTROL_PLANE,
  CLIENT_SYN_TIMEOUT_MS,
  ESTABLISHED_RETRANSMIT_TIMEOUT_MS,
} from './defaults';
export { sceneFromObjects, SIM_EPOCH_MS } from './scenario';
export { describeWindow, epochIndexAt } from './connections';
export type { WindowContext } from './connections';
export { cumulative, pick, sampleCounts } from './sample';
export * from './limits';
export * from './registry';
export * from './eventArgs';
export { markNodesDown } from './down';
