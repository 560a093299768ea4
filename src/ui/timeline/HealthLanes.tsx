import { useId, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ProbeRecord, TimelineEvent } from '../../model/time/types';
import { useAppStoreApi } from '../../store';
import { shortName } from '../traceView';
import { seek, togglePlay } from './commands';
import { useSimMs, useTimeline } from './context';
import { eventGlyph, eventText, plural, seconds } from './format';
import { linearScale } from './scale';
import {
  laneNodes,
  probeMark,
  probeResultText,
  probeSentence,
  registrationOf,
  rotationSpans,
} from './lanes';

/** The drawing's width in SVG units; compact lanes are narrower, so their text draws larger. */
const WIDE_W = 1000;
const COMPACT_W = 580;
const LABEL_W = 128;
const RIGHT = 12;
const AXIS_H = 40;
const LANE_H = 64;
/** Width of one character of the lanes' 11 px labels, a little wide (DejaVu Sans). */
const CHAR_W = 6.6;
/** Characters of a node's name that fit the lane's label column (12 px bold, ~8.6 px each). */
const LABEL_CHARS = Math.floor((LABEL_W - 14) / 8.6);
/** Simulated ms shown when zoomed around the clock. */
const WINDOW_MS = 90_000;

/** A probe's mark: a circle (passed), a cross (HTTP error) or an hourglass (timed out). */
function Mark({ p, x, y, selected }: { p: ProbeRecord; x: number; y: number; selected: boolean }) {
  const kind = probeMark(p);
  const r = 5;
  return (
    <g
      className={`probe ${kind}${selected ? ' selected' : ''}`}
      data-probe-at={p.at}
      data-result={kind}
    >
      <title>{`t = ${seconds(p.at)}: ${probeResultText(p)} — ${p.summary}`}</title>
      {kind === 'ok' && <circle cx={x} cy={y} r={r} />}
      {kind === 'fail' && (
        <path
          d={`M ${x - r} ${y - r} L ${x + r} ${y + r} M ${x + r} ${y - r} L ${x - r} ${y + r}`}
        />
      )}
      {kind === 'timeout' && (
        <path
          d={`M ${x - r} ${y - r} L ${x + r} ${y - r} L ${x - r} ${y + r} L ${x + r} ${y + r} Z`}
        />
      )}
      {selected && <circle className="probe-ring" cx={x} cy={y} r={r + 4} />}
    </g>
  );
}

/**
 * One lane per node (SVG, a linear scale for time → x, see `scale.ts`): the balancer's probes as marks whose shape
 * and text tell the result, the node's in/out-of-rotation state as a labelled band (hatched
 * when out), the window in which new connections still reached a dead node, the scheduled
 * events and the clock's cursor. A lane takes focus; ← / → read its probes one by one (the
 * sentence appears under the lanes and is announced), ↑ / ↓ change lane, Enter moves the clock
 * to the probe. The lanes show the whole run or 90 s around the clock.
 *
 * `compact` (present mode) leaves out the sentence about the settings, the zoom choice and the
 * probe reader's hint, and draws {@link COMPACT_W} units across instead of {@link WIDE_W}: the
 * lanes, their legend and the whole run only, for a half-screen column.
 */
export function HealthLanes({ compact = false }: { compact?: boolean } = {}) {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const simMs = useSimMs();
  const clipId = useId();
  const W = compact ? COMPACT_W : WIDE_W;
  const horizon = timeline.settings.horizonMs;
  const [zoom, setZoom] = useState<'all' | 'window'>('all');
  const nodes = useMemo(() => laneNodes(timeline), [timeline]);
  const registration = useMemo(() => registrationOf(timeline), [timeline]);
  const [from, to] =
    zoom === 'all' || horizon <= WINDOW_MS
      ? [0, horizon]
      : (() => {
          const start = Math.max(0, Math.min(horizon - WINDOW_MS, simMs - WINDOW_MS / 3));
          return [start, start + WINDOW_MS];
        })();
  const x = useMemo(() => linearScale([from, to], [LABEL_W, W - RIGHT]), [from, to, W]);
  const visible = (t: number) => t >= from && t <= to;
  const probesBy = useMemo(() => {
    const m = new Map<string, ProbeRecord[]>();
    for (const p of timeline.probes) {
      const list = m.get(p.node) ?? [];
      list.push(p);
      m.set(p.node, list);
    }
    return m;
  }, [timeline]);
  const [sel, setSel] = useState<{ node: string; i: number } | null>(null);
  const H = AXIS_H + nodes.length * LANE_H + 4;
  const hc = timeline.settings.healthCheck;
  const controller = timeline.settings.provisioning.controller;
  const events: TimelineEvent[] = timeline.base.events;
  const selected = sel ? probesBy.get(sel.node)?.[sel.i] : undefined;

  const onKey = (node: string) => (e: KeyboardEvent<SVGGElement>) => {
    const list = probesBy.get(node) ?? [];
    const cur = sel?.node === node ? sel.i : -1;
    const lane = nodes.indexOf(node);
    let handled = true;
    if (e.key === 'ArrowRight') setSel({ node, i: Math.min(list.length - 1, cur + 1) });
    else if (e.key === 'ArrowLeft') setSel({ node, i: Math.max(0, cur < 0 ? 0 : cur - 1) });
    else if (e.key === 'Home') setSel({ node, i: 0 });
    else if (e.key === 'End') setSel({ node, i: list.length - 1 });
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = nodes[lane + (e.key === 'ArrowDown' ? 1 : -1)];
      const svg = e.currentTarget.ownerSVGElement;
      // Compared as data, never built into a selector: a node name may hold `"` or `]`.
      if (next !== undefined && svg)
        [...svg.querySelectorAll<SVGGElement>('[data-lane]')]
          .find((g) => g.dataset['lane'] === next)
          ?.focus();
    } else if (e.key === 'Enter' && selected) seek(store, selected.at, horizon);
    // The lane keeps ← → for its probes, but Space still plays and pauses the clock.
    else if (e.key === ' ') togglePlay(store, horizon);
    else handled = false;
    if (handled) e.preventDefault();
  };

  const ticks = x.ticks(zoom === 'all' ? 10 : 9);
  const cursorX = x(Math.min(Math.max(simMs, from), to));
  return (
    <div className="lanes" data-testid="health-lanes" data-zoom={zoom}>
      {!compact && (
        <div className="lanes-head">
          <p className="note">
            {controller === 'none'
              ? 'No load balancer, so no health checks: nothing probes the nodes.'
              : controller === 'metallb-l2'
                ? 'MetalLB layer 2 has no balancer and so no health checks: one node’s speaker answers ARP for the address, and another takes over only when memberlist declares that node dead.'
                : `The balancer probes every node every ${hc.intervalSeconds} s (timeout ${hc.timeoutSeconds} s); a node joins the rotation after ${hc.healthyThreshold} passing probe${hc.healthyThreshold === 1 ? '' : 's'} in a row and leaves it after ${hc.unhealthyThreshold} failing ones.`}
          </p>
          <fieldset className="radio-group zoom" data-group="lanes-zoom">
            <legend>Show</legend>
            <div className="radios">
              <label>
                <input
                  type="radio"
                  name={`${clipId}-zoom`}
                  checked={zoom === 'all'}
                  onChange={() => setZoom('all')}
                />
                the whole run ({seconds(horizon)})
              </label>
              <label>
                <input
                  type="radio"
                  name={`${clipId}-zoom`}
                  checked={zoom === 'window'}
                  onChange={() => setZoom('window')}
                />
                90 s around the clock
              </label>
            </div>
          </fieldset>
        </div>
      )}
      <div className="lanes-scroll">
        <svg
          viewBox={`0 0 ${W} ${H}`}
          className="lanes-svg"
          // At least W px wide, so its 12-unit text is never drawn under 12 px: a narrow
          // window scrolls the lanes sideways instead of shrinking them (a phone).
          style={{ minWidth: W }}
          role="group"
          aria-label={`Health checks from ${seconds(from)} to ${seconds(to)}, one lane per node`}
        >
          <defs>
            <pattern
              id={`${clipId}-hatch`}
              width="6"
              height="6"
              patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)"
            >
              <line x1="0" y1="0" x2="0" y2="6" className="lane-hatch-line" />
            </pattern>
            <clipPath id={`${clipId}-plot`}>
              <rect x={LABEL_W - 8} y={0} width={W - RIGHT - LABEL_W + 16} height={H} />
            </clipPath>
          </defs>
          <g className="axis" aria-hidden="true">
            {ticks.map((t) => (
              <g key={t}>
                <line x1={x(t)} x2={x(t)} y1={AXIS_H - 6} y2={H} />
                <text x={x(t)} y={AXIS_H - 9} textAnchor="middle">
                  {seconds(t)}
                </text>
              </g>
            ))}
          </g>
          {nodes.map((node, li) => {
            const y0 = AXIS_H + li * LANE_H;
            const list = probesBy.get(node) ?? [];
            const spans = rotationSpans(timeline.rotation, node, horizon, registration);
            // Only a node that was in rotation when it died has a window (none for 0 s).
            const mineWindows = timeline.deadNodeWindows.filter(
              (w) =>
                w.node === node &&
                w.wasInRotation &&
                (w.leftRotationAt === null || w.leftRotationAt > w.failedAt),
            );
            const nowSpan = spans.find((s) => s.from <= simMs && simMs < s.to) ?? spans.at(-1);
            const nowState = nowSpan?.state;
            const excluded =
              controller === 'cloud' &&
              registration.registeredAt !== null &&
              !registration.targets.includes(node);
            const stateText =
              nowState === 'in'
                ? '● in rotation'
                : nowState === 'out'
                  ? nowSpan?.neverPassed
                    ? '○ never passed'
                    : '○ out of rotation'
                  : excluded
                    ? '· not a target (label)'
                    : '· not a target';
            return (
              <g
                key={node}
                className="lane"
                data-lane={node}
                data-rotation={nowState}
                tabIndex={0}
                data-own-keys
                role="group"
                aria-label={`${node}: ${plural(list.length, 'probe')}, now ${nowSpan?.neverPassed ? 'out of rotation, never passed a probe' : stateText.slice(2)}. ← → read the probes, ↑ ↓ change node, Enter moves the clock there, Space plays or pauses.`}
                onKeyDown={onKey(node)}
                onFocus={() => {
                  if (sel?.node !== node && list.length > 0) {
                    const after = list.findIndex((p) => p.at > simMs);
                    setSel({ node, i: after < 0 ? list.length - 1 : Math.max(0, after - 1) });
                  }
                }}
              >
                <rect className="lane-bg" x={0} y={y0} width={W} height={LANE_H - 4} rx={4} />
                <text className="lane-label" x={8} y={y0 + 20}>
                  <title>{node}</title>
                  {shortName(node, LABEL_CHARS)}
                </text>
                <text className="lane-sub" x={8} y={y0 + 38}>
                  {stateText}
                </text>
                <g clipPath={`url(#${clipId}-plot)`}>
                  {spans.map((s) =>
                    s.state === 'unregistered' || s.to < from || s.from > to ? null : (
                      <g
                        key={s.from}
                        className={`band ${s.state}`}
                        data-band={s.state}
                        data-from={s.from}
                      >
                        <title>{`${s.state === 'in' ? 'In rotation' : s.neverPassed ? 'Out of rotation, never passed' : 'Out of rotation'} from t = ${seconds(s.from)}: ${s.reason}`}</title>
                        <rect
                          x={x(Math.max(s.from, from))}
                          y={y0 + 5}
                          width={Math.max(1, x(Math.min(s.to, to)) - x(Math.max(s.from, from)))}
                          height={15}
                          fill={s.state === 'out' ? `url(#${clipId}-hatch)` : undefined}
                        />
                        {x(Math.min(s.to, to)) - x(Math.max(s.from, from)) > 90 && (
                          <text x={x(Math.max(s.from, from)) + 4} y={y0 + 16}>
                            {s.state === 'in'
                              ? 'in rotation'
                              : s.neverPassed &&
                                  x(Math.min(s.to, to)) - x(Math.max(s.from, from)) > 200
                                ? 'out of rotation — never passed'
                                : 'out of rotation'}
                          </text>
                        )}
                      </g>
                    ),
                  )}
                  {mineWindows.map((w) => {
                    const end = w.leftRotationAt ?? horizon;
                    const label = `${plural(w.connectionsSent, 'new connection')} to a dead node`;
                    // Kept inside the plot: a window near the right edge is labelled leftwards.
                    const right = W - RIGHT - 2;
                    const fits = x(w.failedAt) + 3 + label.length * CHAR_W <= right;
                    return (
                      <g key={w.failedAt} className="dead-window" data-testid="dead-window-mark">
                        <title>{`${node} dead but still in rotation from t = ${seconds(w.failedAt)} to ${w.leftRotationAt === null ? 'the end' : `t = ${seconds(w.leftRotationAt)}`}: ${plural(w.connectionsSent, 'new connection')} sent to it`}</title>
                        <rect
                          x={x(w.failedAt)}
                          y={y0 + 23}
                          width={Math.max(2, x(end) - x(w.failedAt))}
                          height={22}
                        />
                        <text
                          x={
                            fits
                              ? x(w.failedAt) + 3
                              : Math.min(right, Math.max(x(end), x(w.failedAt)))
                          }
                          y={y0 + 56}
                          textAnchor={fits ? 'start' : 'end'}
                        >
                          {label}
                        </text>
                      </g>
                    );
                  })}
                  {list.map((p, i) =>
                    visible(p.at) ? (
                      <Mark
                        key={p.at}
                        p={p}
                        x={x(p.at)}
                        y={y0 + 34}
                        selected={sel?.node === node && sel.i === i}
                      />
                    ) : null,
                  )}
                </g>
              </g>
            );
          })}
          <g className="event-marks" aria-hidden="true" clipPath={`url(#${clipId}-plot)`}>
            {events.map((e, i) =>
              visible(e.at) ? (
                <g key={`${e.at}-${i}`} className="event-mark">
                  <line x1={x(e.at)} x2={x(e.at)} y1={AXIS_H - 4} y2={H} />
                  <text x={x(e.at) + 3} y={11 + (i % 2) * 12}>
                    {`${eventGlyph(e)} ${eventText(e)}`}
                  </text>
                </g>
              ) : null,
            )}
          </g>
          <line
            className="cursor"
            x1={cursorX}
            x2={cursorX}
            y1={AXIS_H - 8}
            y2={H}
            aria-hidden="true"
          />
        </svg>
      </div>
      <p className="lane-caption" aria-live="polite" data-testid="probe-caption">
        {selected
          ? probeSentence(selected, hc.unhealthyThreshold)
          : compact
            ? ''
            : 'Focus a lane (Tab) and use ← → to read its probes; hover a mark for its result.'}
      </p>
      <p className="lane-legend">
        <span>
          <svg className="legend-mark" viewBox="-7 -7 14 14" aria-hidden="true">
            <circle className="ok" r={5} />
          </svg>{' '}
          passed (✓ 200)
        </span>
        <span>
          <svg className="legend-mark" viewBox="-7 -7 14 14" aria-hidden="true">
            <path className="fail" d="M -5 -5 L 5 5 M 5 -5 L -5 5" />
          </svg>{' '}
          failed (✗ 503)
        </span>
        <span>
          <svg className="legend-mark" viewBox="-7 -7 14 14" aria-hidden="true">
            <path className="timeout" d="M -5 -5 L 5 -5 L -5 5 L 5 5 Z" />
          </svg>{' '}
          no answer (∅ timeout)
        </span>
        <span className="legend-in">band: in rotation</span>
        <span className="legend-out">hatched band: out of rotation</span>
        <span className="legend-dead">red box: dead node still in rotation</span>
      </p>
    </div>
  );
}
