/**
 * The handler records: every kind of user event (`TimelineEvent` in types.ts) and of agenda
 * action has a handler, and a record that lacks one does not compile (checked by `tsc`).
 */
import { describe, expect, it } from 'vitest';
import type { TimelineEventKind } from '../types';
import type { EventHandlers } from './handlerTypes';
import { ACTION_HANDLERS, EVENT_HANDLERS, applyUserEvent } from './handlers';
import { nodeEvents } from './nodeLifecycle';
import { testSim } from './testSim';

// @ts-expect-error -- `set-policy` (and the Pod events) have no handler here: a type error.
const incomplete: EventHandlers = { ...nodeEvents };
void incomplete;

describe('handler records', () => {
  it('have a handler for each of the eight user event kinds', () => {
    const kinds: Record<TimelineEventKind, true> = {
      'fail-node': true,
      'restore-node': true,
      'drain-node': true,
      'uncordon-node': true,
      'scale-down-node': true,
      'kill-pod': true,
      scale: true,
      'set-policy': true,
    };
    expect(Object.keys(EVENT_HANDLERS).sort()).toEqual(Object.keys(kinds).sort());
    expect(Object.values(ACTION_HANDLERS).every((h) => typeof h === 'function')).toBe(true);
  });

  it('dispatch a user event to its manager', () => {
    const sim = testSim();
    applyUserEvent(sim, { at: 1000, kind: 'uncordon-node', node: 'node-2' }, 1000);
    expect(sim.entries[0]).toMatchObject({
      at: 1000,
      kind: 'event',
      message: 'kubectl uncordon node-2.',
    });
  });
});
