import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConnectionFate, ConnectionRecord, Timeline } from '../../model/time/types';
import { useAppStore, useAppStoreApi } from '../../store';
import { seek } from './commands';
import { useTimeline } from './context';
import { clockText, count, seconds } from './format';
import { openAsTrace } from './openAsTrace';
import { deadNodeText, pathText } from './windows';

/** What each fate means, for the summary. */
const FATE_TEXT: Record<ConnectionFate, string> = {
  completed: 'completed normally',
  open: 'still open at the end of the run',
  'timed-out':
    'timed out: the SYN went to a dead node, or was DNATed to a Pod on one, and nothing answered',
  refused: 'refused: kube-proxy had no endpoint for them',
  'no-address': 'never sent: EXTERNAL-IP was still <pending>',
  blackholed:
    'blackholed: open when a node on their path died; packets vanish until the client gives up',
  drained: 'drained: their Pod was terminating, conntrack kept them on it and they finished',
  reset:
    'reset: still open when their Pod’s process was killed at the end of its grace period; the kernel closed the sockets (a FIN, or an RST if data was unread), before the application had finished',
};

const FATE_ORDER: ConnectionFate[] = [
  'completed',
  'open',
  'drained',
  'blackholed',
  'reset',
  'timed-out',
  'refused',
  'no-address',
];

/** How many entries have happened by `simMs` (re-renders only when that number changes). */
function usePast(timeline: Timeline): number {
  return useAppStore((s) => {
    const at = s.time.simMs;
    let n = 0;
    for (const e of timeline.entries) {
      if (e.at > at) break;
      n++;
    }
    return n;
  });
}

/**
 * "What happens": the timeline's entries as a log (time, who, what, why), the window during
 * which new connections still went to a dead node with their count, and the fate of the
 * connections, each kind said in words. Every time can be jumped to.
 */
export function EventLog() {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const past = usePast(timeline);
  const logRef = useRef<HTMLDivElement>(null);
  // Keep the entry of the moment in view inside the log (not the page), without animation.
  useEffect(() => {
    const wrap = logRef.current;
    const row = wrap?.querySelector<HTMLElement>('tr.now');
    if (!wrap || !row) return;
    if (
      row.offsetTop < wrap.scrollTop + 24 ||
      row.offsetTop > wrap.scrollTop + wrap.clientHeight - 24
    )
      wrap.scrollTop = Math.max(0, row.offsetTop - wrap.clientHeight / 2);
  }, [past]);
  const horizon = timeline.settings.horizonMs;
  const fates = useMemo(() => {
    const m = new Map<ConnectionFate, number>();
    for (const c of timeline.connections) m.set(c.fate, (m.get(c.fate) ?? 0) + 1);
    return m;
  }, [timeline]);
  return (
    <div className="what-happens">
      {timeline.deadNodeWindows.length > 0 && (
        <ul className="dead-windows" aria-label="What a dead node cost new connections">
          {timeline.deadNodeWindows.map((w) => {
            const text = deadNodeText(w, timeline);
            return (
              <li
                key={`${w.node}-${w.failedAt}`}
                className={`dead-window${w.wasInRotation ? '' : ' not-in-rotation'}`}
                data-testid="dead-window"
                data-node={w.node}
                data-count={w.connectionsSent}
                data-failed-at={w.failedAt}
                data-left-at={w.leftRotationAt ?? ''}
                data-in-rotation={w.wasInRotation}
                data-stale-count={w.staleEndpointConnections}
                data-endpoints-updated-at={w.endpointsUpdatedAt ?? ''}
              >
                <p>
                  <strong>{text.balancer.headline}</strong> {text.balancer.detail}
                </p>
                {text.stale && (
                  <p data-testid="stale-window">
                    <strong>{text.stale.headline}</strong> {text.stale.detail}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="fates" data-testid="fates">
        <h3>What happened to the connections</h3>
        <ul>
          {FATE_ORDER.filter((f) => (fates.get(f) ?? 0) > 0).map((f) => (
            <li key={f} data-fate={f} data-count={fates.get(f)}>
              <strong>{count(fates.get(f) ?? 0)}</strong> {FATE_TEXT[f]}
            </li>
          ))}
        </ul>
      </div>
      <div className="log-wrap" tabIndex={0} role="region" aria-label="Event log" ref={logRef}>
        <table className="log" data-testid="event-log">
          <caption className="visually-hidden">Everything that happened, in order</caption>
          <thead>
            <tr>
              <th scope="col">t</th>
              <th scope="col">who</th>
              <th scope="col">what and why</th>
            </tr>
          </thead>
          <tbody>
            {timeline.entries.map((e, i) => (
              <tr
                key={e.seq}
                className={`${i < past ? 'past' : 'future'}${i === past - 1 ? ' now' : ''} kind-${e.kind}`}
                data-entry-kind={e.kind}
                data-at={e.at}
                aria-current={i === past - 1 ? 'true' : undefined}
              >
                <td className="mono">
                  <button
                    type="button"
                    className="link"
                    onClick={() => seek(store, e.at, horizon)}
                    aria-label={`Go to ${clockText(e.at)}`}
                  >
                    {seconds(e.at)}
                  </button>
                </td>
                <td className="who">{e.actor}</td>
                <td>
                  {e.reason && <span className="reason mono">{e.reason}</span>} {e.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConnectionList timeline={timeline} />
    </div>
  );
}

const SHOWN = 12;

/** Connections to open as a trace: the long-lived ones, then a page of a chosen fate. */
function ConnectionList({ timeline }: { timeline: Timeline }) {
  const store = useAppStoreApi();
  const [fate, setFate] = useState<ConnectionFate | 'all'>('all');
  const [error, setError] = useState('');
  const simMs = useAppStore((s) => Math.floor(s.time.simMs / 1000) * 1000);
  const shown = useMemo(() => {
    const list = timeline.connections;
    const matches = (c: ConnectionRecord) => !c.longLived && (fate === 'all' || c.fate === fate);
    // The connections opened most recently before the clock, else the first ones.
    let end = list.findIndex((c) => c.openedAt > simMs);
    if (end < 0) end = list.length;
    const out: ConnectionRecord[] = [];
    for (let i = end - 1; i >= 0 && out.length < SHOWN; i--) {
      const c = list[i];
      if (c && matches(c)) out.push(c);
    }
    for (let i = end; i < list.length && out.length < SHOWN; i++) {
      const c = list[i];
      if (c && matches(c)) out.push(c);
    }
    return [
      ...timeline.connections.filter((c) => c.longLived),
      ...out.sort((a, b) => a.openedAt - b.openedAt),
    ];
  }, [timeline, fate, simMs]);
  const open = (id: string) => {
    try {
      openAsTrace(store, timeline, id);
    } catch (e) {
      setError(`Could not open ${id} as a trace: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <div className="conn-list" data-testid="connection-list">
      <h3>Connections around the clock</h3>
      <label>
        Fate{' '}
        <select value={fate} onChange={(e) => setFate(e.target.value as ConnectionFate | 'all')}>
          <option value="all">all</option>
          {FATE_ORDER.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty">No connection of that fate in this run.</p>
      ) : (
        <table className="conns">
          <thead>
            <tr>
              <th scope="col">id</th>
              <th scope="col">opened</th>
              <th scope="col">path</th>
              <th scope="col">fate</th>
              <th scope="col">why it ended so</th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((c) => (
              <tr
                key={c.id}
                data-connection={c.id}
                data-fate={c.fate}
                data-long-lived={c.longLived}
              >
                <td className="mono">{c.id}</td>
                <td className="mono">{seconds(c.openedAt)}</td>
                <td className="path">{pathText(c, timeline)}</td>
                <td className="mono">{c.fate}</td>
                <td className="why">{c.fateReason}</td>
                <td>
                  <button
                    type="button"
                    onClick={() => open(c.id)}
                    aria-label={`Open ${c.id} as a trace`}
                    data-open-trace={c.id}
                  >
                    Open as trace
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
