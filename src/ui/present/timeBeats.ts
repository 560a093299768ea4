/**
 * Present mode's beats in the Time & failures view: one beat per moment something happened
 * (the distinct times of the timeline's entries, `entryTimes`), numbered as the trace's are —
 * beat 0 is "before anything happened", beat k the k-th moment. Pure: no React, no store.
 */
import type { SimMs, TimelineEntry } from '../../model/time/types';
import { clockText } from '../timeline/format';
import type { BeatInfo } from './speakerProtocol';

/**
 * The beat the clock is on: the number of moments at or before `simMs` (0 before the first).
 * @param times the moments, ascending simulated ms (`entryTimes(timeline)`)
 */
export function timeBeatAt(times: readonly SimMs[], simMs: SimMs): number {
  let n = 0;
  for (const t of times) {
    if (t > simMs) break;
    n++;
  }
  return n;
}

/** Where beat `beat` puts the clock, simulated ms: 0 for beat 0, else that moment (clamped). */
export function timeOfBeat(times: readonly SimMs[], beat: number): SimMs {
  if (beat <= 0 || times.length === 0) return 0;
  return times[Math.min(times.length, beat) - 1] ?? 0;
}

/** Simulated ms floored to a tenth of a second, as the clock reads them (TimeControls). */
export function tenths(ms: SimMs): SimMs {
  return Math.floor(ms / 100) * 100;
}

/** What happened at one moment, as the caption tells it. */
export interface TimeMoment {
  /** The moment, simulated ms (0 before anything happened). */
  at: SimMs;
  /** The entry that says most: the first that is not a terse Kubernetes Event, else the first. */
  headline: TimelineEntry | null;
  /** The other entries of the same moment, in order. */
  others: TimelineEntry[];
}

/** The entries at beat `beat` (none for beat 0), headline first. */
export function timeMoment(
  entries: readonly TimelineEntry[],
  times: readonly SimMs[],
  beat: number,
): TimeMoment {
  if (beat <= 0) return { at: 0, headline: null, others: [] };
  const at = timeOfBeat(times, beat);
  const now = entries.filter((e) => e.at === at);
  // `k8s-event` entries repeat another entry in a Kubernetes Event's few words
  // ("Ensuring load balancer"): the sentence beside them explains it.
  const headline = now.find((e) => e.kind !== 'k8s-event') ?? now[0] ?? null;
  return { at, headline, others: now.filter((e) => e !== headline) };
}

/** One other entry in a few words: its actor and its reason (or kind). */
export function shortEntry(e: TimelineEntry): string {
  return `${e.actor}: ${e.reason ?? e.kind}`;
}

/**
 * The speaker view's account of a beat: the headline as title and caption, and every entry of
 * the moment (with its reason) as notes, so the presenter can tell what the screen only lists.
 */
export function timeBeatInfo(
  entries: readonly TimelineEntry[],
  times: readonly SimMs[],
  beat: number,
): BeatInfo {
  const m = timeMoment(entries, times, beat);
  if (!m.headline)
    return {
      title: `${clockText(0)}: before anything happened`,
      caption: 'The clock has not reached the first event yet.',
      notes: '',
    };
  const all = [m.headline, ...m.others];
  return {
    title: `${clockText(tenths(m.at))} · ${m.headline.actor}`,
    caption: m.headline.message,
    notes: all
      .map((e) => `${e.actor}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`)
      .join('\n\n'), // the speaker view makes paragraphs of blank-line blocks
  };
}
