/**
 * The handler records, keyed by kind: every kind of agenda action and every kind of user event
 * has its handler in one of the managers (typed as {@link ActionHandlers} and
 * {@link EventHandlers}, so a kind without one does not compile), and {@link handle} runs an
 * action through them.
 */
import type { SimMs, TimelineEvent, TimelineEventKind } from '../types';
import type { ActionHandlers, EventHandlers, EventOf } from './handlerTypes';
import { healthCheckActions } from './healthChecks';
import { kubeProxyActions, policyEvents } from './kubeProxySync';
import { nodeActions, nodeEvents } from './nodeLifecycle';
import { podActions, podEvents } from './pods';
import { provisioningActions } from './provisioning';
import type { Sim } from './state';
import type { Action, ActionKind, ActionOf } from './types';

/** The user's events: nodes, Pods and the Service's policy. */
export const EVENT_HANDLERS: EventHandlers = { ...nodeEvents, ...podEvents, ...policyEvents };

function applyEvent<K extends TimelineEventKind>(sim: Sim, kind: K, ev: EventOf<K>, t: SimMs) {
  EVENT_HANDLERS[kind](sim, ev, t);
}

/** Applies one of the user's events at `t`. */
export function applyUserEvent(sim: Sim, ev: TimelineEvent, t: SimMs): void {
  applyEvent(sim, ev.kind, ev, t);
}

/** Every action the agenda may hold. */
export const ACTION_HANDLERS: ActionHandlers = {
  user: (sim, a, t) => applyUserEvent(sim, a.ev, t),
  ...healthCheckActions,
  ...kubeProxyActions,
  ...nodeActions,
  ...podActions,
  ...provisioningActions,
};

function run<K extends ActionKind>(sim: Sim, kind: K, a: ActionOf<K>, t: SimMs) {
  ACTION_HANDLERS[kind](sim, a, t);
}

/** Runs action `a` at simulated time `t`. */
export function handle(sim: Sim, a: Action, t: SimMs): void {
  run(sim, a.kind, a, t);
}
