/**
 * The talk present mode plays (`?present=1&talk=<id>`), loaded on demand (./talkContent.ts),
 * and the talks to choose from.
 */
import { useEffect, useState } from 'react';
import type { Talk } from '../../tutorial/talks';
import { listTalks, loadTalk } from './talkContent';
import type { TalkSummary } from './talkContent';

export type TalkState =
  | { status: 'none' }
  | { status: 'loading'; id: string }
  | { status: 'ok'; talk: Talk }
  | { status: 'error'; id: string; message: string };

/** The talk `id` (null: none), loading → ok | error. */
export function useTalk(id: string | null): TalkState {
  const [state, setState] = useState<TalkState>({ status: 'none' });
  useEffect(() => {
    if (!id) return;
    let live = true;
    void loadTalk(id).then(
      (talk) => live && setState({ status: 'ok', talk }),
      (e: unknown) =>
        live &&
        setState({ status: 'error', id, message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (!id) return { status: 'none' };
  if (state.status === 'ok' && state.talk.id === id) return state;
  if (state.status === 'error' && state.id === id) return state;
  return { status: 'loading', id };
}

/** The shipped talks (empty until loaded). */
export function useTalkList(): TalkSummary[] {
  const [talks, setTalks] = useState<TalkSummary[]>([]);
  useEffect(() => {
    let live = true;
    void listTalks().then((t) => live && setTalks(t));
    return () => {
      live = false;
    };
  }, []);
  return talks;
}
