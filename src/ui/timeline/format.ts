/**
 * How the time view writes times, shares and events. Pure functions: no React, no store.
 * Times on the timeline are simulated milliseconds; people read seconds.
 */
import { eventArg } from '../../model/time/eventArgs';
import type { EventKind } from '../../model/time/registry';
import type { TimelineEvent } from '../../model/time/types';

/** Simulated ms as seconds, with one decimal only when it is not a whole second: `42 s`, `2.5 s`. */
export function seconds(ms: number): string {
  const s = ms / 1000;
  const text = Number.isInteger(s) ? String(s) : s.toFixed(1).replace(/\.0$/, '');
  return `${text} s`;
}

/** The clock as read aloud and shown: `t = 42 s`. */
export function clockText(ms: number): string {
  return `t = ${seconds(ms)}`;
}

/** A share as a percentage with one decimal: `50.0 %`. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/**
 * The difference between an observed and an expected share, signed, in percentage points:
 * `+1.2 pp`, `−0.4 pp` (a true minus sign), `±0.0 pp` when it rounds to zero.
 */
export function pointsDiff(share: number, expected: number): string {
  const d = (share - expected) * 100;
  const text = Math.abs(d).toFixed(1);
  if (text === '0.0') return '±0.0 pp';
  return `${d > 0 ? '+' : '−'}${text} pp`;
}

/** A count with thousands separators: `10,000`. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 connection` / `3 connections`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/**
 * The view's words for each kind of event: the "Schedule a change" form's option, what a
 * scheduled event does (`text` of its argument: its node, Pod, replica count or policy), and a
 * one-glyph mark for the lanes (always drawn with its text beside it). Keyed by the time model's
 * kinds (src/model/time/registry.ts), so a new kind does not compile until it has its words.
 */
export const EVENT_WORDS: Readonly<
  Record<EventKind, { label: string; text: (arg: string) => string; glyph: string }>
> = {
  'fail-node': { label: 'Fail node', text: (n) => `fail ${n}`, glyph: '✗' },
  'restore-node': { label: 'Restore node', text: (n) => `restore ${n}`, glyph: '↺' },
  'drain-node': { label: 'Drain node (cordon + evict)', text: (n) => `drain ${n}`, glyph: '⤓' },
  'uncordon-node': { label: 'Uncordon node', text: (n) => `uncordon ${n}`, glyph: '⤒' },
  'scale-down-node': {
    label: 'Scale node down (cluster-autoscaler)',
    text: (n) => `scale down ${n} (cluster-autoscaler)`,
    glyph: '⇣',
  },
  'kill-pod': { label: 'Kill pod', text: (p) => `kill pod ${p}`, glyph: '☓' },
  scale: { label: 'Scale Deployment to N', text: (r) => `scale to ${r}`, glyph: '⇅' },
  'set-policy': {
    label: 'Set externalTrafficPolicy',
    text: (p) => `set externalTrafficPolicy: ${p}`,
    glyph: '⇄',
  },
};

/** What an event does, in the words of the form and the event list. */
export function eventText(e: TimelineEvent): string {
  return EVENT_WORDS[e.kind].text(String(eventArg(e)));
}

/** A one-glyph mark for an event on the lanes (always drawn with its text beside it). */
export function eventGlyph(e: TimelineEvent): string {
  return EVENT_WORDS[e.kind].glyph;
}
