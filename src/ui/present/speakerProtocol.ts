/**
 * The speaker view's link to the presenting window (issue 13): the presenting window says which
 * beat is on screen, the speaker view asks for another. Two paths carry the same messages:
 * a BroadcastChannel (same origin, any window of the app) and, for the offline file (file://
 * pages are opaque origins, where BroadcastChannel is not reliable across windows:
 * /work/shared/reference/embed-present.md §3b), the `window.open` handle / `window.opener`.
 * Messages are states, not increments ("go to beat 4", "beat 4 is on screen"), so one that
 * arrives twice does no harm.
 */

/** The BroadcastChannel's name. */
export const SPEAKER_CHANNEL = 'lb-datapath-present';

/** One beat as the speaker view shows it. */
export interface BeatInfo {
  title: string;
  caption: string;
  notes: string;
}

/** What the presenting window is showing. */
export interface PresentState {
  type: 'lb-present:state';
  /** The beat on screen, 0-based, and how many there are. */
  beat: number;
  beats: number;
  current: BeatInfo;
  next: BeatInfo | null;
  /** The talk's title, or null (the trace's steps). */
  talk: string | null;
  /** When presenting started, ms since the epoch (the speaker view's elapsed time). */
  startedAt: number;
}

/** From the speaker view: go to a beat, or send the state now (it just opened). */
export type SpeakerCommand = { type: 'lb-present:go'; beat: number } | { type: 'lb-present:hello' };

export type PresentMessage = PresentState | SpeakerCommand;

/** Whether `data` is one of these messages (other scripts post messages too). */
export function isPresentMessage(data: unknown): data is PresentMessage {
  if (typeof data !== 'object' || data === null) return false;
  const t = (data as { type?: unknown }).type;
  if (t === 'lb-present:hello') return true;
  if (t === 'lb-present:go') return Number.isInteger((data as { beat?: unknown }).beat);
  if (t === 'lb-present:state') {
    const d = data as Partial<PresentState>;
    return Number.isInteger(d.beat) && Number.isInteger(d.beats) && typeof d.current === 'object';
  }
  return false;
}

/** A two-way link: post to the other side(s), hear them. */
export interface SpeakerLink {
  post(m: PresentMessage): void;
  listen(fn: (m: PresentMessage) => void): () => void;
  close(): void;
}

/**
 * The link from this window: the BroadcastChannel where there is one, plus the window handles
 * `peers()` returns (the notes window for the presenting window; `window.opener` for the notes
 * window), posted with target origin `'*'` and checked on arrival ({@link isPresentMessage},
 * and the sender must be one of the peers).
 */
export function openSpeakerLink(peers: () => (Window | null | undefined)[]): SpeakerLink {
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(SPEAKER_CHANNEL) : null;
  const listeners = new Set<(m: PresentMessage) => void>();
  const deliver = (data: unknown) => {
    if (isPresentMessage(data)) for (const fn of listeners) fn(data);
  };
  const onChannel = (e: MessageEvent) => deliver(e.data);
  const onWindow = (e: MessageEvent) => {
    if (peers().some((p) => p && p === e.source)) deliver(e.data);
  };
  channel?.addEventListener('message', onChannel);
  window.addEventListener('message', onWindow);
  return {
    post(m) {
      channel?.postMessage(m);
      for (const p of peers()) if (p && !p.closed) p.postMessage(m, '*');
    },
    listen(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      channel?.close();
      window.removeEventListener('message', onWindow);
      listeners.clear();
    },
  };
}

/** The speaker view's URL for a page at `pathname`: the same app, `?speaker=1`. */
export function speakerUrl(pathname: string): string {
  return `${pathname}?speaker=1`;
}
