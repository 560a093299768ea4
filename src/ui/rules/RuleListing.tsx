import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ProxyMode } from '../../model/kube-proxy/types';
import { explainLine } from '../../model/kube-proxy/explain';
import type { DiffLine } from '../rulesDiff';
import { lineTop, nearestScroll, revealScroll, shownRows } from './window';

/** A line to show, with what the trace or the diff says about it. */
export interface ListedLine {
  text: string;
  ruleId?: string | undefined;
  matched?: boolean;
  current?: boolean;
  /** A chain the packet entered so far (its header or declaration line). */
  followed?: boolean;
  change?: DiffLine['change'];
}

/**
 * Listings with more lines than this are windowed: only the rows in view (plus
 * {@link OVERSCAN} each side) are in the DOM. A node of a 1,000-node / 10,000-endpoint cluster
 * has ~40,000 lines, whose rows took seconds to commit; a small cluster's listing stays whole,
 * so the browser's find-in-page sees all of it.
 */
export const WINDOW_FROM = 2_000;
/** Rows drawn beyond each edge of the view in a windowed listing. */
const OVERSCAN = 30;
/** A row's height before one is measured: 13 px text at line-height 1.5 (panels.css). */
const DEFAULT_ROW_PX = 19.5;
/** `pre.rules`'s top padding (panels.css): where row 0 starts inside the scroll box. */
const LIST_TOP_PX = 6;

function gutter(l: ListedLine): string {
  if (l.change === 'added') return '+ ';
  if (l.change === 'removed') return '− ';
  if (l.current) return '▶ ';
  if (l.matched) return '✓ ';
  if (l.followed) return '↳ ';
  return '  ';
}

/**
 * A rule dump, one line per row: matched lines, followed chains and diff changes marked
 * (with a gutter sign as well as colour), and a one-line plain explanation of the line under
 * the pointer or the keyboard cursor (↑/↓ inside the listing) — or of the current step's rule.
 *
 * Lines come by index (`lineAt(i)` for `i` in `[0, count)`), so a 40,000-line listing costs
 * only the rows drawn. `currentIndex` is the current step's line (−1 for none); `revealIndex`
 * the line brought into view when it changes or the listing becomes visible (the current
 * line, or a comparison's first change; −1 for none). Rows have one fixed height (no wrap).
 */
export function RuleListing({
  count,
  lineAt,
  currentIndex,
  revealIndex,
  mode,
  label,
}: {
  count: number;
  lineAt: (i: number) => ListedLine;
  currentIndex: number;
  revealIndex: number;
  mode: ProxyMode;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [rowPx, setRowPx] = useState(DEFAULT_ROW_PX);
  const windowed = count > WINDOW_FROM;
  // The listing re-renders on every scroll (that is what draws the window), so the compiler
  // skipping its memoisation costs nothing.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: windowed ? count : 0,
    getScrollElement: () => box.current,
    estimateSize: () => rowPx,
    overscan: OVERSCAN,
    scrollMargin: LIST_TOP_PX,
  });
  const rows = shownRows(
    count,
    windowed ? virtualizer.getVirtualItems().map((v) => v.index) : null,
  );

  const drawn = rows.indices.length > 0;
  // The real row height (fonts and zoom differ), once a row is drawn.
  useLayoutEffect(() => {
    const h = box.current?.querySelector('.line')?.getBoundingClientRect().height ?? 0;
    if (h > 0 && Math.abs(h - rowPx) > 0.01) setRowPx(h);
  }, [rowPx, count, drawn]);

  // The current step's rule (or a comparison's first change) into the listing's own view —
  // never the page's — when it changes, and when a hidden listing (its tab closed) shows.
  useEffect(() => {
    const container = box.current;
    if (!container || revealIndex < 0) return;
    const reveal = () => {
      const top = revealScroll(
        container.scrollTop,
        container.clientHeight,
        lineTop(revealIndex, rowPx, LIST_TOP_PX),
        rowPx,
      );
      if (top !== null) container.scrollTop = top;
    };
    reveal();
    if (typeof ResizeObserver !== 'function') return;
    let shown = container.clientHeight > 0;
    const ro = new ResizeObserver(() => {
      const now = container.clientHeight > 0;
      if (now && !shown) reveal();
      shown = now;
    });
    ro.observe(container);
    return () => ro.disconnect();
  }, [revealIndex, count, lineAt, rowPx]);

  const move = (delta: number) => {
    let i = cursor ?? (currentIndex >= 0 ? currentIndex : delta > 0 ? -1 : count);
    do i += delta;
    while (i >= 0 && i < count && lineAt(i).text.trim() === '');
    if (i < 0 || i >= count) return;
    setCursor(i);
    const container = box.current;
    if (!container) return;
    const top = nearestScroll(
      container.scrollTop,
      container.clientHeight,
      lineTop(i, rowPx, LIST_TOP_PX),
      rowPx,
    );
    if (top !== null) container.scrollTop = top;
  };

  const shown = hover ?? cursor ?? (currentIndex >= 0 ? currentIndex : null);
  const shownLine = shown !== null && shown < count ? lineAt(shown) : undefined;
  const explanation = shownLine ? explainLine(mode, shownLine.text) : undefined;

  return (
    <>
      <div
        className="rules-scroll"
        ref={box}
        tabIndex={0}
        data-own-keys
        data-windowed={windowed || undefined}
        data-line-count={count}
        aria-label={`${label}. Use the up and down arrows to read each line's explanation.`}
        aria-describedby="rule-explain"
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            move(e.key === 'ArrowDown' ? 1 : -1);
          }
        }}
        onMouseLeave={() => setHover(null)}
      >
        <pre className="mono rules">
          {rows.before > 0 && (
            <span
              className="rows-spacer"
              aria-hidden="true"
              style={{ height: rows.before * rowPx }}
            />
          )}
          {rows.indices.map((i) => {
            const l = lineAt(i);
            return (
              <span
                key={i}
                data-line={i}
                className={[
                  'line',
                  l.matched ? 'matched' : '',
                  l.current ? 'current' : '',
                  l.followed ? 'followed' : '',
                  l.change && l.change !== 'same' ? l.change : '',
                  i === cursor ? 'cursor' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                data-rule-id={l.ruleId}
                data-matched={l.matched || undefined}
                data-current={l.current || undefined}
                data-followed={l.followed || undefined}
                data-change={l.change && l.change !== 'same' ? l.change : undefined}
                onMouseEnter={() => setHover(i)}
              >
                <span className="gutter" aria-hidden="true">
                  {gutter(l)}
                </span>
                {l.text}
                {'\n'}
              </span>
            );
          })}
          {rows.after > 0 && (
            <span
              className="rows-spacer"
              aria-hidden="true"
              style={{ height: rows.after * rowPx }}
            />
          )}
        </pre>
      </div>
      <p id="rule-explain" className="rule-explain" aria-live="polite" data-testid="rule-explain">
        {shownLine && explanation ? (
          <>
            <span className="muted">
              {shown === currentIndex && hover === null && cursor === null
                ? 'This step: '
                : 'This line: '}
            </span>
            {explanation}
          </>
        ) : (
          <span className="muted">
            Point at a line, or focus the listing and use ↑/↓, to read what it does.
          </span>
        )}
      </p>
    </>
  );
}
