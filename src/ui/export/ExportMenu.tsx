/**
 * The "Export…" button. It is all the export puts in the initial bundle: the dialog
 * (ExportDialog.tsx) loads on the first click, and the renderer and encoders only when an
 * export runs. Needs nothing but the store (`useAppStoreApi`), so any view with a
 * `StoreProvider` and a stage can mount it.
 */
import { lazy } from 'react';
import { LazyDialogButton } from '../LazyDialogButton';

const Dialog = lazy(() => import('./ExportDialog'));

/** "Export…": opens the Export dialog (SVG, PNG, GIF, WebM, printable handout). */
export function ExportMenu() {
  return (
    <LazyDialogButton dialog={Dialog} testId="export-button">
      Export…
    </LazyDialogButton>
  );
}
