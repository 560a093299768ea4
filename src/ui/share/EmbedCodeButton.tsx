/**
 * "Embed code…": the header's button for the "Copy embed code" dialog (issue 12, scope 3). Only this
 * button is in the initial bundle; the dialog (EmbedCodeDialog.tsx, its snippets and styles)
 * loads on the first click. Needs nothing but the store, like "Export…".
 */
import { Suspense, lazy, useRef, useState } from 'react';

const EmbedCodeDialog = lazy(() => import('./EmbedCodeDialog'));

/** "Embed code…": opens the dialog with an `<iframe>` and a `<lb-datapath>` snippet of this view. */
export function EmbedCodeButton() {
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
        data-testid="embed-code-button"
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        Embed code…
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <EmbedCodeDialog
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
