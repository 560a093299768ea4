/**
 * Reading and checking scheduled events by the registry (./registry.ts): an event's argument,
 * what it names, whether an argument is within its bounds, and the compact form's words. Apart
 * from the registry so the share link's validator in the initial bundle, which needs only the
 * registry's data, does not carry these (the time model, its view, the CLI and the tutorial do).
 * Imports only ./registry.
 */
import { EVENT_KINDS, EVENT_SPECS } from './registry';
import type { EventKind, EventSpec, RegistryEvent } from './registry';

/**
 * The compact form's action word per kind (`fail` in `fail:node-1@10s`); unique. The events
 * parser, the tutorial's time links and the CLI's usage read it.
 */
export const COMPACT_ACTIONS: Readonly<Record<EventKind, string>> = {
  'fail-node': 'fail',
  'restore-node': 'restore',
  'drain-node': 'drain',
  'uncordon-node': 'uncordon',
  'scale-down-node': 'scaledown',
  'kill-pod': 'kill',
  scale: 'scale',
  'set-policy': 'policy',
};

/** What messages call each field's argument ("fail-node needs a node name"). */
export const ARG_NOUNS: Readonly<Record<EventSpec['field'], string>> = {
  node: 'a node name',
  pod: 'a Pod name',
  replicas: 'a replica count',
  policy: 'a policy',
};

/** Whether `v` names an event kind. */
export function isEventKind(v: unknown): v is EventKind {
  return typeof v === 'string' && (EVENT_KINDS as readonly string[]).includes(v);
}

const BY_ACTION: ReadonlyMap<string, EventKind> = new Map(
  EVENT_KINDS.map((k) => [COMPACT_ACTIONS[k], k]),
);

/** The compact form's action words, in {@link EVENT_KINDS} order (`fail`, `restore`, …). */
export const EVENT_ACTIONS: readonly string[] = EVENT_KINDS.map((k) => COMPACT_ACTIONS[k]);

/** The kind an action word of the compact form stands for (`fail` → `fail-node`); undefined if none. */
export function kindOfAction(action: string): EventKind | undefined {
  return BY_ACTION.get(action);
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
 * What is wrong with `value` as the argument of an event of `spec`, in words that follow the
 * field's name (`must be a whole number from 0 to 100, not 101`); null when it is right.
 */
export function argProblem({ field, arg }: EventSpec, value: unknown): string | null {
  switch (arg.type) {
    case 'name':
      if (typeof value !== 'string' || value === '') return `must be ${ARG_NOUNS[field]}`;
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
