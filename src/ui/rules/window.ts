/**
 * The arithmetic of a listing of fixed-height rows (RuleListing.tsx): which rows to draw, where
 * a row starts, and the scroll offset that brings a row into view. Pure, so it is unit-tested
 * without a layout engine. Lengths are CSS pixels; offsets are from the scroll box's top.
 */

/** The rows to draw, in order, and how many rows' height the spacers above and below hold. */
export interface ShownRows {
  indices: number[];
  before: number;
  after: number;
}

/**
 * The rows of a `count`-row listing to draw: all of them when `windowIndices` is null (not
 * windowed), else those indices (ascending, as the virtualizer gives them), with the rows
 * skipped above and below them counted for the spacers. An empty window (a hidden listing)
 * draws nothing and keeps the whole height below.
 */
export function shownRows(count: number, windowIndices: readonly number[] | null): ShownRows {
  if (windowIndices === null)
    return { indices: Array.from({ length: count }, (_, i) => i), before: 0, after: 0 };
  const indices = windowIndices.filter((i) => i >= 0 && i < count);
  const first = indices[0];
  const last = indices[indices.length - 1];
  if (first === undefined || last === undefined) return { indices, before: 0, after: count };
  return { indices, before: first, after: count - 1 - last };
}

/** Where row `index` starts: `listTop` (the list's own top padding) plus the rows above it. */
export function lineTop(index: number, rowPx: number, listTop: number): number {
  return listTop + index * rowPx;
}

/**
 * The scroll offset that shows a row starting at `top` (of height `rowPx`) a third of the way
 * down a box `viewPx` high scrolled to `scrollTop`; null when the row is already wholly in view
 * (then nothing moves).
 */
export function revealScroll(
  scrollTop: number,
  viewPx: number,
  top: number,
  rowPx: number,
): number | null {
  if (top >= scrollTop && top + rowPx <= scrollTop + viewPx) return null;
  return Math.max(0, top - viewPx / 3);
}

/**
 * The least scroll that shows the row starting at `top` (like `scrollIntoView({ block:
 * 'nearest' })`): its top at the box's top when it is above, its bottom at the box's bottom
 * when it is below; null when it is wholly in view.
 */
export function nearestScroll(
  scrollTop: number,
  viewPx: number,
  top: number,
  rowPx: number,
): number | null {
  if (top < scrollTop) return Math.max(0, top);
  if (top + rowPx > scrollTop + viewPx) return top + rowPx - viewPx;
  return null;
}
