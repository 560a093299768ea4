/**
 * How the time view writes times, shares and events. Pure functions: no React, no store.
 * Times on the timeline are simulated milliseconds; people read seconds.
 */
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

/** What an event does, in the words of the form and the event list. */
export function eventText(e: TimelineEvent): string {
  switch (e.kind) {
    case 'fail-node':
      return `fail ${e.node}`;
    case 'restore-node':
      return `restore ${e.node}`;
    case 'drain-node':
      return `drain ${e.node}`;
    case 'uncordon-node':
      return `uncordon ${e.node}`;
    case 'scale-down-node':
      return `scale down ${e.node} (cluster-autoscaler)`;
    case 'kill-pod':
      return `kill pod ${e.pod}`;
    case 'scale':
      return `scale to ${e.replicas}`;
    case 'set-policy':
      return `set externalTrafficPolicy: ${e.policy}`;
  }
}

/** A one-glyph mark for an event on the lanes (always drawn with its text beside it). */
export function eventGlyph(e: TimelineEvent): string {
  switch (e.kind) {
    case 'fail-node':
      return '✗';
    case 'restore-node':
      return '↺';
    case 'drain-node':
      return '⤓';
    case 'uncordon-node':
      return '⤒';
    case 'scale-down-node':
      return '⇣';
    case 'kill-pod':
      return '☓';
    case 'scale':
      return '⇅';
    case 'set-policy':
      return '⇄';
  }
}
