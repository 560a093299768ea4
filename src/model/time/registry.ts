/**
 * The time model's scheduled events as an input format, defined once (issue 16, point 2): every
 * event kind and the one argument each carries (its field, its type and its check). The events
 * parser (`events.ts`, so the CLI's `timeline --events` and the tutorial's time links), the
 * model's own check (`settings.ts`), the share link's validator (`src/store/share/sharedTime.ts`)
 * and the time view's "Schedule a change" form all derive from {@link EVENT_SPECS}; the bounds
 * come from `./limits.ts`. Like that module it depends on nothing else, so the initial bundle
 * may read it; what only the model and the views need (reading an event's argument, checking
 * it, the compact form's words) is `./eventArgs.ts`, which loads with them.
 *
 * Adding a kind here is a compile error until it is handled everywhere it must be: the union
 * `TimelineEvent` in `types.ts` must equal {@link RegistryEvent} (`registry.test.ts`), and the
 * compact words (`eventArgs.ts`), the engine's handlers, the horizon's tails (`settings.ts`) and
 * the view's labels, texts and glyphs (`src/ui/timeline/format.ts`) are records keyed by
 * {@link EventKind}.
 */
import { MAX_NAME_CHARS, MAX_POD_KEY_CHARS, MAX_REPLICAS } from './limits';

/** Every kind of scheduled event, in the order the view's form lists them. */
export const EVENT_KINDS = [
  'fail-node',
  'restore-node',
  'drain-node',
  'uncordon-node',
  'scale-down-node',
  'kill-pod',
  'scale',
  'set-policy',
] as const;

/** The kind of a scheduled event (`TimelineEvent['kind']`). */
export type EventKind = (typeof EVENT_KINDS)[number];

/** `spec.externalTrafficPolicy`'s values. */
export const POLICIES = ['Cluster', 'Local'] as const;

/** Who implements `type: LoadBalancer` (`ControllerKind` in `types.ts`). */
export const CONTROLLER_KINDS = ['cloud', 'none', 'metallb-l2'] as const;

/** What the balancer probes under `externalTrafficPolicy: Cluster` (`ClusterHealthCheckTarget`). */
export const CLUSTER_HEALTH_CHECK_TARGETS = ['healthz', 'nodePort'] as const;

/**
 * How an event's argument is checked (what messages call it: `ARG_NOUNS` in ./eventArgs.ts).
 * - `name`: a non-empty string of at most `maxChars` characters; `of` says what it names (a
 *   node's `metadata.name`, or a Pod's `name` or `namespace/name`).
 * - `int`: a whole number in [`min`, `max`].
 * - `oneOf`: one of `options`.
 */
export type ArgSpec =
  | { readonly type: 'name'; readonly of: 'node' | 'pod'; readonly maxChars: number }
  | { readonly type: 'int'; readonly min: number; readonly max: number }
  | { readonly type: 'oneOf'; readonly options: readonly string[] };

/**
 * One kind of event: the field of its argument and the argument's check. (Its compact form's
 * word is `COMPACT_ACTIONS` in ./eventArgs.ts, a record keyed by kind too: only the parsers
 * need it, so it stays out of the initial bundle.)
 */
export interface EventSpec {
  /** The event's field holding the argument (`{ at, kind, node }`). */
  readonly field: 'node' | 'pod' | 'replicas' | 'policy';
  readonly arg: ArgSpec;
}

const NODE = { type: 'name', of: 'node', maxChars: MAX_NAME_CHARS } as const;

/** Every kind's argument: its field and its check. */
export const EVENT_SPECS = {
  'fail-node': { field: 'node', arg: NODE },
  'restore-node': { field: 'node', arg: NODE },
  'drain-node': { field: 'node', arg: NODE },
  'uncordon-node': { field: 'node', arg: NODE },
  'scale-down-node': { field: 'node', arg: NODE },
  'kill-pod': {
    field: 'pod',
    arg: { type: 'name', of: 'pod', maxChars: MAX_POD_KEY_CHARS },
  },
  scale: {
    field: 'replicas',
    arg: { type: 'int', min: 0, max: MAX_REPLICAS },
  },
  'set-policy': {
    field: 'policy',
    arg: { type: 'oneOf', options: POLICIES },
  },
} as const satisfies Record<EventKind, EventSpec>;

type Specs = typeof EVENT_SPECS;

/** The field holding the argument of a `K` event. */
export type EventField<K extends EventKind> = Specs[K]['field'];

type ValueOf<A> = A extends { type: 'int' }
  ? number
  : A extends { type: 'oneOf'; options: readonly (infer O)[] }
    ? O
    : string;

/** The type of a `K` event's argument. */
export type EventArg<K extends EventKind> = ValueOf<Specs[K]['arg']>;

type Flat<T> = { [P in keyof T]: T[P] };

/** The event of kind `K` as the registry defines it: `{ at, kind, <field>: <argument> }`. */
export type RegistryEventOf<K extends EventKind> = Flat<
  { at: number; kind: K } & Record<EventField<K>, EventArg<K>>
>;

/** Every event the registry defines (equal to `TimelineEvent`; `registry.test.ts`). */
export type RegistryEvent = { [K in EventKind]: RegistryEventOf<K> }[EventKind];

/**
 * The event `{ at, kind, <field>: arg }` (keys in that order, as JSON writes them). Checks
 * nothing: see `argProblem` (./eventArgs.ts).
 */
export function makeEvent<K extends EventKind>(
  kind: K,
  at: number,
  arg: EventArg<K>,
): RegistryEventOf<K> {
  return { at, kind, [EVENT_SPECS[kind].field]: arg } as RegistryEventOf<K>;
}

/**
 * The most characters one event takes as JSON (`JSON.stringify`), whatever its kind: the
 * longest kind at `at` = `MAX_SIM_MS` (`86400000`, ./limits.ts) with its widest argument (names in
 * Kubernetes' alphabet need no escapes). A `kill-pod` naming a 317-character `namespace/name`:
 * `{"at":86400000,"kind":"kill-pod","pod":"` (40) + 317 + `"}` (2) = 359. A number, not a
 * computation, to keep the initial bundle small (the share link reads it);
 * `registry.test.ts` computes it from {@link EVENT_SPECS} and fails when a kind or a bound
 * changes it.
 */
export const MAX_EVENT_JSON_CHARS = 359;
