/**
 * Every bound on the time model's inputs, defined once (issue 16, point 2). The model's
 * checks (`settings.ts`, `events.ts`), the share link's validator
 * (`src/store/share/link.ts`), the tutorial's time links (`src/tutorial/timeLink.ts`), the
 * CLI (`timeline`, `stats`) and the time view's forms all read these numbers; none keeps a
 * copy. Dependency-free on purpose — it imports nothing — so the share link's validator in the
 * initial bundle reads it without loading the time model.
 *
 * Two kinds of bound:
 * - **the model's** (`MAX_*`): what `simulate()` accepts at all, whoever calls it;
 * - **the view's** ({@link HEALTH_CHECK_RANGES}, {@link VIEW_WORKLOAD_RANGES},
 *   {@link SCHEDULE_FORM_MAX_AT_MS}): the narrower ranges of the "Time & failures" view's
 *   forms, which a share link and a tutorial time link carry too (a link holds what the view
 *   can show and edit).
 */

/** An inclusive range of whole numbers. */
export interface IntRange {
  readonly min: number;
  readonly max: number;
}

/**
 * The longest run the model simulates: 24 h of simulated time, in ms. Every time an input
 * gives (an event's `at`, the horizon, the workload's start/period/hold, a delay) must be at
 * most this, so a typo such as `10000h` is refused at once instead of running for minutes.
 */
export const MAX_SIM_MS = 24 * 3_600_000;

/** The most scheduled events one run may hold (a share link carries as many). */
export const MAX_EVENTS = 1_000;

/** The most connections one run may hold (issue 6: 1 … 100,000). */
export const MAX_CONNECTIONS = 100_000;

/**
 * The most health-check probes one run may send (nodes × horizon ÷ interval): three nodes
 * probed every second for 24 h make 259,200 (about 6 s and 0.5 GB in Node); GCP's default 8 s
 * allows 34 nodes for 24 h. A run over it is refused with the arithmetic.
 */
export const MAX_PROBES = 300_000;

/** The most replicas a `scale` event may ask for. */
export const MAX_REPLICAS = 100;

/**
 * Longest object name: a Node's or Pod's `metadata.name` is a DNS subdomain (RFC 1123), at most
 * 253 characters (apimachinery `IsDNS1123Subdomain`, `DNS1123SubdomainMaxLength`).
 */
export const MAX_NAME_CHARS = 253;

/** Longest namespace: a DNS label (RFC 1123), at most 63 characters (`DNS1123LabelMaxLength`). */
export const MAX_NAMESPACE_CHARS = 63;

/** Longest Pod reference an event may give: `namespace/name`, 63 + 1 + 253 = 317 characters. */
export const MAX_POD_KEY_CHARS = MAX_NAMESPACE_CHARS + 1 + MAX_NAME_CHARS;

/**
 * The health-check ranges the view's settings form, share links and tutorial time links accept:
 * the ones Google Cloud's `compute.healthChecks` API accepts (`checkIntervalSec` and
 * `timeoutSec` 1–300 s, `healthyThreshold` and `unhealthyThreshold` 1–10; HealthCheck resource
 * reference, cloud.google.com/compute/docs/reference/rest/v1/healthChecks). The model itself
 * takes any whole interval up to 24 h and any threshold ≥ 1 (the CLI's events file may).
 */
export const HEALTH_CHECK_RANGES = {
  intervalSeconds: { min: 1, max: 300 },
  timeoutSeconds: { min: 1, max: 300 },
  healthyThreshold: { min: 1, max: 10 },
  unhealthyThreshold: { min: 1, max: 10 },
} as const satisfies Record<string, IntRange>;

/**
 * The view's workload (the connections form, and a share link's `time.workload`): 1–100,000
 * connections opened over up to an hour (ms; the form takes whole seconds, 1–3,600), each held
 * 0 ms to an hour, with a seed up to 2³¹ − 1.
 */
export const VIEW_WORKLOAD_RANGES = {
  count: { min: 1, max: MAX_CONNECTIONS },
  periodMs: { min: 1, max: 3_600_000 },
  holdMs: { min: 0, max: 3_600_000 },
  seed: { min: 0, max: 2 ** 31 - 1 },
} as const satisfies Record<string, IntRange>;

/**
 * The latest time the view's "Schedule a change" form offers, ms (its field takes whole seconds,
 * 0–3,600). A link or the CLI may schedule later, up to {@link MAX_SIM_MS}.
 */
export const SCHEDULE_FORM_MAX_AT_MS = 3_600_000;
