/**
 * The time view's scheduled events in a link (issue 16, point 2): a link carries exactly the
 * runs the time model accepts — up to its 1,000 events, of any kind, at their widest — and
 * refuses one more with the limit named. (It once allowed 200: a view with 201 got no link.)
 */
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects } from '../../model';
import { simulate } from '../../model/time';
import { MAX_EVENTS, MAX_POD_KEY_CHARS, MAX_SIM_MS } from '../../model/time/limits';
import { EVENT_KINDS, MAX_EVENT_JSON_CHARS } from '../../model/time/registry';
import type { TimelineEvent } from '../../model/time/types';
import { createRng } from '../../model/random';
import { createAppStore } from '../store';
import {
  HASH_PREFIX,
  MAX_DECODED_CHARS,
  MAX_EVENTS_CHARS,
  MAX_VIEW_CHARS,
  decodeState,
  shareLink,
} from './link';
import type { SharedState, SharedTime } from './link';
import { boot } from './boot';
import { saveView } from './persist';
import type { StorageLike } from './persist';
import { snapshot } from './view';

/** One event of every kind on the canonical cluster (nodes node-1…3, Deployment `web`). */
const ONE_OF_EACH: Record<(typeof EVENT_KINDS)[number], (at: number) => TimelineEvent> = {
  'fail-node': (at) => ({ at, kind: 'fail-node', node: 'node-1' }),
  'restore-node': (at) => ({ at, kind: 'restore-node', node: 'node-1' }),
  'drain-node': (at) => ({ at, kind: 'drain-node', node: 'node-2' }),
  'uncordon-node': (at) => ({ at, kind: 'uncordon-node', node: 'node-2' }),
  'scale-down-node': (at) => ({ at, kind: 'scale-down-node', node: 'node-3' }),
  'kill-pod': (at) => ({ at, kind: 'kill-pod', pod: 'default/web-6d8f9c7b5-q7m9z' }),
  scale: (at) => ({ at, kind: 'scale', replicas: 4 }),
  'set-policy': (at) => ({ at, kind: 'set-policy', policy: 'Local' }),
};

/** `n` events cycling through every kind, one a second from t = 1 s. */
function events(n: number): TimelineEvent[] {
  return Array.from({ length: n }, (_, i) =>
    ONE_OF_EACH[EVENT_KINDS[i % EVENT_KINDS.length]!]((i + 1) * 1000),
  );
}

const TIME: Omit<SharedTime, 'events'> = {
  view: 'time',
  controller: 'cloud',
  healthCheck: {},
  workload: { count: 1000, periodMs: 60_000, holdMs: 30_000, seed: 1 },
  simMs: 0,
};

const viewWith = (evs: TimelineEvent[], extra: Partial<SharedState> = {}): SharedState => ({
  v: 1,
  scene: DEFAULT_SCENE,
  step: -1,
  story: null,
  time: { ...TIME, events: evs },
  ...extra,
});

describe('scheduled events in a link', () => {
  it('1,000 events, the most the model takes: shared from the store and decoded, the same events', () => {
    expect(MAX_EVENTS).toBe(1000);
    const store = createAppStore();
    const s = store.getState();
    s.setView('time');
    const scheduled = events(1000);
    for (const e of scheduled) s.addEvent(e);
    const link = shareLink(snapshot(store.getState()));
    if (!link.ok) throw new Error(link.reason);
    const decoded = decodeState(link.hash);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.state.time?.events).toEqual(scheduled);
    // The model runs the same 1,000 (a run with no connections: only the events matter here).
    const run = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events: scheduled,
      workload: { count: 0 },
    });
    expect(run.base.events).toHaveLength(1000);
  });

  it('a reload keeps all 1,000: the saved view opens with them (201 were once dropped)', () => {
    const store = createAppStore();
    store.getState().setView('time');
    const scheduled = events(1000);
    for (const e of scheduled) store.getState().addEvent(e);
    const data = new Map<string, string>();
    const storage: StorageLike = {
      getItem: (k) => data.get(k) ?? null,
      setItem: (k, v) => void data.set(k, v),
      removeItem: (k) => void data.delete(k),
    };
    expect(saveView(storage, snapshot(store.getState()))).toBe(true);
    const reloaded = boot('', storage);
    expect(reloaded.source).toBe('saved');
    expect(reloaded.store.getState().time.events).toEqual(scheduled);
  });

  it('1,001 are refused, the reason naming the model’s limit — writing a link and reading one', () => {
    const tooMany = viewWith(events(1001));
    const why = `time.events has more than 1,000 entries, the most one run of the time model may hold`;
    expect(shareLink(tooMany)).toEqual({ ok: false, reason: why });
    const packed = HASH_PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(tooMany));
    expect(decodeState(packed)).toEqual({ ok: false, reason: why });
    expect(() =>
      simulate({
        objects: canonicalObjects(),
        scene: DEFAULT_SCENE,
        events: events(1001),
        workload: { count: 0 },
      }),
    ).toThrow('events: at most 1000 events, not 1001');
  });

  it('1,000 of the widest event fit: kill-pod at 24 h naming a 317-character namespace/name', () => {
    // A namespace is a DNS label (≤ 63 characters), a Pod name a DNS subdomain (≤ 253).
    expect(MAX_POD_KEY_CHARS).toBe(63 + 1 + 253);
    const random = createRng(7);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const word = (n: number) =>
      Array.from({ length: n }, () => letters[Math.floor(random() * letters.length)]).join('');
    const widest: TimelineEvent[] = Array.from({ length: 1000 }, () => ({
      at: MAX_SIM_MS,
      kind: 'kill-pod',
      pod: `${word(63)}/${word(253)}`,
    }));
    // `{"at":86400000,"kind":"kill-pod","pod":"` is 40 characters, then 317, then `"}`.
    expect(JSON.stringify(widest[0]).length).toBe(40 + 317 + 2);
    expect(MAX_EVENT_JSON_CHARS).toBe(359);
    expect(MAX_EVENTS_CHARS).toBe(1000 * 360);
    expect(MAX_DECODED_CHARS).toBe(200_000 + 360_000);
    const link = shareLink(viewWith(widest));
    if (!link.ok) throw new Error(link.reason);
    const decoded = decodeState(link.hash);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.state.time?.events).toEqual(widest);
  });

  it('a Pod reference longer than namespace/name can be is refused, with the limit', () => {
    const long = `default/${'p'.repeat(310)}`;
    expect(long.length).toBe(318);
    const r = shareLink(viewWith([{ at: 0, kind: 'kill-pod', pod: long }]));
    expect(r).toEqual({
      ok: false,
      reason: 'time.events[0].pod must be 1 to 317 characters long',
    });
  });

  it('the 200 KB of a view do not count its events: 190 KB of objects and 1,000 events get a link', () => {
    const pad = (n: number) => [{ kind: 'X', pad: 'y'.repeat(n) }] as never;
    // The view without its events, measured the way the link does.
    const sized = (n: number) => viewWith(events(1000), { objects: pad(n) });
    const rest = (n: number) =>
      JSON.stringify(sized(n)).length - JSON.stringify(sized(n).time!.events).length;
    const fits = sized(190_000);
    expect(rest(190_000)).toBeLessThanOrEqual(MAX_VIEW_CHARS);
    expect(JSON.stringify(fits).length).toBeGreaterThan(MAX_VIEW_CHARS);
    expect(shareLink(fits).ok).toBe(true);
    // Objects alone over 200 KB: no link, as before, whatever the events.
    expect(shareLink(viewWith([], { objects: pad(MAX_VIEW_CHARS) }))).toEqual({
      ok: false,
      reason: 'the view is larger than 200 KB',
    });
  });
});
