/**
 * "Your cluster": bring your own manifests. Paste or edit them (the editor loads on demand),
 * open or drop a file, pick an example, export the scenario as YAML, or go back to the default.
 * Everything heavy (CodeMirror, the YAML parser, the validator) is loaded with `import()`.
 * The body lives in the "Your cluster" dialog (ClusterImport.tsx), mounted while the dialog is
 * closed, so the editor, its text and the last status are there when it opens again.
 */
import { Suspense, lazy, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useAppStoreApi } from '../../store';
import { applyImported, resetToDefault } from '../../store/importScenario';
import { ErrorBoundary } from '../ErrorBoundary';
import { download } from './download';
import { DraftNotice } from './DraftNotice';
import { ExamplePicker } from './ExamplePicker';
import type { Example } from './examples';
import { MAX_TEXT_BYTES, MAX_TEXT_WORDS } from './limits';
import { useDraft } from './useDraft';
import './import.css';

const ManifestEditor = lazy(() => import('./ManifestEditor'));

/** Files larger than this are refused, as is longer text in the editor (./limits.ts). */
const MAX_FILE_BYTES = MAX_TEXT_BYTES;
const ACCEPT = /\.(ya?ml|json)$/i;

/** What an action in the panel came to: `ok` when the scene on screen is now the one asked for. */
export interface ImportOutcome {
  ok: boolean;
  message: string;
  /** The editor's previous text was replaced (it can be put back in the panel). */
  replaced: boolean;
}

/** What the dialog around the body can ask of it: a file dropped anywhere on the page. */
export interface ImportApi {
  loadFile: (file: File) => Promise<void>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

interface BodyProps {
  /** Told after each load, apply or reset, so the dialog can close on success. */
  onOutcome: (outcome: ImportOutcome) => void;
  /** Filled with the body's {@link ImportApi}. */
  apiRef: RefObject<ImportApi | null>;
  /** A file is being dragged over the page. */
  dragging: boolean;
  /** Called once {@link BodyProps.apiRef} holds the API (the body loads lazily: a file dropped before waits for it). */
  onApi?: () => void;
  /** Told whether the editor's text is now not saved in the browser (the header marks it). */
  onUnsaved?: (unsaved: boolean) => void;
}

/** The panel's contents: intro, actions, status, the previous-text notice and the editor. */
export function ImportBody({ onOutcome, apiRef, dragging, onApi, onUnsaved }: BodyProps) {
  const store = useAppStoreApi();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [applied, setApplied] = useState<string | null>(null);
  const [replaced, setReplaced] = useState<string | null>(null);
  const [example, setExample] = useState<Example | null>(null);
  const editorId = useId();
  const exampleId = useId();
  const toggle = useRef<HTMLButtonElement>(null);

  const draft = useDraft(store);
  const unsaved = draft.state === 'unsaved';
  useEffect(() => onUnsaved?.(unsaved), [onUnsaved, unsaved]);

  /** Shows `message` here and tells the dialog. */
  const report = useCallback(
    (ok: boolean, message: string, wasReplaced = false) => {
      setStatus(message);
      onOutcome({ ok, message, replaced: wasReplaced });
    },
    [onOutcome],
  );

  /** Puts `text` in the editor (keeping what it replaces) and applies it when it has no errors. */
  const load = useCallback(
    async (text: string, source: string) => {
      const before = store.getState().editorText;
      const wasReplaced = before !== null && before !== text;
      if (wasReplaced) setReplaced(before);
      store.getState().setEditorText(text);
      setOpen(true);
      setStatus(`Checking ${source}…`);
      // In the worker (the editor's checker): a large file must not freeze the page.
      const { isCancelled, sharedAnalyseClient } = await import('./analyseClient');
      let a;
      try {
        a = await sharedAnalyseClient().analyse(text, { objects: true });
      } catch (e) {
        // The text was changed while it was checked: the newer text's check counts.
        if (isCancelled(e)) {
          report(false, `${source} was not applied: the text changed while it was checked.`);
          return;
        }
        throw e;
      }
      if (a.blocked) {
        report(false, `${source} was not applied: ${a.blocked}. It is in the editor.`);
        return;
      }
      const result = applyImported(store, a.objects, a.scene);
      if (!result.ok) {
        report(false, `${source} was not applied: the model cannot run it: ${result.error}.`);
        return;
      }
      setApplied(text);
      const added = a.objects.length - a.given;
      report(
        true,
        `Applied ${source}: ${plural(a.given, 'object')}${added ? `, ${added} filled in` : ''}` +
          `${a.warnings ? `, ${plural(a.warnings, 'warning')}` : ''}.`,
        wasReplaced,
      );
    },
    [store, report],
  );

  const loadFile = useCallback(
    async (file: File) => {
      if (!ACCEPT.test(file.name)) {
        report(false, `${file.name} was not loaded: choose a .yaml, .yml or .json file.`);
        return;
      }
      if (file.size > MAX_FILE_BYTES) {
        report(
          false,
          `${file.name} was not loaded: it is larger than ${MAX_TEXT_WORDS}. The editor keeps your text.`,
        );
        return;
      }
      try {
        setExample(null);
        await load(await file.text(), file.name);
      } catch (e) {
        report(
          false,
          `${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    },
    [load, report],
  );

  useEffect(() => {
    apiRef.current = { loadFile };
    onApi?.();
    return () => {
      apiRef.current = null;
    };
  }, [apiRef, loadFile, onApi]);

  const exportYaml = async () => {
    const objects = store.getState().objects;
    const { toYaml } = await import('./toYaml');
    download('cluster.yaml', toYaml(objects));
    setStatus(`Exported ${plural(objects.length, 'object')} as cluster.yaml.`);
  };

  const reset = () => {
    resetToDefault(store);
    setApplied(null);
    setExample(null);
    report(true, 'Back to the default scenario. The editor keeps your text.');
  };

  const onError = useCallback((message: string) => setStatus(message), []);

  return (
    <div
      className="import-body"
      data-dragging={dragging}
      // For tests: how the editor's text stands with the browser's storage (useDraft).
      data-draft-state={draft.state}
      data-draft-restored={draft.restored ?? ''}
    >
      <p className="import-intro">
        Paste <code>kubectl get svc,endpointslices,pods,nodes -o yaml</code>, open a file or pick an
        example. It stays in your browser.
      </p>
      <div className="import-actions">
        <button
          ref={toggle}
          type="button"
          aria-expanded={open}
          aria-controls={editorId}
          onClick={() => setOpen((o) => !o)}
        >
          Paste or edit manifests
        </button>
        <label className="file-pick">
          Open a file…
          <input
            type="file"
            accept=".yaml,.yml,.json"
            className="visually-hidden"
            data-testid="file-input"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (file) void loadFile(file);
            }}
          />
        </label>
        <ExamplePicker
          value={example?.file ?? ''}
          describedBy={exampleId}
          onPick={async (ex, text) => {
            setExample(ex);
            await load(text, ex.title);
          }}
          onError={onError}
        />
        <button type="button" onClick={() => void exportYaml()}>
          Export as YAML
        </button>
        <button type="button" onClick={reset}>
          Reset to the default scenario
        </button>
      </div>
      {example && (
        <p id={exampleId} className="example-desc muted">
          {example.title}: {example.description}
        </p>
      )}
      <p className="drop-hint muted">…or drop a .yaml, .yml or .json file anywhere on the page.</p>
      <p className="import-status" role="status" data-testid="import-status">
        {status}
      </p>
      <DraftNotice
        status={draft}
        onDownload={() => {
          download('manifests.yaml', store.getState().editorText ?? '');
          setStatus('Downloaded the editor’s text as manifests.yaml.');
        }}
      />
      {replaced !== null && (
        <p className="import-replaced">
          The editor’s previous text was replaced.{' '}
          <button
            type="button"
            onClick={() => {
              store.getState().setEditorText(replaced);
              setReplaced(null);
              setOpen(true);
              setStatus('Your previous text is back in the editor (not applied).');
            }}
          >
            Put it back
          </button>{' '}
          <button type="button" onClick={() => setReplaced(null)}>
            Dismiss
          </button>
        </p>
      )}
      <div id={editorId} hidden={!open}>
        {open && (
          <ErrorBoundary name="the manifests editor">
            <Suspense fallback={<p className="muted">Loading the editor…</p>}>
              <ManifestEditor
                applied={applied}
                onApplied={(text, message) => {
                  setApplied(text);
                  setExample(null);
                  report(true, message);
                }}
                onClose={() => {
                  setOpen(false);
                  toggle.current?.focus();
                }}
              />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop the file to load it
        </div>
      )}
    </div>
  );
}
