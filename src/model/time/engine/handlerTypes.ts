/**
 * The shapes of the handler records: one handler per kind of agenda action and per kind of
 * user event, each given the action (or event) of its own kind. A record typed as
 * {@link ActionHandlers} or {@link EventHandlers} must have every kind, so a new kind is a type
 * error until it is handled.
 */
import type { SimMs, TimelineEvent, TimelineEventKind } from '../types';
import type { Sim } from './state';
import type { ActionKind, ActionOf } from './types';

/** Handles the action `a` of kind `K` at simulated time `t`. */
export type ActionHandler<K extends ActionKind> = (sim: Sim, a: ActionOf<K>, t: SimMs) => void;

/** One handler per kind of action. */
export type ActionHandlers = { readonly [K in ActionKind]: ActionHandler<K> };

/** The user event of kind `K`. */
export type EventOf<K extends TimelineEventKind> = Extract<TimelineEvent, { kind: K }>;

/** Applies the user event `ev` of kind `K` at simulated time `t`. */
export type EventHandler<K extends TimelineEventKind> = (
  sim: Sim,
  ev: EventOf<K>,
  t: SimMs,
) => void;

/** One handler per kind of user event. */
export type EventHandlers = { readonly [K in TimelineEventKind]: EventHandler<K> };
