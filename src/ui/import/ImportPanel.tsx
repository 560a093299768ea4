/**
 * "Your cluster": bring your own manifests. Paste or edit them (the editor loads on demand),
 * open or drop a file, pick an example, export the scenario as YAML, or go back to the default.
 * Everything heavy (CodeMirror, the YAML parser, the validator) is loaded with `import()`.
 */
import { Suspense, lazy, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { useAppStoreApi } from '../../store';
import { editorStorage, syncEditorText } from '../../store/editorText';
import { applyImported, resetToDefault } from '../../store/importScenario';
import { TracedPicker } from './TracedPicker';
import { ErrorBoundary } from '../ErrorBoundary';
import { ExamplePicker } from './ExamplePicker';
import type { Example } from './examples';
import './import.css';

const ManifestEditor = lazy(() => import('./ManifestEditor'));

/** Files larger than this are refused (a whole cluster's `kubectl get -o yaml` is far smaller). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const ACCEPT = /\.(ya?ml|json)$/i;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function ImportBody() {
  const store = useAppStoreApi();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const [applied, setApplied] = useState<string | null>(null);
  const [replaced, setReplaced] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [example, setExample] = useState<Example | null>(null);
  const editorId = useId();
  const exampleId = useId();
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => syncEditorText(store, editorStorage()), [store]);

  /** Puts `text` in the editor (keeping what it replaces) and applies it when it has no errors. */
  const load = useCallback(
    async (text: string, source: string) => {
      const before = store.getState().editorText;
      if (before !== null && before !== text) setReplaced(before);
      store.getState().setEditorText(text);
      setOpen(true);
      setStatus(`Checking ${source}…`);
      const { analyse } = await import('./analyse');
      const a = analyse(text);
      if (a.blocked) {
        setStatus(`${source} was not applied: ${a.blocked}. It is in the editor.`);
        return;
      }
      const result = applyImported(store, a.objects);
      if (!result.ok) {
        setStatus(`${source} was not applied: the model cannot run it: ${result.error}.`);
        return;
      }
      setApplied(text);
      const added = a.objects.length - a.given;
      setStatus(
        `Applied ${source}: ${plural(a.given, 'object')}${added ? `, ${added} filled in` : ''}` +
          `${a.warnings ? `, ${plural(a.warnings, 'warning')}` : ''}.`,
      );
    },
    [store],
  );

  const loadFile = useCallback(
    async (file: File) => {
      if (!ACCEPT.test(file.name)) {
        setStatus(`${file.name} was not loaded: choose a .yaml, .yml or .json file.`);
        return;
      }
      if (file.size > MAX_FILE_BYTES) {
        setStatus(`${file.name} was not loaded: it is larger than 5 MB.`);
        return;
      }
      try {
        setExample(null);
        await load(await file.text(), file.name);
      } catch (e) {
        setStatus(`${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    [load],
  );

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
    setStatus('Back to the default scenario. The editor keeps your text.');
  };

  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');
  const onDragOver = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (e: DragEvent) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void loadFile(file);
  };

  return (
    <div
      className="import-body"
      data-dragging={dragging}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
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
          onError={setStatus}
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
      <p className="drop-hint muted">…or drop a .yaml, .yml or .json file on this panel.</p>
      <p className="import-status" role="status" data-testid="import-status">
        {status}
      </p>
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
      <TracedPicker />
      <div id={editorId} hidden={!open}>
        {open && (
          <ErrorBoundary name="the manifests editor">
            <Suspense fallback={<p className="muted">Loading the editor…</p>}>
              <ManifestEditor
                applied={applied}
                onApplied={(text, message) => {
                  setApplied(text);
                  setExample(null);
                  setStatus(message);
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

/** The "Your cluster" panel; a failure inside it shows there, not as a blank page. */
export function ImportPanel() {
  return (
    <section className="panel import-panel" data-testid="import" aria-labelledby="panel-import">
      <header className="panel-head">
        <h2 id="panel-import">Your cluster</h2>
      </header>
      <ErrorBoundary name="the Your cluster panel">
        <ImportBody />
      </ErrorBoundary>
    </section>
  );
}
