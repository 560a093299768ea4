/**
 * The CodeMirror 6 editor for manifests: YAML highlighting in the app's colours (up to 1 MB), the
 * validator's problems as lint diagnostics at their lines (checked in a Web Worker after a
 * pause in typing, the first 100 underlined), a 10 MB limit that refuses a change that would
 * pass it (the text stays as it was), and helpers to move the cursor to a problem and to
 * replace the text undoably. Reached only through the lazily loaded editor.
 */
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { Compartment, EditorState, StateField } from '@codemirror/state';
import type { Transaction } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';
import { isCancelled, sharedAnalyseClient as analyseClient } from './analyseClient';
import { problemRange, toDiagnostics } from './diagnostics';
import { MAX_TEXT_BYTES, MAX_TEXT_WORDS, utf8Length } from './limits';
import type { ShownAnalysis } from './limits';

/**
 * Texts longer than this (characters) are shown without YAML highlighting: on a 5 MB text
 * (a 10,000-Pod cluster) CodeMirror's background parse ran in main-thread slices of up to
 * ~350 ms, and colours on a text that size help no one. Crossing the size either way
 * switches highlighting off or back on.
 */
export const HIGHLIGHT_MAX_CHARS = 1_000_000;

/**
 * YAML highlighting for a text of `chars` characters; over {@link HIGHLIGHT_MAX_CHARS} none,
 * and no bracket matching either: without a syntax tree CodeMirror matches brackets by
 * scanning whole lines, and `kubectl … -o json` minified is one 5 MB line (a quarter-second
 * task on every cursor move next to a bracket).
 */
export function languageFor(chars: number) {
  // A pair of NULs (never in YAML or JSON text): CodeMirror takes '' for its default pairs.
  return chars > HIGHLIGHT_MAX_CHARS ? bracketMatching({ brackets: '\u0000\u0000' }) : yaml();
}

/** Reconfigures `language` when a change takes the text across {@link HIGHLIGHT_MAX_CHARS}. */
function languageBySize(language: Compartment) {
  return EditorState.transactionExtender.of((tr) => {
    if (!tr.docChanged) return null;
    const before = tr.startState.doc.length > HIGHLIGHT_MAX_CHARS;
    const after = tr.newDoc.length > HIGHLIGHT_MAX_CHARS;
    return before === after
      ? null
      : { effects: language.reconfigure(languageFor(tr.newDoc.length)) };
  });
}

/** YAML highlighting for `text`, switched off and on as edits take it across the size. */
export function sizedLanguage(text: string) {
  const language = new Compartment();
  return [language.of(languageFor(text.length)), languageBySize(language)];
}

/** How long typing must pause before the text is validated. */
export const VALIDATE_DELAY_MS = 300;

const highlight = HighlightStyle.define([
  { tag: t.definition(t.propertyName), color: 'var(--accent)' },
  { tag: t.string, color: 'var(--changed)' },
  { tag: t.special(t.string), color: 'var(--changed)' },
  { tag: t.lineComment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [t.meta, t.keyword], color: 'var(--reply)', fontWeight: '600' },
  { tag: [t.typeName, t.labelName, t.attributeValue], color: 'var(--reply)' },
  { tag: t.separator, color: 'var(--muted)' },
]);

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--panel)', color: 'var(--fg)', height: '100%' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '12.5px', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--panel-2)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent-soft) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)', color: 'var(--fg)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--panel)',
    color: 'var(--fg)',
    border: '1px solid var(--strong-border)',
  },
  '.cm-diagnostic': { fontFamily: 'var(--mono)', fontSize: '12px', whiteSpace: 'pre-wrap' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--bad)' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--hint)' },
  '.cm-panels': { backgroundColor: 'var(--panel-2)', color: 'var(--fg)' },
});

export interface EditorOptions {
  parent: HTMLElement;
  text: string;
  /** The accessible name of the text area. */
  label: string;
  /** Id of the element that sums up the problems. */
  describedBy: string;
  /** Every change, with the whole text as typed. */
  onChange: (text: string) => void;
  /** Each validation (debounced while typing). */
  onAnalysis: (analysis: ShownAnalysis) => void;
  /** A check of `text` started (`true`) or ended (`false`, answered or failed). */
  onChecking?: (checking: boolean) => void;
  /** A change was refused (it would make the text longer than 10 MB); the text is unchanged. */
  onRefused?: (message: string) => void;
}

/** The editor's text's length in UTF-8 bytes, kept up to date change by change. */
const textBytes = StateField.define<number>({
  create: (state) => utf8Length(state.doc.toString()),
  update: (bytes, tr) => (tr.docChanged ? bytesAfter(bytes, tr) : bytes),
});

/** `bytes` after the changes of `tr`: only the replaced and inserted text is counted. */
function bytesAfter(bytes: number, tr: Transaction): number {
  let n = bytes;
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    n += utf8Length(inserted.toString()) - utf8Length(tr.startState.doc.sliceString(fromA, toA));
  });
  return n;
}

/** The message for a refused change of `bytes` bytes. */
export function tooLongMessage(bytes: number): string {
  const mb = (bytes / 1024 / 1024).toFixed(1);
  return `Not pasted: the text would be ${mb} MB, over the limit of ${MAX_TEXT_WORDS}. Your text is unchanged.`;
}

/** Refuses any change that would make the text longer than {@link MAX_TEXT_BYTES}. */
function sizeLimit(onRefused: (message: string) => void) {
  return EditorState.transactionFilter.of((tr) => {
    if (!tr.docChanged) return tr;
    const before = tr.startState.field(textBytes, false);
    if (before === undefined) return tr;
    const after = bytesAfter(before, tr);
    // Shrinking is always allowed, even from text that is already too long.
    if (after <= MAX_TEXT_BYTES || after <= before) return tr;
    onRefused(tooLongMessage(after));
    return [];
  });
}

/** A new editor in `parent`; validates `text` at once and again whenever typing pauses. */
export function createEditor(options: EditorOptions): EditorView {
  const { parent, text, label, describedBy, onChange, onAnalysis } = options;
  const onChecking = options.onChecking ?? (() => {});
  const onRefused = options.onRefused ?? (() => {});
  const lint = linter(
    async (view) => {
      const doc = view.state.doc;
      onChecking(true);
      try {
        const analysis = await analyseClient().analyse(doc.toString());
        onAnalysis(analysis);
        return toDiagnostics(doc, analysis.problems);
      } catch (e) {
        // Replaced by a newer check (the text changed): its answer is the one that counts.
        if (isCancelled(e)) return [];
        throw e;
      } finally {
        onChecking(false);
      }
    },
    { delay: VALIDATE_DELAY_MS },
  );
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        textBytes,
        sizeLimit(onRefused),
        sizedLanguage(text),
        syntaxHighlighting(highlight),
        lint,
        lintGutter(),
        theme,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          'aria-label': label,
          'aria-describedby': describedBy,
          // Focusable as it is anyway (contenteditable), said explicitly so checkers see that
          // the editor's scroll box holds a focusable element (axe: scrollable-region-focusable).
          tabindex: '0',
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return view;
}

/**
 * Validates now (Apply must not wait for the pause), with the objects to apply, and shows the
 * result in the editor unless the text changed meanwhile.
 */
export async function validateNow(view: EditorView): Promise<ShownAnalysis> {
  const doc = view.state.doc;
  const analysis = await analyseClient().analyse(doc.toString(), { objects: true });
  if (view.state.doc === doc)
    view.dispatch(setDiagnostics(view.state, toDiagnostics(doc, analysis.problems)));
  return analysis;
}

/** Puts the cursor on a problem, scrolls to it and focuses the editor. */
export function moveTo(view: EditorView, line: number, column: number | undefined): void {
  const { from } = problemRange(view.state.doc, line, column);
  view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
  view.focus();
}

/** Replaces the whole text as one undoable change (Ctrl+Z brings the old text back). */
export function replaceText(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
