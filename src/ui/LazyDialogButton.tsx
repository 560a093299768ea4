/**
 * A header button whose dialog loads on its first click (Export…, Embed code…): only the button
 * is in the initial bundle. The dialog gets `open` and `onClose`; closing it gives the focus
 * back to the button.
 */
import { Suspense, useRef, useState } from 'react';
import type { ComponentType, ReactNode } from 'react';

/** What the lazily loaded dialog module's default export takes. */
export interface LazyDialogProps {
  open: boolean;
  onClose: () => void;
}

interface Props {
  /** The dialog: a `React.lazy` component, made once at module level by the caller. */
  dialog: ComponentType<LazyDialogProps>;
  testId: string;
  children: ReactNode;
}

export function LazyDialogButton({ dialog: Dialog, testId, children }: Props) {
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
        data-testid={testId}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        {children}
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <Dialog
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
