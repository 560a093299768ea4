/**
 * Present mode (issue 13): the stage fills the screen, the narration is its caption, every
 * other piece of the app is hidden, and the keys are a clicker's (./keys.ts). Entered by the
 * header's Present button, `?present=1` or `F`; left with Esc (./route.ts).
 *
 * Beats: without a talk, one beat per trace step ("before the first step" is beat 0, as the
 * player's step buttons number them). Type scales with the screen (./scale.ts).
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties } from 'react';
import {
  selectCluster,
  selectScene,
  selectStepCount,
  selectStepIndex,
  selectTrace,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { ErrorBoundary } from '../ErrorBoundary';
import { Topology } from '../topology/Topology';
import { Narration, narrationText } from '../panels/Narration';
import { OutcomeBanner } from '../panels/OutcomeBanner';
import { usePlaybackClock } from '../usePlaybackClock';
import { counterText } from '../controls/PlaybackControls';
import { keyBelongsToTarget } from '../useGlobalKeys';
import { enterFullscreen, exitFullscreen, isFullscreen } from './fullscreen';
import { PRESENT_KEYS, presentActionFor, typeDigit } from './keys';
import { Laser } from './Laser';
import { presentScale } from './scale';
import { setPresentRoute, usePresentRoute } from './route';
import { applyBeat } from './applyBeat';
import { useTalk, useTalkList } from './useTalk';
import { openSpeakerLink, speakerUrl } from './speakerProtocol';
import type { BeatInfo, PresentMessage, PresentState, SpeakerLink } from './speakerProtocol';
import type { TimeBeats } from './PresentTime';
import './present.css';

/** The Time & failures view in present mode (its own chunk, with the time view's). */
const PresentTime = lazy(() => import('./PresentTime'));

/** The speaker view's window, once opened (one per page: `N` again brings it back). */
let notesWindow: Window | null = null;

/** The window's size in CSS px, kept up to date. */
function useWindowSize(): { width: number; height: number } {
  const [size, setSize] = useState(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
  }));
  useEffect(() => {
    const on = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

function KeysHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div
      className="present-help"
      role="dialog"
      aria-modal="true"
      aria-labelledby="present-help-title"
      data-testid="present-help"
    >
      <h2 id="present-help-title">Present mode keys</h2>
      <dl>
        {PRESENT_KEYS.map((k) => (
          <div key={k.does}>
            <dt>
              {k.keys.map((key, i) => (
                <span key={key}>
                  {i > 0 && ' '}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{k.does}</dd>
          </div>
        ))}
      </dl>
      <button type="button" ref={close} onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/** The present-mode view (inside the app's `.app` element, which holds the theme). */
export function PresentView() {
  const store = useAppStoreApi();
  usePlaybackClock(store);
  const stepIndex = useAppStore(selectStepIndex);
  const steps = useAppStore(selectStepCount);
  const route = usePresentRoute();
  const talkState = useTalk(route.talk);
  const talk = talkState.status === 'ok' ? talkState.talk : null;
  const talks = useTalkList();
  // The beats: a talk's sections, or the trace's steps ("before the first step" is beat 0).
  // Without a talk, the Time & failures view's beats are its moments (PresentTime reports them).
  const timeView = useAppStore((s) => s.time.view) === 'time';
  const [timeBeats, setTimeBeats] = useState<TimeBeats | null>(null);
  const byTime = timeView && !talk ? timeBeats : null;
  const beats = talk ? talk.beats.length : byTime ? byTime.beats : steps + 1;
  const beat = talk ? Math.min(route.beat, beats - 1) : byTime ? byTime.beat : stepIndex + 1;
  const now = useRef({ beat, beats });
  useEffect(() => {
    now.current = { beat, beats };
  }, [beat, beats]);
  const [beatError, setBeatError] = useState<string | null>(null);
  const { width, height } = useWindowSize();
  const scale = presentScale(width, height);
  const [blank, setBlank] = useState(false);
  const [help, setHelp] = useState(false);
  const [laser, setLaser] = useState(false);
  const [full, setFull] = useState(() => isFullscreen());
  const root = useRef<HTMLElement>(null);
  const digits = useRef<{ value: number; at: number } | null>(null);
  const trace = useAppStore(selectTrace);
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  const [startedAt] = useState(() => Date.now());
  const link = useRef<SpeakerLink | null>(null);

  const go = useCallback(
    (b: number) => {
      const to = Math.max(0, Math.min(now.current.beats - 1, b));
      if (talk) return setPresentRoute({ on: true, talk: talk.id, beat: to });
      if (byTime) return byTime.go(to);
      const s = store.getState();
      s.setPlaying(false);
      s.setStepIndex(to - 1);
    },
    [store, talk, byTime],
  );

  // A talk's beat puts the app on its scene or time moment (the stage follows the store).
  const current = talk?.beats[beat];
  useEffect(() => {
    if (!current) return;
    let live = true;
    void applyBeat(store, current).then((r) => {
      if (live) setBeatError(r.ok || r.message.startsWith('superseded') ? null : r.message);
    });
    return () => {
      live = false;
    };
  }, [store, current]);

  // What the speaker view shows: this beat and the next, with the words on screen as notes
  // (a trace's step has no notes beyond its narration).
  const state = useMemo((): PresentState => {
    const client = cluster?.clients.find((c) => c.name === scene.client);
    if (talk) {
      const of = (b: number): BeatInfo | null => {
        const t = talk.beats[b];
        return t ? { title: t.title, caption: t.caption, notes: t.notes } : null;
      };
      return {
        type: 'lb-present:state',
        beat,
        beats,
        current: of(beat) ?? { title: '', caption: '', notes: '' },
        next: of(beat + 1),
        talk: talk.title,
        startedAt,
      };
    }
    if (byTime) {
      const { beat, beats, current, next } = byTime;
      return { type: 'lb-present:state', beat, beats, current, next, talk: null, startedAt };
    }
    const info = (b: number): BeatInfo => {
      const t = narrationText(trace, b - 1, client);
      return {
        title: t.title,
        caption: t.body,
        notes: b === 0 ? 'Before the first step: the scene is set, nothing has moved yet.' : '',
      };
    };
    return {
      type: 'lb-present:state',
      beat,
      beats,
      current: info(beat),
      next: beat + 1 < beats ? info(beat + 1) : null,
      talk: null,
      startedAt,
    };
  }, [trace, scene.client, cluster, beat, beats, startedAt, talk, byTime]);
  const latest = useRef(state);
  const onCommand = useRef<(m: PresentMessage) => void>(() => {});
  useEffect(() => {
    onCommand.current = (m) => {
      if (m.type === 'lb-present:go') go(m.beat);
      else if (m.type === 'lb-present:hello') link.current?.post(latest.current);
    };
  }, [go]);
  useEffect(() => {
    const l = openSpeakerLink(() => [notesWindow]);
    link.current = l;
    const off = l.listen((m) => onCommand.current(m));
    return () => {
      off();
      l.close();
      link.current = null;
    };
  }, []);
  useEffect(() => {
    latest.current = state;
    link.current?.post(state);
  }, [state]);
  const openNotes = useCallback(() => {
    const w = window.open(
      speakerUrl(window.location.pathname),
      'lb-datapath-notes',
      'popup,width=960,height=720',
    );
    if (w) notesWindow = w;
  }, []);

  const leave = useCallback(() => {
    void exitFullscreen();
    setPresentRoute({ on: false, talk: null, beat: 0 });
  }, []);

  useEffect(() => {
    const on = () => setFull(isFullscreen());
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const action = presentActionFor(e.key);
      if (!action) return;
      // A control's own keys stay its own (the help's Close button takes Space and Enter).
      if (action.kind !== 'leave' && action.kind !== 'help' && keyBelongsToTarget(e.key, e.target))
        return;
      e.preventDefault(); // PageDown, Space and the arrows must never scroll the page
      const { beat: cur, beats: count } = now.current;
      switch (action.kind) {
        case 'next':
          return go(cur + 1);
        case 'prev':
          return go(cur - 1);
        case 'first':
          return go(0);
        case 'last':
          return go(count - 1);
        case 'digit':
          digits.current = typeDigit(digits.current, action.digit, performance.now(), count);
          return go(digits.current.value);
        case 'blank':
          return setBlank((b) => !b);
        case 'help':
          return setHelp((h) => !h);
        case 'laser':
          return setLaser((l) => !l);
        case 'fullscreen':
          if (isFullscreen()) void exitFullscreen();
          else if (root.current) void enterFullscreen(root.current);
          return;
        case 'notes':
          return openNotes();
        case 'leave':
          if (help) return setHelp(false);
          if (blank) return setBlank(false);
          return leave();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, go, help, blank, leave, openNotes]);

  // A talk's words for this beat: the caption under the stage (or beside the time view's lanes).
  const talkCaption =
    current && talk ? (
      <div className="narration" aria-live="polite" aria-atomic="true" data-testid="talk-caption">
        <p className="narration-count">
          {talk.title} · beat {beat + 1} of {beats}
        </p>
        <h3 className="narration-title">{current.title}</h3>
        <p className="narration-body">{current.caption}</p>
      </div>
    ) : undefined;
  const beatAlerts = (
    <>
      {talkState.status === 'error' && (
        <p className="model-error" role="alert">
          This talk could not be opened: {talkState.message}. Showing the trace’s steps.
        </p>
      )}
      {beatError && (
        <p className="model-error" role="alert">
          This beat could not be shown: {beatError}
        </p>
      )}
    </>
  );
  const style = { '--present-scale': scale } as CSSProperties;
  return (
    <main
      ref={root}
      className={`present${laser ? ' lasering' : ''}`}
      style={style}
      data-testid="present"
      data-beat={beat}
      data-beats={beats}
      data-talk={talk?.id ?? ''}
      data-blank={blank}
      data-scale={scale}
    >
      <h1 className="visually-hidden">LoadBalancer data path, presenting</h1>
      {timeView ? (
        // The clock, the drawing over time, the lanes and what happens now, on one screen.
        <ErrorBoundary name="the time view">
          <Suspense fallback={<p role="status">Loading the time view…</p>}>
            <PresentTime
              scale={scale}
              onBeats={setTimeBeats}
              keys={!talk}
              talkCaption={
                talkCaption || beatError ? (
                  <>
                    {beatAlerts}
                    {talkCaption}
                  </>
                ) : undefined
              }
            />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <>
          <div className="present-stage">
            <ErrorBoundary name="the topology">
              <Topology scale={scale} />
            </ErrorBoundary>
          </div>
          <section
            className="present-caption"
            aria-labelledby="present-caption-title"
            data-testid="narration"
          >
            <h2 id="present-caption-title" className="visually-hidden">
              Caption
            </h2>
            <ErrorBoundary name="the narration">
              {beatAlerts}
              {talkCaption ?? (
                <>
                  <Narration />
                  <OutcomeBanner />
                </>
              )}
            </ErrorBoundary>
          </section>
        </>
      )}
      <div className="present-bar">
        <span data-testid="present-beat">
          {talk
            ? `Beat ${beat + 1} of ${beats}`
            : byTime
              ? byTime.label
              : counterText(stepIndex, steps)}
        </span>
        <label className="present-talk">
          Talk{' '}
          <select
            value={route.talk ?? ''}
            onChange={(e) => setPresentRoute({ on: true, talk: e.target.value || null, beat: 0 })}
          >
            <option value="">This scene, step by step</option>
            {talks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </select>
        </label>
        <span>{full ? '' : 'F: full screen · '}?: keys · Esc: leave</span>
        <button type="button" onClick={() => setHelp(true)}>
          Keys
        </button>
        <button type="button" onClick={openNotes}>
          Speaker notes
        </button>
        <button type="button" onClick={leave}>
          Leave present mode
        </button>
      </div>
      {laser && <Laser />}
      {blank && (
        <div className="present-blank" data-testid="present-blank" role="status">
          <span className="visually-hidden">Screen blanked: press B to return</span>
        </div>
      )}
      {help && <KeysHelp onClose={() => setHelp(false)} />}
    </main>
  );
}
