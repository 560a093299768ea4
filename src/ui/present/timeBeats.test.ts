import { describe, expect, it } from 'vitest';
import type { Actor, TimelineEntry, TimelineEntryKind } from '../../model/time/types';
import { tenths, timeBeatAt, timeBeatInfo, timeMoment, timeOfBeat } from './timeBeats';

const entry = (
  at: number,
  seq: number,
  kind: TimelineEntryKind,
  actor: Actor,
  message: string,
  reason?: string,
): TimelineEntry => ({ at, seq, kind, actor, message, ...(reason ? { reason } : {}) });

const ENTRIES = [
  entry(0, 0, 'event', 'api-server', 'Service created'),
  entry(
    200,
    1,
    'k8s-event',
    'service-controller',
    'Ensuring load balancer',
    'EnsuringLoadBalancer',
  ),
  entry(200, 2, 'provisioning', 'service-controller', 'The controller asks the cloud'),
  entry(37_866, 3, 'rotation', 'balancer', 'node-2 joins'),
];
const TIMES = [0, 200, 37_866];

describe('time beats', () => {
  it('counts the moments at or before the clock', () => {
    expect(timeBeatAt(TIMES, 0)).toBe(1);
    expect(timeBeatAt(TIMES, 199)).toBe(1);
    expect(timeBeatAt(TIMES, 200)).toBe(2);
    expect(timeBeatAt(TIMES, 99_000)).toBe(3);
    expect(timeBeatAt([500], 0)).toBe(0);
  });

  it('puts the clock on a beat’s moment, clamped', () => {
    expect(timeOfBeat(TIMES, 0)).toBe(0);
    expect(timeOfBeat(TIMES, 2)).toBe(200);
    expect(timeOfBeat(TIMES, 3)).toBe(37_866);
    expect(timeOfBeat(TIMES, 99)).toBe(37_866);
    expect(timeOfBeat([], 4)).toBe(0);
  });

  it('heads a moment with its sentence, not the terse Kubernetes Event', () => {
    const m = timeMoment(ENTRIES, TIMES, 2);
    expect(m.at).toBe(200);
    expect(m.headline?.message).toBe('The controller asks the cloud');
    expect(m.others.map((e) => e.seq)).toEqual([1]);
    expect(timeMoment(ENTRIES, TIMES, 0)).toEqual({ at: 0, headline: null, others: [] });
  });

  it('gives the speaker view every entry of the moment as notes, times as the clock reads them', () => {
    expect(tenths(37_866)).toBe(37_800);
    const info = timeBeatInfo(ENTRIES, TIMES, 3);
    expect(info.title).toBe('t = 37.8 s · balancer');
    expect(info.caption).toBe('node-2 joins');
    const two = timeBeatInfo(ENTRIES, TIMES, 2);
    expect(two.notes).toBe(
      'service-controller: The controller asks the cloud\n\nservice-controller (EnsuringLoadBalancer): Ensuring load balancer',
    );
  });
});
