/**
 * The CodeMirror 6 editor for manifests: YAML highlighting in the app's colours, the
 * validator's problems as lint diagnostics at their lines, and helpers to move the cursor to a
 * problem and to replace the text undoably. Reached only through the lazily loaded editor.
 */
import { basicSetup } from 'codemirror';
import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';
import type { Analysis } from './analyse';
import { analyse } from './analyse';
import { problemRange, toDiagnostics } from './diagnostics';

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
  onAnalysis: (analysis: Analysis) => void;
}

/** A new editor in `parent`; validates `text` at once and again whenever typing pauses. */
export function createEditor(options: EditorOptions): EditorView {
  const { parent, text, label, describedBy, onChange, onAnalysis } = options;
  const lint = linter(
    (view) => {
      const analysis = analyse(view.state.doc.toString());
      onAnalysis(analysis);
      return toDiagnostics(view.state.doc, analysis.problems);
    },
    { delay: VALIDATE_DELAY_MS },
  );
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        yaml(),
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

/** Validates now (Apply must not wait for the pause) and shows the result in the editor. */
export function validateNow(view: EditorView): Analysis {
  const analysis = analyse(view.state.doc.toString());
  view.dispatch(setDiagnostics(view.state, toDiagnostics(view.state.doc, analysis.problems)));
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
