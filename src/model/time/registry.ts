/**
 * The time model's scheduled events as an input format, defined once (issue 16, point 2):
 * every event kind, the one argument each carries (its field, its type and its check) and the
 * word the compact form `ACTION:TARGET@TIME` writes for it. The events parser (`events.ts`,
 * so the CLI's `timeline --events` and the tutorial's time links), the model's own check
 * (`settings.ts`), the share link's validator (`src/store/share/link.ts`) and the time view's
 * "Schedule a change" form all derive from {@link EVENT_SPECS}; the bounds come from
 * `./limits.ts`. Like that module it depends on nothing else, so the initial bundle may read it.
 *
 * Adding a kind here is a compile error until it is handled everywhere it must be: the union
 * {@link TimelineEvent} in `types.ts` must equal {@link RegistryEvent} (`registry.test.ts`), and
 * the engine's handlers, the horizon's tails (`settings.ts`) and the view's labels, texts and
 * glyphs are records keyed by {@link EventKind}.
 */
import { MAX_NAME_CHARS, MAX_POD_KEY_CHARS, MAX_REPLICAS, MAX_SIM_MS } from './limits';

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
 * How an event's argument is checked, and what messages call it (`noun`: "fail-node needs a
 * node name").
 * - `name`: a non-empty string of at most `maxChars` characters; `of` says what it names (a
 *   node's `metadata.name`, or a Pod's `name` or `namespace/name`).
 * - `int`: a whole number in [`min`, `max`].
 * - `oneOf`: one of `options`.
 */
export type ArgSpec =
  | {
      readonly type: 'name';
      readonly of: 'node' | 'pod';
      readonly maxChars: number;
      readonly noun: string;
    }
  | { readonly type: 'int'; readonly min: number; readonly max: number; readonly noun: string }
  | { readonly type: 'oneOf'; readonly options: readonly string[]; readonly noun: string };

/** One kind of event: the field of its argument, the argument's check, its compact word. */
export interface EventSpec {
  /** The event's field holding the argument (`{ at, kind, node }`). */
  readonly field: 'node' | 'pod' | 'replicas' | 'policy';
  readonly arg: ArgSpec;
  /** The compact form's action word (`fail` in `fail:node-1@10s`); unique. */
  readonly action: string;
}

const NODE = { type: 'name', of: 'node', maxChars: MAX_NAME_CHARS, noun: 'a node name' } as const;

/** Every kind's argument and compact word. */
export const EVENT_SPECS = {
  'fail-node': { field: 'node', arg: NODE, action: 'fail' },
  'restore-node': { field: 'node', arg: NODE, action: 'restore' },
  'drain-node': { field: 'node', arg: NODE, action: 'drain' },
  'uncordon-node': { field: 'node', arg: NODE, action: 'uncordon' },
  'scale-down-node': { field: 'node', arg: NODE, action: 'scaledown' },
  'kill-pod': {
    field: 'pod',
    arg: { type: 'name', of: 'pod', maxChars: MAX_POD_KEY_CHARS, noun: 'a Pod name' },
    action: 'kill',
  },
  scale: {
    field: 'replicas',
    arg: { type: 'int', min: 0, max: MAX_REPLICAS, noun: 'a replica count' },
    action: 'scale',
  },
  'set-policy': {
    field: 'policy',
    arg: { type: 'oneOf', options: POLICIES, noun: 'a policy' },
    action: 'policy',
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

/** Whether `v` names an event kind. */
export function isEventKind(v: unknown): v is EventKind {
  return typeof v === 'string' && (EVENT_KINDS as readonly string[]).includes(v);
}

const BY_ACTION: ReadonlyMap<string, EventKind> = new Map(
  EVENT_KINDS.map((k) => [EVENT_SPECS[k].action, k]),
);

/** The compact form's action words, in {@link EVENT_KINDS} order (`fail`, `restore`, …). */
export const EVENT_ACTIONS: readonly string[] = EVENT_KINDS.map((k) => EVENT_SPECS[k].action);

/** The kind an action word of the compact form stands for (`fail` → `fail-node`); undefined if none. */
export function kindOfAction(action: string): EventKind | undefined {
  return BY_ACTION.get(action);
}

/**
 * The event `{ at, kind, <field>: arg }` (keys in that order, as JSON writes them). Checks
 * nothing: see {@link argProblem}.
 */
export function makeEvent<K extends EventKind>(
  kind: K,
  at: number,
  arg: EventArg<K>,
): RegistryEventOf<K> {
  return { at, kind, [EVENT_SPECS[kind].field]: arg } as RegistryEventOf<K>;
}

/** The argument of `event` (its node, Pod, replica count or policy). */
export function eventArg(event: RegistryEvent): string | number {
  return (event as Record<string, string | number>)[EVENT_SPECS[event.kind].field] as
    string | number;
}

/**
 * What `event` names, when its argument is a name (./registry.ts `ArgSpec` `of`): the node of a
 * node event, the Pod (`name` or `namespace/name`) of a Pod event; null for the others.
 */
export function namedBy(event: RegistryEvent, of: 'node' | 'pod'): string | null {
  const { arg } = EVENT_SPECS[event.kind];
  return arg.type === 'name' && arg.of === of ? String(eventArg(event)) : null;
}

/**
 * What is wrong with `value` as an argument checked by `arg`, in words that follow the field's
 * name (`must be a whole number from 0 to 100, not 101`); null when it is right.
 */
export function argProblem(arg: ArgSpec, value: unknown): string | null {
  switch (arg.type) {
    case 'name':
      if (typeof value !== 'string' || value === '') return `must be ${arg.noun}`;
      return value.length > arg.maxChars
        ? `must be at most ${arg.maxChars} characters long, not ${value.length}`
        : null;
    case 'int':
      return typeof value === 'number' &&
        Number.isInteger(value) &&
        value >= arg.min &&
        value <= arg.max
        ? null
        : `must be a whole number from ${arg.min} to ${arg.max}, not ${String(value)}`;
    case 'oneOf':
      return typeof value === 'string' && arg.options.includes(value)
        ? null
        : `must be one of ${arg.options.join(', ')}, not ${JSON.stringify(value)}`;
  }
}

/** The widest argument `arg` allows, as JSON writes it longest. */
function widest(arg: ArgSpec): string | number {
  switch (arg.type) {
    case 'name':
      return 'x'.repeat(arg.maxChars);
    case 'int':
      return String(arg.min).length > String(arg.max).length ? arg.min : arg.max;
    case 'oneOf':
      return arg.options.reduce((a, b) => (b.length > a.length ? b : a), '');
  }
}

/**
 * The most characters one event takes as JSON (`JSON.stringify`), whatever its kind: the
 * longest kind at `at` = {@link MAX_SIM_MS} with its widest argument (names in Kubernetes'
 * alphabet need no escapes). 359 today: a `kill-pod` naming a 317-character `namespace/name`.
 */
export const MAX_EVENT_JSON_CHARS = Math.max(
  ...EVENT_KINDS.map(
    (k) =>
      JSON.stringify(makeEvent(k, MAX_SIM_MS, widest(EVENT_SPECS[k].arg) as EventArg<typeof k>))
        .length,
  ),
);
