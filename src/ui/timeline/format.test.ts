import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../model/time/registry';
import {
  EVENT_WORDS,
  clockText,
  eventGlyph,
  eventText,
  percent,
  plural,
  pointsDiff,
  seconds,
} from './format';
import { checkHealthCheck, checkInt, draftOf } from './validate';

describe('format', () => {
  it('writes simulated ms as seconds, one decimal only when needed', () => {
    expect(seconds(42_000)).toBe('42 s');
    expect(seconds(2_500)).toBe('2.5 s');
    expect(seconds(0)).toBe('0 s');
    expect(clockText(27_000)).toBe('t = 27 s');
  });

  it('gives differences in signed percentage points', () => {
    expect(percent(0.5)).toBe('50.0 %');
    expect(pointsDiff(0.512, 0.5)).toBe('+1.2 pp');
    expect(pointsDiff(0.496, 0.5)).toBe('−0.4 pp');
    expect(pointsDiff(0.50004, 0.5)).toBe('±0.0 pp');
  });

  it('names events as the form does', () => {
    expect(eventText({ at: 0, kind: 'fail-node', node: 'node-1' })).toBe('fail node-1');
    expect(eventText({ at: 0, kind: 'scale', replicas: 4 })).toBe('scale to 4');
    expect(eventText({ at: 0, kind: 'scale-down-node', node: 'node-3' })).toBe(
      'scale down node-3 (cluster-autoscaler)',
    );
    expect(eventText({ at: 0, kind: 'set-policy', policy: 'Local' })).toBe(
      'set externalTrafficPolicy: Local',
    );
    expect(eventGlyph({ at: 0, kind: 'kill-pod', pod: 'default/web-a' })).toBe('☓');
    expect(plural(1, 'probe')).toBe('1 probe');
    expect(plural(10_000, 'connection')).toBe('10,000 connections');
  });
});

describe('every kind of the model’s registry has the view’s words', () => {
  it('a distinct form label and glyph per kind, in the registry’s order', () => {
    expect(Object.keys(EVENT_WORDS)).toEqual([...EVENT_KINDS]);
    const labels = EVENT_KINDS.map((k) => EVENT_WORDS[k].label);
    const glyphs = EVENT_KINDS.map((k) => EVENT_WORDS[k].glyph);
    expect(new Set(labels).size).toBe(EVENT_KINDS.length);
    expect(new Set(glyphs).size).toBe(EVENT_KINDS.length);
    for (const g of glyphs) expect([...g]).toHaveLength(1);
  });
});

describe('validation keeps what was typed and says what is wrong', () => {
  it('accepts whole numbers with thousands separators', () => {
    expect(checkInt('10,000', { name: 'Connections', min: 1, max: 100_000 })).toEqual({
      ok: true,
      value: 10_000,
    });
    expect(checkInt(' 100000 ', { name: 'Connections', min: 1, max: 100_000 })).toEqual({
      ok: true,
      value: 100_000,
    });
  });

  it('rejects text, fractions and out-of-range values with the field’s name', () => {
    const bad = checkInt('100001', { name: 'Connections', min: 1, max: 100_000 });
    expect(bad).toEqual({
      ok: false,
      message: 'Connections must be a whole number from 1 to 100,000; 100001 is out of range.',
    });
    expect(checkInt('2.5', { name: 'Interval', min: 1, max: 300, unit: 'seconds' }).ok).toBe(false);
    expect(checkInt('', { name: 'Seed', min: 0, max: 9 })).toEqual({
      ok: false,
      message: 'Seed is empty: enter a whole number from 0 to 9.',
    });
  });

  it('checks the health check as GCP does: timeout no longer than the interval', () => {
    const draft = draftOf({
      intervalSeconds: 8,
      timeoutSeconds: 1,
      healthyThreshold: 1,
      unhealthyThreshold: 3,
      clusterTarget: 'healthz',
    });
    expect(checkHealthCheck(draft)).toEqual({
      ok: true,
      value: {
        intervalSeconds: 8,
        timeoutSeconds: 1,
        healthyThreshold: 1,
        unhealthyThreshold: 3,
        clusterTarget: 'healthz',
      },
    });
    const late = checkHealthCheck({ ...draft, timeoutSeconds: '10' });
    expect(late.ok).toBe(false);
    if (!late.ok)
      expect(late.problems.timeoutSeconds).toMatch(/must not be longer than the interval/);
    const zero = checkHealthCheck({ ...draft, unhealthyThreshold: '0' });
    expect(zero.ok).toBe(false);
    if (!zero.ok) expect(Object.keys(zero.problems)).toEqual(['unhealthyThreshold']);
  });
});
