/**
 * How much larger present mode draws than the desk view: the stage's drawing units are CSS px
 * at scale 1 (12 px is the smallest label), so at 1920×1080 a scale of 2 gives 24 px labels and
 * a 32 px caption — what a room can read (issue 13). Scale 1 below 960×540.
 */

/** The drawing's design size: present mode keeps at least this many drawing units on screen. */
export const PRESENT_DESIGN = { width: 960, height: 540 };

/** The scale for a `width`×`height` px window: min of the two ratios, clamped to [1, 3]. */
export function presentScale(width: number, height: number): number {
  const s = Math.min(width / PRESENT_DESIGN.width, height / PRESENT_DESIGN.height);
  return Math.round(Math.min(3, Math.max(1, s)) * 100) / 100;
}
