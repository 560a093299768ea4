/**
 * The speaker view (`N` in present mode; `?speaker=1`): the beat on screen and the next one,
 * the notes, the time since presenting started and the clock, and Previous/Next that drive the
 * presenting window (./speakerProtocol.ts). It holds no scene of its own: it shows what the
 * presenting window tells it.
 */
import { useEffect, useMemo, useState } from 'react';
import { presentActionFor } from './keys';
import { NotesMarkdown } from './NotesMarkdown';
import { openSpeakerLink } from './speakerProtocol';
import type { PresentState } from './speakerProtocol';
import '../theme/tokens.css';
import '../styles.css';
import './speaker.css';

/** `ms` as m:ss (or h:mm:ss). */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function SpeakerView() {
  const link = useMemo(() => openSpeakerLink(() => [window.opener as Window | null]), []);
  const [state, setState] = useState<PresentState | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const off = link.listen((m) => {
      if (m.type === 'lb-present:state') setState(m);
    });
    link.post({ type: 'lb-present:hello' });
    return () => {
      off();
      link.close();
    };
  }, [link]);

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
      const a = presentActionFor(e.key);
      const to =
        a?.kind === 'next'
          ? state.beat + 1
          : a?.kind === 'prev'
            ? state.beat - 1
            : a?.kind === 'first'
              ? 0
              : a?.kind === 'last'
                ? state.beats - 1
                : null;
      if (to === null) return;
      e.preventDefault();
      link.post({ type: 'lb-present:go', beat: Math.max(0, Math.min(state.beats - 1, to)) });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [link, state]);

  const go = (beat: number) => link.post({ type: 'lb-present:go', beat });
  return (
    <main className="speaker" data-testid="speaker" data-beat={state?.beat ?? ''}>
      <h1 className="visually-hidden">Speaker view</h1>
      <header className="speaker-top">
        <p className="speaker-timer" aria-label="Time since presenting started">
          {state ? formatElapsed(now - state.startedAt) : '0:00'}
        </p>
        <p className="speaker-clock" aria-label="Clock">
          {new Date(now).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </p>
        <p className="speaker-where" data-testid="speaker-where">
          {state
            ? `${state.talk ? `${state.talk} · ` : ''}beat ${state.beat + 1} of ${state.beats}`
            : 'Waiting for the presenting window… (open it with N in present mode)'}
        </p>
      </header>
      {state && (
        <>
          <section className="speaker-now" aria-labelledby="speaker-now" aria-live="polite">
            <h2 id="speaker-now">Now: {state.current.title}</h2>
            <p className="speaker-caption">{state.current.caption}</p>
            {state.current.notes && (
              <div className="speaker-notes" data-testid="speaker-notes">
                <NotesMarkdown text={state.current.notes} />
              </div>
            )}
          </section>
          <section className="speaker-next" aria-labelledby="speaker-next">
            <h2 id="speaker-next">{state.next ? `Next: ${state.next.title}` : 'Next: the end'}</h2>
            {state.next && <p>{state.next.caption}</p>}
          </section>
          <nav className="speaker-nav" aria-label="Drive the presentation">
            <button type="button" onClick={() => go(state.beat - 1)} disabled={state.beat <= 0}>
              ◀ Previous
            </button>
            <button
              type="button"
              className="primary"
              onClick={() => go(state.beat + 1)}
              disabled={state.beat >= state.beats - 1}
            >
              Next ▶
            </button>
          </nav>
        </>
      )}
    </main>
  );
}
