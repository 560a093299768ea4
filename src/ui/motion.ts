/**
 * Every animation duration comes from here. A duration of 0 means "jump": reduced motion
 * (`prefers-reduced-motion: reduce`) and tests get no tweening.
 */
import type { Speed } from '../store/types';

/** How long one step stays on screen at 1× while playing, in milliseconds. */
export const BASE_STEP_MS = 1400;

/** Share of a step's time the packet spends moving (the rest it rests, so it can be read). */
const MOVE_SHARE = 0.6;

/** Time between two steps while playing, in milliseconds. */
export function stepInterval(speed: Speed): number {
  return BASE_STEP_MS / speed;
}

/** How long the packet's move takes for one step, in milliseconds; 0 means jump. */
export function stepDuration(speed: Speed, reducedMotion: boolean): number {
  return reducedMotion ? 0 : Math.round((BASE_STEP_MS * MOVE_SHARE) / speed);
}

/** Short transitions (highlights fading in), in milliseconds; 0 means jump. */
export function fadeDuration(reducedMotion: boolean): number {
  return reducedMotion ? 0 : 200;
}
