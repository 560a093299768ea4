/**
 * "Your cluster…": the header button, the dialog it opens (a native modal `<dialog>`: focus
 * moves in, Tab stays in, Esc closes, focus returns to the button) and a page-wide drop target.
 * A load, an Apply or a reset that works closes the dialog and says so in a status line under
 * the header; one that does not keeps (or opens) the dialog with the message and the text.
 */
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import type { ImportApi, ImportOutcome } from './ImportPanel';

// The dialog's body (the importer, its examples, the editor's text) is not needed to draw or
// play the first view: it loads once the page is idle, or at once when the dialog opens or a
// file is dragged in, so the first load carries only the button and the drop target.
const ImportBody = lazy(() => import('./ImportPanel').then((m) => ({ default: m.ImportBody })));

/** Runs `f` once the browser is idle (at most `ms` later). @returns a cancel function. */
function whenIdle(f: () => void, ms: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(f, { timeout: ms });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, ms);
  return () => clearTimeout(id);
}

/** The last import's message, shown under the header once the dialog has closed. */
export interface ImportNotice {
  text: string;
  /** The editor's previous text was replaced (put it back from the dialog). */
  replaced: boolean;
}

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Told what a successful import did (shown outside the dialog). */
  onNotice: (notice: ImportNotice) => void;
}

const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

/** The id of the header button, so focus can come back to it from elsewhere. */
export const CLUSTER_BUTTON_ID = 'cluster-button';

/**
 * Accepts a file dropped anywhere on the page while mounted; `dragging` is true while one is
 * held over it.
 */
function usePageDrop(onFile: (file: File) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      over(e);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const file = e.dataTransfer?.files[0];
      if (file) onFile(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onFile]);
  return dragging;
}

/** The header's "Your cluster…" button, its dialog, and the page-wide drop target. */
export function ClusterImport({ open, onOpenChange, onNotice }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const api = useRef<ImportApi | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);

  const onOutcome = useCallback(
    ({ ok, message, replaced }: ImportOutcome) => {
      if (ok) {
        onNotice({ text: message, replaced });
        onOpenChange(false);
      } else onOpenChange(true);
    },
    [onNotice, onOpenChange],
  );

  // Whether the body is mounted: false in the prerendered page and the first render (so they
  // match), true from the first idle moment, an open or a drag.
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenIdle(() => setWanted(true), 2000), []);
  // A file dropped before the body has loaded waits for it.
  const pending = useRef<File | null>(null);
  const onApi = useCallback(() => {
    const file = pending.current;
    pending.current = null;
    if (file) void api.current?.loadFile(file);
  }, []);
  const onFile = useCallback((file: File) => {
    if (api.current) void api.current.loadFile(file);
    else {
      pending.current = file;
      setWanted(true);
    }
  }, []);
  const dragging = usePageDrop(onFile);
  // The editor's text is not saved in the browser: said on the button too, so a closed dialog
  // does not hide it.
  const [unsaved, setUnsaved] = useState(false);
  // Opened or dragged over before the idle moment: mount now, and for good (React's
  // "adjusting state while rendering" pattern, not an effect's second render).
  if ((open || dragging) && !wanted) setWanted(true);

  return (
    <>
      <button
        type="button"
        id={CLUSTER_BUTTON_ID}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => onOpenChange(true)}
        data-testid="cluster-button"
        data-draft-unsaved={unsaved}
      >
        Your cluster…
        {unsaved && <span className="cluster-unsaved"> (text not saved)</span>}
      </button>
      <dialog
        ref={dialog}
        className="app-dialog import-dialog"
        aria-labelledby="import-dialog-title"
        data-testid="import"
        onClose={() => onOpenChange(false)}
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        onClick={(e) => {
          if (e.target === e.currentTarget) {
            const r = e.currentTarget.getBoundingClientRect();
            const inside =
              e.clientX >= r.left &&
              e.clientX <= r.right &&
              e.clientY >= r.top &&
              e.clientY <= r.bottom;
            if (!inside) onOpenChange(false);
          }
        }}
      >
        <header className="import-dialog-head">
          <h2 id="import-dialog-title">Your cluster</h2>
          <button
            type="button"
            className="import-dialog-close"
            onClick={() => onOpenChange(false)}
            aria-label="Close Your cluster (nothing is lost)"
          >
            Close
          </button>
        </header>
        <ErrorBoundary name="the Your cluster panel">
          {wanted && (
            <Suspense fallback={<p className="import-loading">Loading the importer…</p>}>
              <ImportBody
                onOutcome={onOutcome}
                apiRef={api}
                dragging={dragging && open}
                onApi={onApi}
                onUnsaved={setUnsaved}
              />
            </Suspense>
          )}
        </ErrorBoundary>
      </dialog>
      {dragging && !open && (
        <div className="page-drop-overlay" aria-hidden="true">
          <p>Drop to load the file as your cluster</p>
        </div>
      )}
    </>
  );
}
