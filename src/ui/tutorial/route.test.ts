import { describe, expect, it } from 'vitest';
import { boot } from '../../store/share';
import type { StorageLike } from '../../store/share';
import { learnHash } from './links';
import { parseLearnHash } from './route';
import type { LearnRoute } from './route';
import {
  PROGRESS_KEY,
  loadProgress,
  markRead,
  saveProgress,
  withAnswer,
  withLast,
} from './progress';

function memoryStorage(
  init: Record<string, string> = {},
): StorageLike & { data: Map<string, string> } {
  const data = new Map(Object.entries(init));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('tutorial routes', () => {
  it.each<[string, LearnRoute | null]>([
    ['#/learn', { kind: 'home' }],
    ['#/learn/', { kind: 'home' }],
    ['#/learn/traffic-policy', { kind: 'chapter', slug: 'traffic-policy' }],
    [
      '#/learn/traffic-policy/the-extra-hop',
      { kind: 'chapter', slug: 'traffic-policy', section: 'the-extra-hop' },
    ],
    ['#/learn/glossary', { kind: 'glossary' }],
    ['#/learn/glossary/nodeport', { kind: 'glossary', term: 'nodeport' }],
    ['#s=N4Ig', null],
    ['#/learning', null],
    ['', null],
  ])('%s', (hash, route) => {
    expect(parseLearnHash(hash)).toEqual(route);
    if (route && hash !== '#/learn/') expect(learnHash(route)).toBe(hash);
  });

  it('decodes percent-encoded segments', () => {
    expect(parseLearnHash('#/learn/a%20b/c')).toEqual({
      kind: 'chapter',
      slug: 'a b',
      section: 'c',
    });
    expect(parseLearnHash('#/learn/%E0%A4%A')).toEqual({ kind: 'chapter', slug: '%E0%A4%A' });
  });

  it('a #/learn URL is not a bad share link: the saved view opens, with no notice', () => {
    const empty = boot('#/learn/traffic-policy', memoryStorage());
    expect(empty.source).toBe('default');
    expect(empty.notice).toBeUndefined();
    expect(empty.badLink).toBeUndefined();
  });
});

describe('reading progress in localStorage', () => {
  it('round-trips chapters read, the last chapter and answers under lbpath.v1.tutorial', () => {
    const storage = memoryStorage();
    let p = loadProgress(storage);
    expect(p).toEqual({ read: [], answers: {} });
    p = withAnswer(
      markRead(markRead(withLast(p, 'three-floors'), 'why-services'), 'why-services'),
      'q1',
      'node:node-1',
    );
    expect(saveProgress(storage, p)).toBe(true);
    expect(JSON.parse(storage.data.get(PROGRESS_KEY) ?? '')).toEqual({
      read: ['why-services'],
      last: 'three-floors',
      answers: { q1: 'node:node-1' },
    });
    expect(loadProgress(storage)).toEqual(p);
  });

  it('ignores damaged or hostile values', () => {
    for (const text of [
      '{',
      '[]',
      'null',
      '"x"',
      JSON.stringify({ read: 'x', last: 3, answers: [] }),
    ])
      expect(loadProgress(memoryStorage({ [PROGRESS_KEY]: text }))).toEqual({
        read: [],
        answers: {},
      });
    const p = loadProgress(
      memoryStorage({
        [PROGRESS_KEY]: '{"read":["a",1,"a"],"answers":{"__proto__":"x","q":"yes","r":5}}',
      }),
    );
    expect(p).toEqual({ read: ['a'], answers: { q: 'yes' } });
    expect(Object.getPrototypeOf(p.answers)).toBe(Object.prototype);
  });

  it('survives storage that throws', () => {
    const broken: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(loadProgress(broken)).toEqual({ read: [], answers: {} });
    expect(saveProgress(broken, { read: [], answers: {} })).toBe(false);
    expect(saveProgress(undefined, { read: [], answers: {} })).toBe(false);
  });
});
