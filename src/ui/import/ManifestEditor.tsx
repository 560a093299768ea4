/**
 * The manifests editor (CodeMirror 6), loaded only when opened. The text is exactly what was
 * typed — never reformatted — and lives in the store, so closing and reopening keeps it.
 * Typing validates after a pause; Apply (unavailable while there are errors) fills the gaps
 * and puts the objects on screen.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { EditorView } from '@codemirror/view';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import { applyImported } from '../../store/importScenario';
import type { Analysis, Problem } from './analyse';
import { createEditor, moveTo, replaceText, validateNow } from './cm';
import { ProblemList } from './ProblemList';
import { toYaml } from './toYaml';

interface Props {
  /** The text last applied (from here, a file or an example), to say whether this one is. */
  applied: string | null;
  onApplied: (text: string, message: string) => void;
  onClose: () => void;
}

const selectEditorText = (s: Store) => s.editorText;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export default function ManifestEditor({ applied, onApplied, onClose }: Props) {
  const store = useAppStoreApi();
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [failure, setFailure] = useState('');
  const text = useAppStore(selectEditorText);
  const summaryId = useId();
  const reasonId = useId();

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const s = store.getState();
    // First opening: start from the scenario on screen, as YAML.
    const initial = s.editorText ?? toYaml(s.objects);
    if (s.editorText === null) s.setEditorText(initial);
    let typed = initial;
    const view = createEditor({
      parent,
      text: initial,
      label: 'Manifests (YAML or JSON)',
      describedBy: summaryId,
      onChange: (next) => {
        typed = next;
        store.getState().setEditorText(next);
        setFailure('');
      },
      onAnalysis: setAnalysis,
    });
    viewRef.current = view;
    // Text loaded from elsewhere (a file, an example) replaces the editor's, undoably.
    const unsubscribe = store.subscribe((next, prev) => {
      if (next.editorText === prev.editorText || next.editorText === null) return;
      if (next.editorText !== typed) replaceText(view, next.editorText);
    });
    return () => {
      unsubscribe();
      view.destroy();
      viewRef.current = null;
    };
  }, [store, summaryId]);

  const apply = useCallback(() => {
    const view = viewRef.current;
    if (!view) return;
    const a = validateNow(view);
    setAnalysis(a);
    if (a.blocked) return;
    const result = applyImported(store, a.objects);
    if (!result.ok) {
      setFailure(`Not applied: the model cannot run these objects: ${result.error}`);
      return;
    }
    setFailure('');
    const added = a.objects.length - a.given;
    onApplied(
      a.text,
      `Applied ${plural(a.given, 'object')} from the editor${added ? `, ${added} filled in` : ''}.`,
    );
  }, [store, onApplied]);

  const go = useCallback((p: Problem & { line: number }) => {
    if (viewRef.current) moveTo(viewRef.current, p.line, p.column);
  }, []);

  // The analysis is of the text as it was; while typing it may lag by the pause.
  const current = analysis !== null && analysis.text === text;
  const blocked = analysis?.blocked ?? '';
  const isApplied = applied !== null && applied === text;

  return (
    <div className="import-editor" data-testid="manifest-editor">
      <div className="import-editor-main">
        <div className="import-cm" ref={host} data-own-keys="" />
        <p className="import-help muted">
          Tab leaves the editor; indent with spaces. Problems are underlined at their lines (hover
          or Ctrl+Shift+M lists them); Ctrl+Z undoes, even a loaded file.
        </p>
      </div>
      <div className="import-side">
        <div className="import-apply">
          <button
            type="button"
            className="primary"
            data-testid="apply"
            aria-disabled={blocked ? 'true' : undefined}
            aria-describedby={blocked ? reasonId : undefined}
            onClick={apply}
          >
            Apply
          </button>
          <button type="button" onClick={onClose} aria-label="Close editor (the text is kept)">
            Close editor
          </button>
        </div>
        {blocked ? (
          <p id={reasonId} className="import-reason" data-testid="apply-reason">
            Apply is unavailable: {blocked}.
          </p>
        ) : (
          current && (
            <p className="import-reason ok" data-testid="apply-state">
              {isApplied ? 'This text is applied.' : 'Ready to apply.'}
            </p>
          )
        )}
        {failure && (
          <p className="import-failure" role="alert">
            {failure}
          </p>
        )}
        <ProblemList analysis={analysis} summaryId={summaryId} onGo={go} />
      </div>
    </div>
  );
}
