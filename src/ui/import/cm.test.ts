import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { language } from '@codemirror/language';
import { HIGHLIGHT_MAX_CHARS, sizedLanguage } from './cm';

describe('the editor highlights YAML up to a size', () => {
  it('a small text is YAML; an edit past the size drops it, and back under brings it back', () => {
    const small = 'kind: Service\n';
    let state = EditorState.create({ doc: small, extensions: sizedLanguage(small) });
    expect(state.facet(language)?.name).toBe('yaml');
    state = state.update({
      changes: { from: state.doc.length, insert: 'x'.repeat(HIGHLIGHT_MAX_CHARS) },
    }).state;
    expect(state.doc.length).toBeGreaterThan(HIGHLIGHT_MAX_CHARS);
    expect(state.facet(language)).toBeNull();
    state = state.update({ changes: { from: small.length, to: state.doc.length } }).state;
    expect(state.facet(language)?.name).toBe('yaml');
  });

  it('a text over the size opens without highlighting', () => {
    const big = 'x'.repeat(HIGHLIGHT_MAX_CHARS + 1);
    const state = EditorState.create({ doc: big, extensions: sizedLanguage(big) });
    expect(state.facet(language)).toBeNull();
  });
});
