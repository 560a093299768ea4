/**
 * The "Export…" button. It is all the export puts in the initial bundle: the dialog
 * (ExportDialog.tsx) loads on the first click, and the renderer and encoders only when an
 * export runs. Needs nothing but the store (`useAppStoreApi`), so any view with a
 * `StoreProvider` and a stage can mount it.
 */
import { Suspense, lazy, useRef, useState } from 'react';

const ExportDialog = lazy(() => import('./ExportDialog'));

/** "Export…": opens the Export dialog (SVG, PNG, GIF, WebM, printable handout). */
export function ExportMenu() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="export-button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        Export…
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <ExportDialog
            open={open}
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
