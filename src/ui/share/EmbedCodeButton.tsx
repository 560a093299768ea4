/**
 * "Embed code…": the header's button for the "Copy embed code" dialog (issue 12, scope 3). Only this
 * button is in the initial bundle; the dialog (EmbedCodeDialog.tsx, its snippets and styles)
 * loads on the first click. Needs nothing but the store, like "Export…".
 */
import { lazy } from 'react';
import { LazyDialogButton } from '../LazyDialogButton';

const Dialog = lazy(() => import('./EmbedCodeDialog'));

/** "Embed code…": opens the dialog with an `<iframe>` and a `<lb-datapath>` snippet of this view. */
export function EmbedCodeButton() {
  return (
    <LazyDialogButton dialog={Dialog} testId="embed-code-button">
      Embed code…
    </LazyDialogButton>
  );
}
