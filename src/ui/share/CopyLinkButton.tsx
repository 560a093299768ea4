import { useEffect, useRef, useState } from 'react';
import { useAppStore, useAppStoreApi } from '../../store';
import { loadCompressor, selectShareHash, shareLink, snapshot } from '../../store/share';
import { useCompressorReady } from './useCompressorReady';
import './share.css';

/** This page's address without its fragment: a shared link is this plus `#s=…`. */
function baseUrl(): string {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${search}`;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'copied' }
  | { kind: 'manual' }
  | { kind: 'unshareable'; reason: string };

const IDLE: Status = { kind: 'idle' };

/** How long "Link copied" stays. */
const COPIED_MS = 4000;

/** The link, in a field to copy by hand (shown when the clipboard cannot be written). */
function LinkField({ onClose }: { onClose: () => void }) {
  useCompressorReady();
  const hash = useAppStore(selectShareHash);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <div className="share-fallback">
      <label>
        Link to this view{' '}
        <input
          ref={ref}
          type="text"
          readOnly
          value={hash === null ? '' : baseUrl() + hash}
          data-testid="share-link"
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

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
    try {
      await loadCompressor();
    } catch (_) {
      return setStatus({ kind: 'unshareable', reason: 'the link writer could not be loaded' });
    }
    const link = shareLink(snapshot(store.getState()));
    if (!link.ok) return setStatus({ kind: 'unshareable', reason: link.reason });
    const url = baseUrl() + link.hash;
    try {
      // navigator.clipboard is undefined outside secure contexts, whatever the types say.
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(url);
      setStatus({ kind: 'copied' });
    } catch (_) {
      setStatus({ kind: 'manual' });
    }
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
      {status.kind === 'manual' && <LinkField onClose={() => setStatus(IDLE)} />}
    </div>
  );
}
