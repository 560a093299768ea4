/**
 * "Your cluster…": the header button, the dialog it opens (a native modal `<dialog>`: focus
 * moves in, Tab stays in, Esc closes, focus returns to the button) and a page-wide drop target.
 * A load, an Apply or a reset that works closes the dialog and says so in a status line under
 * the header; one that does not keeps (or opens) the dialog with the message and the text.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import { ImportBody } from './ImportPanel';
import type { ImportApi, ImportOutcome } from './ImportPanel';

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

  const onFile = useCallback((file: File) => void api.current?.loadFile(file), []);
  const dragging = usePageDrop(onFile);

  return (
    <>
      <button
        type="button"
        id={CLUSTER_BUTTON_ID}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => onOpenChange(true)}
        data-testid="cluster-button"
      >
        Your cluster…
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
          <ImportBody onOutcome={onOutcome} apiRef={api} dragging={dragging && open} />
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
