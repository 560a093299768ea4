import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { formatSimTime } from '../../model/time';
import type { ResolvedTime } from '../../tutorial';
import { DISPLACED_NOTE, useReader } from './context';
import { revealStage } from './layout';
import { textOf, withoutPlayMark } from './SceneLink';
import { resolveTime, timeErrors } from './times';

/** A time query being resolved, resolved, or not resolvable (with why). */
type TimeLinkState =
  | { status: 'pending' }
  | { status: 'ok'; time: ResolvedTime }
  | { status: 'error'; message: string };

/** Resolves `query` once per query (the example scenario it names is fetched and cached). */
function useTimeLink(query: string): TimeLinkState {
  const [state, setState] = useState<{ query: string; value: TimeLinkState }>({
    query,
    value: { status: 'pending' },
  });
  useEffect(() => {
    let live = true;
    void resolveTime(query).then((r) => {
      if (!live) return;
      setState({
        query,
        value: r.ok ? { status: 'ok', time: r.time } : { status: 'error', message: timeErrors(r) },
      });
    });
    return () => {
      live = false;
    };
  }, [query]);
  return state.query === query ? state.value : { status: 'pending' };
}

/** A small clock face, drawn (Debian's fonts have no glyph for ⏱). Decorative. */
function ClockIcon() {
  return (
    <svg
      className="time-link-icon"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path
        d="M8 4.2V8l2.6 1.6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * A time link, `[text](time:events=fail:node-1@60s&at=90s)`: a button (a drawn clock, then the
 * text) that switches the app to the "Time & failures" view with the scenario, policy,
 * controller, events, health-check settings and connections the query names, the clock paused
 * at `at`. The reader stays open. A link that does not resolve shows as broken text, with the
 * problem in its title and in hidden text.
 *
 * For tests: `data-time-query` (the part after `time:`) and `data-time-state` (`pending`, `ok`,
 * `error`).
 */
export function TimeLink({ query, children: given }: { query: string; children: ReactNode }) {
  const { mainStore, openInVisualiser, announce } = useReader();
  const children = withoutPlayMark(given);
  const state = useTimeLink(query);
  if (state.status === 'error')
    return (
      <span
        className="scene-link time-link broken"
        title={`Broken time link: ${state.message}`}
        data-time-query={query}
        data-time-state="error"
      >
        <span aria-hidden="true">⚠ </span>
        {children}
        <span className="visually-hidden"> (broken time link: {state.message})</span>
      </span>
    );
  const open = async (origin: HTMLElement) => {
    const r =
      state.status === 'ok' ? { ok: true as const, time: state.time } : await resolveTime(query);
    if (!r.ok) return announce(`This time link could not be opened: ${timeErrors(r)}`);
    const { view, time, simMs } = r.time.open;
    const displaced = openInVisualiser(view);
    mainStore.getState().openTime({ ...time, simMs });
    announce(
      `The Time & failures view now shows: ${textOf(children).trim()}, with the clock at ${formatSimTime(simMs)}.${displaced ? DISPLACED_NOTE : ''}`,
    );
    revealStage(origin, 'time');
  };
  return (
    <button
      type="button"
      className="scene-link time-link"
      data-time-query={query}
      data-time-state={state.status}
      title="Show this in the Time & failures view"
      onClick={(e) => void open(e.currentTarget)}
    >
      <ClockIcon /> {children}
    </button>
  );
}
