import { describe, expect, it } from 'vitest';
import {
  DRAFT_PREFIX,
  MAX_DRAFTS,
  MAX_SAVED_EDITOR_CHARS,
  V1_EDITOR_KEY,
  decodeDraft,
  draftKey,
  encodeDraft,
  isQuotaError,
  listDrafts,
  migrateV1,
  pruneDrafts,
  writeDraft,
} from './drafts';
import { fakeStorage } from './fakeStorage.test-helpers';
import { TAB_ID_KEY, renewTabId, tabId } from './tabId';

const typed = 'spec:\n  ports: [   \t\n# é 東京 "quoted" \\ back';

describe('drafts: one key per tab', () => {
  it('saves the text exactly as typed under the tab’s own key, as a v2 draft', () => {
    const storage = fakeStorage();
    expect(writeDraft(storage, 'tab-a', typed, 1_000)).toEqual({ ok: true });
    expect([...storage.data.keys()]).toEqual(['lbpath.v2.draft.tab-a']);
    expect(JSON.parse(storage.data.get('lbpath.v2.draft.tab-a') ?? '')).toEqual({
      v: 2,
      savedAt: 1_000,
      text: typed,
    });
    expect(listDrafts(storage)).toEqual([
      { key: 'lbpath.v2.draft.tab-a', tabId: 'tab-a', text: typed, savedAt: 1_000 },
    ]);
  });

  it('two tabs write two keys; the list is newest first and ignores other keys', () => {
    const storage = fakeStorage({ 'lbpath.v1.state': '{}', 'lbpath.theme': 'dark' });
    writeDraft(storage, 'a', 'A', 2_000);
    writeDraft(storage, 'b', 'B', 3_000);
    writeDraft(storage, 'a', 'A2', 4_000);
    expect(listDrafts(storage).map((d) => [d.tabId, d.text])).toEqual([
      ['a', 'A2'],
      ['b', 'B'],
    ]);
    expect(storage.data.get('lbpath.theme')).toBe('dark');
  });

  it('a value that is not a v2 draft is read as the text itself, oldest', () => {
    expect(decodeDraft('kind: Service')).toEqual({ text: 'kind: Service', savedAt: 0 });
    expect(decodeDraft('{"text":"x"}')).toEqual({ text: 'x', savedAt: 0 });
    expect(decodeDraft('[1,2]')).toEqual({ text: '[1,2]', savedAt: 0 });
    expect(decodeDraft(encodeDraft('y', 5))).toEqual({ text: 'y', savedAt: 5 });
    const storage = fakeStorage({ [DRAFT_PREFIX + 'hand']: 'kind: Pod' });
    writeDraft(storage, 'a', 'A', 1);
    expect(listDrafts(storage).map((d) => d.text)).toEqual(['A', 'kind: Pod']);
  });
});

describe('drafts: when they cannot be saved, the reason is given', () => {
  it('a full storage (QuotaExceededError) is `full`, and nothing is half-written', () => {
    const storage = fakeStorage({}, 100);
    expect(writeDraft(storage, 'a', 'x'.repeat(200), 1)).toEqual({ ok: false, problem: 'full' });
    expect(storage.data.size).toBe(0);
  });

  it('blocked storage (SecurityError on every access) or none at all is `blocked`', () => {
    const storage = fakeStorage();
    storage.blocked = true;
    expect(writeDraft(storage, 'a', 'x', 1)).toEqual({ ok: false, problem: 'blocked' });
    expect(writeDraft(undefined, 'a', 'x', 1)).toEqual({ ok: false, problem: 'blocked' });
    expect(listDrafts(storage)).toEqual([]);
    expect(pruneDrafts(storage, 'a')).toEqual([]);
    expect(migrateV1(storage, 'a', 1)).toEqual({ kind: 'none' });
  });

  it('text over 1,000,000 characters is `too-large`; exactly 1,000,000 is saved', () => {
    expect(MAX_SAVED_EDITOR_CHARS).toBe(1_000_000);
    const storage = fakeStorage();
    const longest = 'x'.repeat(MAX_SAVED_EDITOR_CHARS);
    expect(writeDraft(storage, 'a', longest, 1)).toEqual({ ok: true });
    expect(writeDraft(storage, 'a', longest + 'y', 2)).toEqual({
      ok: false,
      problem: 'too-large',
    });
    // The last text that fitted is still there.
    expect(listDrafts(storage)[0]?.text).toBe(longest);
  });

  it('recognises each engine’s quota error and nothing else', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError({ code: 22 })).toBe(true);
    expect(isQuotaError(new DOMException('no', 'SecurityError'))).toBe(false);
    expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });
});

describe('drafts: pruning', () => {
  it(`keeps the newest ${MAX_DRAFTS}, and always the starting tab’s own`, () => {
    const storage = fakeStorage();
    // The starting tab's draft is the oldest of eight.
    writeDraft(storage, 'me', 'mine', 1);
    for (let i = 2; i <= 8; i++) writeDraft(storage, `t${i}`, `text ${i}`, i);
    const removed = pruneDrafts(storage, 'me');
    expect(removed.sort()).toEqual([draftKey('t2'), draftKey('t3'), draftKey('t4')]);
    expect(listDrafts(storage).map((d) => d.tabId)).toEqual(['t8', 't7', 't6', 't5', 'me']);
  });

  it('a tab with no draft yet keeps the newest five others', () => {
    const storage = fakeStorage();
    for (let i = 1; i <= 6; i++) writeDraft(storage, `t${i}`, `text ${i}`, i);
    expect(pruneDrafts(storage, 'new')).toEqual([draftKey('t1')]);
    expect(listDrafts(storage)).toHaveLength(MAX_DRAFTS);
  });
});

describe('drafts: version 1’s text', () => {
  it('is moved into a draft, and the v1 key removed only then', () => {
    const storage = fakeStorage({ [V1_EDITOR_KEY]: typed });
    expect(migrateV1(storage, 'a', 7)).toEqual({ kind: 'moved', tabId: 'a', text: typed });
    expect(storage.data.has(V1_EDITOR_KEY)).toBe(false);
    expect(listDrafts(storage)).toEqual([
      { key: draftKey('a'), tabId: 'a', text: typed, savedAt: 7 },
    ]);
    // Once moved, there is nothing more to migrate.
    expect(migrateV1(storage, 'b', 8)).toEqual({ kind: 'none' });
  });

  it('stays where it is when the draft cannot be written (full storage, too long)', () => {
    const full = fakeStorage({ [V1_EDITOR_KEY]: typed }, V1_EDITOR_KEY.length + typed.length);
    expect(migrateV1(full, 'a', 7)).toEqual({ kind: 'kept', text: typed, problem: 'full' });
    expect(full.data.get(V1_EDITOR_KEY)).toBe(typed);
    const long = 'x'.repeat(MAX_SAVED_EDITOR_CHARS + 1);
    const storage = fakeStorage({ [V1_EDITOR_KEY]: long });
    expect(migrateV1(storage, 'a', 7)).toEqual({ kind: 'kept', text: long, problem: 'too-large' });
    expect(storage.data.get(V1_EDITOR_KEY)).toBe(long);
  });
});

describe('the tab’s id', () => {
  it('is kept in sessionStorage, so a reload of the tab finds the same id', () => {
    const session = fakeStorage();
    let n = 0;
    const make = () => `id${++n}`;
    expect(tabId(session, make)).toBe('id1');
    expect(session.data.get(TAB_ID_KEY)).toBe('id1');
    expect(tabId(session, make)).toBe('id1');
    expect(renewTabId(session, make)).toBe('id2');
    expect(tabId(session, make)).toBe('id2');
  });

  it('is new for each load when sessionStorage is blocked or holds something else', () => {
    const session = fakeStorage({ [TAB_ID_KEY]: 'not/an id' });
    let n = 0;
    const make = () => `id${++n}`;
    expect(tabId(session, make)).toBe('id1');
    session.blocked = true;
    expect(tabId(session, make)).toBe('id2');
    expect(tabId(undefined, make)).toBe('id3');
  });

  it('is random by default: 16 hex digits', () => {
    const a = tabId(undefined);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(tabId(undefined)).not.toBe(a);
  });
});
