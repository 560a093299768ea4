/**
 * The manifests editor (CodeMirror 6), loaded only when opened. The text is exactly what was
 * typed — never reformatted — and lives in the store, so closing and reopening keeps it.
 * Typing validates after a pause, in a Web Worker ("Checking…" shows when that takes over
 * 300 ms); Apply (unavailable while there are errors) fills the gaps and puts the objects on
 * screen. A paste that would make the text longer than 10 MB is refused, and said so.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { EditorView } from '@codemirror/view';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import { applyImported } from '../../store/importScenario';
import type { Problem } from './analyse';
import { isCancelled } from './analyseClient';
import { createEditor, moveTo, replaceText, validateNow } from './cm';
import type { ShownAnalysis } from './limits';
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

/** After this long a check shows "Checking…". */
const SLOW_CHECK_MS = 300;

/**
 * Whether a check is running, and whether it has been for over {@link SLOW_CHECK_MS} (only
 * then does "Checking…" show): `set(true)` when one starts, `set(false)` when it ends (checks
 * may overlap: each start needs its end).
 */
function useSlowChecking(): {
  slow: boolean;
  running: boolean;
  set: (checking: boolean) => void;
} {
  const [slow, setSlow] = useState(false);
  const [running, setRunning] = useState(false);
  const state = useRef<{ running: number; timer: ReturnType<typeof setTimeout> | undefined }>({
    running: 0,
    timer: undefined,
  });
  const set = useCallback((checking: boolean) => {
    const s = state.current;
    s.running = Math.max(0, s.running + (checking ? 1 : -1));
    setRunning(s.running > 0);
    if (s.running > 0 && s.timer === undefined) {
      s.timer = setTimeout(() => setSlow(true), SLOW_CHECK_MS);
    } else if (s.running === 0) {
      clearTimeout(s.timer);
      s.timer = undefined;
      setSlow(false);
    }
  }, []);
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return { slow, running, set };
}

export default function ManifestEditor({ applied, onApplied, onClose }: Props) {
  const store = useAppStoreApi();
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const [analysis, setAnalysis] = useState<ShownAnalysis | null>(null);
  const [failure, setFailure] = useState('');
  const [refused, setRefused] = useState('');
  const { slow: checkingSlow, running: checkRunning, set: setChecking } = useSlowChecking();
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
        setRefused('');
      },
      onAnalysis: setAnalysis,
      onChecking: setChecking,
      onRefused: setRefused,
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
  }, [store, summaryId, setChecking]);

  const apply = useCallback(async () => {
    const view = viewRef.current;
    if (!view) return;
    let a: ShownAnalysis;
    setChecking(true);
    try {
      a = await validateNow(view);
    } catch (e) {
      if (!isCancelled(e)) setFailure(`Not applied: ${e instanceof Error ? e.message : String(e)}`);
      return;
    } finally {
      setChecking(false);
    }
    setAnalysis(a);
    if (a.blocked) return;
    const result = applyImported(store, a.objects, a.scene);
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
  }, [store, onApplied, setChecking]);

  const go = useCallback((p: Problem & { line: number }) => {
    if (viewRef.current) moveTo(viewRef.current, p.line, p.column);
  }, []);

  // The analysis is of the text as it was; while typing it may lag by the pause.
  const current = analysis !== null && analysis.text === text;
  const blocked = analysis?.blocked ?? '';
  const isApplied = applied !== null && applied === text;

  return (
    <div
      className="import-editor"
      data-testid="manifest-editor"
      // For tests: a check is running now (shown as "Checking…" only past SLOW_CHECK_MS).
      data-check-running={checkRunning}
    >
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
            onClick={() => void apply()}
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
        {refused && (
          <p className="import-failure" role="alert" data-testid="refused">
            {refused}
          </p>
        )}
        <ProblemList analysis={analysis} summaryId={summaryId} onGo={go} checking={checkingSlow} />
      </div>
    </div>
  );
}
