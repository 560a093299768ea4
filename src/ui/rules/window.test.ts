import { describe, expect, it } from 'vitest';
import { lineTop, nearestScroll, revealScroll, shownRows } from './window';

describe('shownRows', () => {
  it('draws every row of a listing that is not windowed', () => {
    expect(shownRows(4, null)).toEqual({ indices: [0, 1, 2, 3], before: 0, after: 0 });
  });

  it('draws the window and keeps the skipped rows as spacer heights', () => {
    // 40,000 rows, rows 100..159 drawn: 100 above, 40,000 - 160 below.
    const window = Array.from({ length: 60 }, (_, i) => 100 + i);
    const r = shownRows(40_000, window);
    expect(r.indices).toEqual(window);
    expect(r.before).toBe(100);
    expect(r.after).toBe(39_840);
    expect(r.before + r.indices.length + r.after).toBe(40_000);
  });

  it('draws nothing for an empty window (a hidden listing) and keeps the whole height', () => {
    expect(shownRows(40_000, [])).toEqual({ indices: [], before: 0, after: 40_000 });
  });

  it('ignores indices outside the listing (a window from before the listing shrank)', () => {
    expect(shownRows(3, [1, 2, 3, 4])).toEqual({ indices: [1, 2], before: 1, after: 0 });
  });
});

describe('scrolling a row into view', () => {
  const row = 20;
  it('places row i after the list padding and i rows', () => {
    expect(lineTop(0, row, 6)).toBe(6);
    expect(lineTop(1000, row, 6)).toBe(20_006);
  });

  it('reveal: leaves a row in view alone, else puts it a third of the way down', () => {
    expect(revealScroll(0, 300, lineTop(3, row, 6), row)).toBeNull();
    expect(revealScroll(0, 300, lineTop(1000, row, 6), row)).toBe(20_006 - 100);
    // Near the top the offset cannot go below 0.
    expect(revealScroll(5000, 300, lineTop(1, row, 6), row)).toBe(0);
  });

  it('nearest: scrolls by the least amount, up or down, like block: nearest', () => {
    // Row 20 (top 406, bottom 426) below a 300 px box at 0: its bottom at the box's bottom.
    expect(nearestScroll(0, 300, lineTop(20, row, 6), row)).toBe(126);
    // Row 2 (top 46) above a box scrolled to 200: its top at the box's top.
    expect(nearestScroll(200, 300, lineTop(2, row, 6), row)).toBe(46);
    expect(nearestScroll(0, 300, lineTop(5, row, 6), row)).toBeNull();
  });
});
