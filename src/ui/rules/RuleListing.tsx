import { useEffect, useRef, useState } from 'react';
import type { ProxyMode } from '../../model/kube-proxy/types';
import { explainLine } from '../../model/kube-proxy/explain';
import type { DiffLine } from '../rulesDiff';

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
 */
export function RuleListing({
  lines,
  mode,
  label,
}: {
  lines: ListedLine[];
  mode: ProxyMode;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const currentIndex = lines.findIndex((l) => l.current);

  useEffect(() => {
    const container = box.current;
    // The current step's rule, or in a comparison the first change.
    const el =
      container?.querySelector<HTMLElement>('[data-current="true"]') ??
      container?.querySelector<HTMLElement>('[data-change]');
    if (!container || !el) return;
    const top =
      el.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
    const visible =
      top >= container.scrollTop &&
      top + el.offsetHeight <= container.scrollTop + container.clientHeight;
    if (!visible) container.scrollTop = Math.max(0, top - container.clientHeight / 3);
  }, [currentIndex, lines]);

  const move = (delta: number) => {
    let i = cursor ?? (currentIndex >= 0 ? currentIndex : delta > 0 ? -1 : lines.length);
    do i += delta;
    while (i >= 0 && i < lines.length && (lines[i]?.text.trim() ?? '') === '');
    if (i < 0 || i >= lines.length) return;
    setCursor(i);
    box.current
      ?.querySelector<HTMLElement>(`[data-line="${i}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  };

  const shown = hover ?? cursor ?? (currentIndex >= 0 ? currentIndex : null);
  const shownLine = shown !== null ? lines[shown] : undefined;
  const explanation = shownLine ? explainLine(mode, shownLine.text) : undefined;

  return (
    <>
      <div
        className="rules-scroll"
        ref={box}
        tabIndex={0}
        data-own-keys
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
          {lines.map((l, i) => (
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
          ))}
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
