/**
 * Present mode over the Time & failures view (issue 13, scope 2): on one screen, the virtual
 * clock and its controls, the topology as of the clock (scaled like the trace stage), the health
 * lanes, and what happens at this moment as the caption. The forms, settings, kubectl box, log
 * table and many-connections panel stay in the desk view.
 *
 * It runs the time view's own clock and keys (`useTimeClock`, `useTimeKeys`: Space plays and
 * pauses, PageDown/→ and PageUp/← step between events, Home/End) and takes the digits (jump to
 * event N); every other key (B, ., ?, L, F, N, Esc) reaches present mode's handler. The beats it
 * reports (`onBeats`) are the timeline's moments (./timeBeats.ts), for the speaker view.
 */
import { useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import type { TimeAnswer } from '../../store/timeAnswer';
import { entryTimes } from '../../store/timelineDerive';
import { ErrorBoundary } from '../ErrorBoundary';
import { keyBelongsToTarget } from '../useGlobalKeys';
import { seek } from '../timeline/commands';
import { TimelineContext, TimeStatusContext, useTimeline } from '../timeline/context';
import { clockText } from '../timeline/format';
import { HealthLanes } from '../timeline/HealthLanes';
import { timeScenario } from '../timeline/openAsTrace';
import { provisioningStages, stageAt } from '../timeline/provisioning';
import { TimeControls } from '../timeline/TimeControls';
import { TimeTopology } from '../timeline/TimeTopology';
import { useTimeAnswer } from '../timeline/useTimeAnswer';
import { useTimeClock } from '../timeline/useTimeClock';
import { useTimeKeys } from '../timeline/useTimeKeys';
import { typeDigit } from './keys';
import type { BeatInfo } from './speakerProtocol';
import { shortEntry, tenths, timeBeatAt, timeBeatInfo, timeMoment, timeOfBeat } from './timeBeats';
import '../timeline/timeline.css';
import './presentTime.css';

/** The time view's beats as present mode shows them and the speaker view reads them. */
export interface TimeBeats {
  /** The beat on screen: moments at or before the clock (0 before the first). */
  beat: number;
  /** Moments + 1 (beat 0 included), as the trace's beats count "before the first step". */
  beats: number;
  current: BeatInfo;
  next: BeatInfo | null;
  /** The bar's counter: `Event 3 of 14 · t = 35.2 s`. */
  label: string;
  /** Moves the clock to beat `beat` (clamped) and pauses it. */
  go: (beat: number) => void;
}

interface Props {
  /** Present mode's scale (./scale.ts): the drawing is laid out for its box / scale. */
  scale: number;
  /** Told the beats whenever they change, and null when this view goes away. */
  onBeats?: ((beats: TimeBeats | null) => void) | undefined;
  /**
   * Whether the clicker keys drive the clock (default true). False while a talk plays: its
   * beats are the talk's, and the keys go to present mode.
   */
  keys?: boolean;
  /**
   * A talk's words for this beat: shown as the caption, with what happens at the moment under
   * it, smaller (a talk's author says what to look at; the model says what happened).
   */
  talkCaption?: ReactNode;
}

const selectTime = (s: Store) => s.time;
const selectObjects = (s: Store) => timeScenario(s).objects;
const selectScene = (s: Store) => timeScenario(s).scene;
const selectSimMsRounded = (s: Store) => Math.round(s.time.simMs);

/**
 * The time view in present mode: asks the model for the timeline of the inputs on screen (the
 * time view's worker) and shows it on one screen; "Computing the timeline…" until it lands.
 * Exposes `data-sim-time`, `data-horizon`, `data-state` on `[data-testid=time-view]` as the
 * desk view does.
 */
export default function PresentTime({ scale, onBeats, keys = true, talkCaption }: Props) {
  const objects = useAppStore(selectObjects);
  const scene = useAppStore(selectScene);
  const { controller, healthCheck, events, workload } = useAppStore(selectTime);
  const { answer, pending, busy } = useTimeAnswer(objects, scene, {
    controller,
    healthCheck,
    events,
    workload,
  });
  useEffect(() => () => onBeats?.(null), [onBeats]);
  if (!answer)
    return (
      <section
        className="present-time"
        data-testid="time-view"
        data-state="computing"
        aria-busy="true"
        aria-label="Time and failures"
      >
        <p className="present-time-loading" role="status">
          Computing the timeline…
        </p>
      </section>
    );
  return (
    <Loaded
      answer={answer}
      pending={pending}
      busy={busy}
      scale={scale}
      onBeats={onBeats}
      keys={keys}
      talkCaption={talkCaption}
    />
  );
}

function Loaded({
  answer,
  pending,
  busy,
  scale,
  onBeats,
  keys = true,
  talkCaption,
}: Props & { answer: TimeAnswer; pending: boolean; busy: boolean }) {
  const store = useAppStoreApi();
  const { derived } = answer;
  const status = useMemo(() => ({ pending, busy }), [pending, busy]);
  const horizon = derived.ok ? derived.timeline.settings.horizonMs : 0;
  const times = useMemo(() => (derived.ok ? entryTimes(derived.timeline) : []), [derived]);
  useTimeClock(store, horizon);
  useTimeKeys(store, times, horizon, { enabled: keys, pageKeys: true });
  useDigitKeys(times, horizon, keys);
  const simMs = useAppStore(selectSimMsRounded);
  return (
    <TimelineContext.Provider value={derived}>
      <TimeStatusContext.Provider value={status}>
        <section
          className="present-time"
          data-testid="time-view"
          data-sim-time={simMs}
          data-horizon={horizon}
          data-state={pending ? 'computing' : derived.ok ? 'ready' : 'error'}
          aria-label="Time and failures"
          aria-busy={busy}
        >
          {derived.ok ? (
            <Screen times={times} scale={scale} onBeats={onBeats} talkCaption={talkCaption} />
          ) : (
            <p className="model-error present-time-error" role="alert" data-testid="time-error">
              The model could not simulate this scenario over time: {derived.error}. Leave present
              mode (Esc) to change the inputs.
            </p>
          )}
        </section>
      </TimeStatusContext.Provider>
    </TimelineContext.Provider>
  );
}

/**
 * Digits jump to event N (0: the start), two typed quickly for 10 and up — present mode's
 * digits, with the events as beats. A capture listener that marks the key handled, so present
 * mode's own handler (which would move the trace's step) leaves it alone.
 */
function useDigitKeys(times: readonly number[], horizonMs: number, enabled: boolean): void {
  const store = useAppStoreApi();
  const ref = useRef({ times, horizonMs });
  const buffer = useRef<{ value: number; at: number } | null>(null);
  useEffect(() => {
    ref.current = { times, horizonMs };
  }, [times, horizonMs]);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (!/^[0-9]$/.test(e.key) || keyBelongsToTarget(e.key, e.target)) return;
      e.preventDefault();
      const { times: t, horizonMs: h } = ref.current;
      buffer.current = typeDigit(buffer.current, Number(e.key), performance.now(), t.length + 1);
      seek(store, timeOfBeat(t, buffer.current.value), h);
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [store, enabled]);
}

const selectSimMs = (s: Store) => s.time.simMs;

/** The one screen: clock, drawing, lanes, caption. */
function Screen({
  times,
  scale,
  onBeats,
  talkCaption,
}: {
  times: readonly number[];
  scale: number;
  onBeats?: ((beats: TimeBeats | null) => void) | undefined;
  talkCaption?: ReactNode;
}) {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const horizon = timeline.settings.horizonMs;
  const beat = useAppStore((s) => timeBeatAt(times, selectSimMs(s)));
  const stages = useMemo(() => provisioningStages(timeline), [timeline]);
  const stage = useAppStore((s) => stageAt(stages, selectSimMs(s)));
  const moment = useMemo(() => timeMoment(timeline.entries, times, beat), [timeline, times, beat]);

  useEffect(() => {
    if (!onBeats) return;
    const beats = times.length + 1;
    onBeats({
      beat,
      beats,
      current: timeBeatInfo(timeline.entries, times, beat),
      next: beat + 1 < beats ? timeBeatInfo(timeline.entries, times, beat + 1) : null,
      label: `Event ${beat} of ${times.length} · ${clockText(tenths(moment.at))}`,
      go: (b) => seek(store, timeOfBeat(times, b), horizon),
    });
  }, [onBeats, beat, times, timeline, moment.at, store, horizon]);

  return (
    <>
      <div className="present-time-clock">
        <ErrorBoundary name="the clock">
          <TimeControls horizonMs={horizon} times={times} />
        </ErrorBoundary>
      </div>
      <section className="present-time-stage" aria-label="Topology over time">
        <ErrorBoundary name="the topology over time">
          <TimeTopology stage={stage} scale={timeDrawingScale(scale)} />
        </ErrorBoundary>
      </section>
      <div className="present-time-below">
        <section className="present-time-lanes" aria-label="Health checks">
          <ErrorBoundary name="the health lanes">
            <HealthLanes compact />
          </ErrorBoundary>
        </section>
        <section
          className="present-caption present-time-caption"
          aria-labelledby="present-time-caption-title"
          data-testid="time-caption"
          data-beat={beat}
          data-at={moment.at}
        >
          <h2 id="present-time-caption-title" className="visually-hidden">
            What happens
          </h2>
          {talkCaption}
          <div
            aria-live="polite"
            aria-atomic="true"
            className={talkCaption ? 'present-time-under' : undefined}
          >
            {moment.headline ? (
              <>
                <p className="present-time-when">
                  <span className="mono">{clockText(tenths(moment.at))}</span> ·{' '}
                  {moment.headline.actor}
                  {moment.headline.reason && (
                    <span className="mono"> · {moment.headline.reason}</span>
                  )}
                </p>
                <p className="present-time-what" data-testid="time-caption-text">
                  {moment.headline.message}
                </p>
                {moment.others.length > 0 && (
                  <p className="present-time-also">
                    Also now:{' '}
                    {moment.others.map((e, i) => (
                      <span key={e.seq}>
                        {i > 0 && ' · '}
                        <span className="present-time-also-item">{shortEntry(e)}</span>
                      </span>
                    ))}
                  </p>
                )}
              </>
            ) : (
              <p className="present-time-what" data-testid="time-caption-text">
                {clockText(0)}: nothing has happened yet. Space plays the clock; Page Down goes to
                the first event.
              </p>
            )}
          </div>
        </section>
      </div>
    </>
  );
}

/**
 * The drawing's scale here: three quarters of present mode's (1.5 at 1920×1080: 18 px labels),
 * never below 1. The trace stage has the screen to itself; here the drawing (about 370 units
 * tall for three nodes, and it never shrinks) shares it with the clock, the lanes and the
 * caption, and at the full scale it alone would need 740 of 1080 px.
 */
export function timeDrawingScale(scale: number): number {
  return Math.max(1, Math.round(scale * 75) / 100);
}
