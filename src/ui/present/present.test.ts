import { describe, expect, it } from 'vitest';
import { DIGIT_WINDOW_MS, PRESENT_KEYS, presentActionFor, typeDigit } from './keys';
import { parsePresentRoute, withPresentRoute } from './route';
import { presentScale } from './scale';
import { isPresentMessage } from './speakerProtocol';
import { formatElapsed } from './SpeakerView';

describe('present mode keys (a clicker sends PageDown/PageUp, arrows, Space, B or .)', () => {
  it('maps the clicker’s keys', () => {
    for (const k of ['PageDown', ' ', 'ArrowRight'])
      expect(presentActionFor(k)).toEqual({ kind: 'next' });
    for (const k of ['PageUp', 'ArrowLeft']) expect(presentActionFor(k)).toEqual({ kind: 'prev' });
    for (const k of ['b', 'B', '.']) expect(presentActionFor(k)).toEqual({ kind: 'blank' });
    expect(presentActionFor('Home')).toEqual({ kind: 'first' });
    expect(presentActionFor('End')).toEqual({ kind: 'last' });
    expect(presentActionFor('7')).toEqual({ kind: 'digit', digit: 7 });
    expect(presentActionFor('?')).toEqual({ kind: 'help' });
    expect(presentActionFor('Escape')).toEqual({ kind: 'leave' });
    expect(presentActionFor('x')).toBeNull();
  });

  it('the help lists every key it handles', () => {
    const listed = PRESENT_KEYS.flatMap((k) => k.keys).join(' ');
    for (const k of [
      'Page Down',
      'Page Up',
      'Space',
      'Home',
      'End',
      'B',
      '.',
      'L',
      'F',
      'N',
      '?',
      'Esc',
    ])
      expect(listed).toContain(k);
  });

  it('two digits typed quickly make one beat number, if there is such a beat', () => {
    const one = typeDigit(null, 1, 0, 14);
    expect(one.value).toBe(1);
    expect(typeDigit(one, 2, 300, 14).value).toBe(12);
    expect(typeDigit(one, 5, 300, 14).value).toBe(5); // 15: no such beat
    expect(typeDigit(one, 2, DIGIT_WINDOW_MS + 1, 14).value).toBe(2); // too slow
  });
});

describe('present mode in the query string', () => {
  it('reads ?present=1, with a talk and its beat', () => {
    expect(parsePresentRoute('')).toEqual({ on: false, talk: null, beat: 0 });
    expect(parsePresentRoute('?present=1')).toEqual({ on: true, talk: null, beat: 0 });
    expect(parsePresentRoute('?present=1&talk=cluster-vs-local&beat=3')).toEqual({
      on: true,
      talk: 'cluster-vs-local',
      beat: 3,
    });
    expect(parsePresentRoute('?present=1&talk=../x&beat=-2')).toEqual({
      on: true,
      talk: null,
      beat: 0,
    });
  });

  it('writes it back, keeping other parameters', () => {
    expect(withPresentRoute('?x=1', { on: true, talk: 'a', beat: 2 })).toBe(
      '?x=1&present=1&talk=a&beat=2',
    );
    expect(
      withPresentRoute('?present=1&talk=a&beat=2&x=1', { on: false, talk: null, beat: 0 }),
    ).toBe('?x=1');
    expect(withPresentRoute('?present=1', { on: false, talk: null, beat: 0 })).toBe('');
  });
});

describe('present mode scale', () => {
  it('doubles at 1920×1080 (12 px labels → 24 px), never below 1 or above 3', () => {
    expect(presentScale(1920, 1080)).toBe(2);
    expect(presentScale(1280, 720)).toBe(1.33);
    expect(presentScale(800, 600)).toBe(1);
    expect(presentScale(7680, 4320)).toBe(3);
  });
});

describe('the speaker view’s messages', () => {
  it('accepts its own messages and nothing else', () => {
    expect(isPresentMessage({ type: 'lb-present:hello' })).toBe(true);
    expect(isPresentMessage({ type: 'lb-present:go', beat: 3 })).toBe(true);
    expect(isPresentMessage({ type: 'lb-present:go', beat: '3' })).toBe(false);
    expect(
      isPresentMessage({ type: 'lb-present:state', beat: 1, beats: 14, current: { title: '' } }),
    ).toBe(true);
    expect(isPresentMessage({ type: 'lb-datapath:play' })).toBe(false);
    expect(isPresentMessage(null)).toBe(false);
  });

  it('formats the elapsed time', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(65_400)).toBe('1:05');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
  });
});
