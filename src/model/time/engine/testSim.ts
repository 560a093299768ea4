/**
 * A fresh simulation state for the managers' unit tests: the canonical scenario (DESIGN.md:
 * nodes node-1, node-2, node-3; ready Pods web-6d8f9c7b5-x2k4p at 10.244.1.5 on node-1 and
 * web-6d8f9c7b5-q7m9z at 10.244.3.9 on node-3) or objects given, under `input`'s settings.
 */
import { canonicalObjects, DEFAULT_SCENE } from '../../index';
import type { ScenarioObject } from '../../k8s/objects';
import { analyse } from '../scenario';
import { resolveSettings } from '../settings';
import type { TimelineInput } from '../types';
import { createSim } from './state';
import type { Sim } from './state';

/** The state at t = 0 for `objects` (default: canonical) and `input`'s settings. */
export function testSim(
  input: Partial<TimelineInput> = {},
  objects: ScenarioObject[] = canonicalObjects(),
): Sim {
  const { base } = analyse(objects, DEFAULT_SCENE);
  const s = resolveSettings({ objects, scene: DEFAULT_SCENE, events: [], ...input }, base);
  return createSim(base, s);
}
