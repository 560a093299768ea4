/**
 * Everything the time view needs the model for, in one answer: the timeline
 * ({@link deriveTimeline}), the health-check settings the model would use when the person
 * changed none ({@link healthCheckDefaults}: a run of no length, ~0.3 s at 100 nodes) and the
 * scenario's client names (from `runScene`'s cluster). One function, so the time view's Web
 * Worker (`src/worker/timelineHandler.ts`) and the in-process path (Node, vitest) answer alike.
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { HealthCheckSettings } from '../model/time/types';
import { derive } from './derive';
import { deriveTimeline, healthCheckDefaults } from './timelineDerive';
import type { DerivedTimeline } from './timelineDerive';
import type { TimeState } from './types';

/** The time view's inputs besides the scenario (what the timeline depends on). */
export type TimeInputs = Pick<TimeState, 'controller' | 'healthCheck' | 'events' | 'workload'>;

/** The model's answer for the time view. */
export interface TimeAnswer {
  derived: DerivedTimeline;
  /** The model's default health-check settings for the simulated scenario; null if it throws. */
  defaults: HealthCheckSettings | null;
  /** Names of the run's clients, in cluster order (empty when the model could not simulate). */
  clients: string[];
}

let last: { key: readonly unknown[]; value: TimeAnswer } | undefined;

/**
 * The time view's answer for these inputs, computed again only when one of them changed
 * (by reference, like {@link deriveTimeline}); never throws.
 */
export function timeAnswer(
  objects: readonly ScenarioObject[],
  scene: SceneOptions,
  time: TimeInputs,
): TimeAnswer {
  const key = [objects, scene, time.controller, time.healthCheck, time.events, time.workload];
  if (last && last.key.every((k, i) => k === key[i])) return last.value;
  const derived = deriveTimeline(objects, scene, time);
  // What the panels read before: the run's own base (its objects may hold a Client the run
  // added for an address), or the inputs when it did not run.
  const from = derived.ok ? derived.timeline.base : derived.input;
  let defaults: HealthCheckSettings | null;
  try {
    defaults = healthCheckDefaults(from.objects, from.scene);
  } catch (_) {
    defaults = null;
  }
  const d = derived.ok ? derive(derived.timeline.base.objects, from.scene) : undefined;
  const clients = d?.ok ? d.result.cluster.clients.map((c) => c.name) : [];
  const value: TimeAnswer = { derived, defaults, clients };
  last = { key, value };
  return value;
}
