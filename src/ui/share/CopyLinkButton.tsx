import { Suspense, lazy, useEffect, useState } from 'react';
import { useAppStoreApi } from '../../store';
import './share.css';

/** The field to copy the link by hand, loaded with the copying code (./copyLink.tsx). */
const LinkField = lazy(() => import('./copyLink').then((m) => ({ default: m.LinkField })));

type Status =
  | { kind: 'idle' }
  | { kind: 'copied' }
  | { kind: 'manual' }
  | { kind: 'unshareable'; reason: string };

const IDLE: Status = { kind: 'idle' };

/** How long "Link copied" stays. */
const COPIED_MS = 4000;

/**
 * "Copy link": writes a link to the view on screen to the clipboard, or, where the clipboard
 * cannot be written (no permission, not a secure context), shows it in a field to copy by hand.
 */
export function CopyLinkButton() {
  const store = useAppStoreApi();
  const [status, setStatus] = useState<Status>(IDLE);

  useEffect(() => {
    if (status.kind !== 'copied') return;
    const t = setTimeout(() => setStatus(IDLE), COPIED_MS);
    return () => clearTimeout(t);
  }, [status]);

  const copy = async () => {
    const { copyLink } = await import('./copyLink');
    setStatus(await copyLink(store));
  };

  return (
    <div className="share">
      <button
        type="button"
        className="share-button"
        aria-label="Copy link to this view"
        onClick={() => void copy()}
      >
        Copy link
      </button>
      <span
        className="share-status"
        aria-live="polite"
        data-testid="share-status"
        data-kind={status.kind}
      >
        {status.kind === 'copied'
          ? 'Link copied'
          : status.kind === 'manual'
            ? 'Copy the link from the field below'
            : status.kind === 'unshareable'
              ? `No link: ${status.reason}`
              : ''}
      </span>
      {status.kind === 'manual' && (
        <Suspense fallback={null}>
          <LinkField onClose={() => setStatus(IDLE)} />
        </Suspense>
      )}
    </div>
  );
}
