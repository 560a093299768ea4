/**
 * The part of "Copy link" that runs only once it is pressed (loaded then, not with the first
 * page): writing the link, the clipboard, and the field to copy it from by hand.
 */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../../store';
import type { AppStore } from '../../store';
import { loadCompressor, selectShareHash, shareLink, snapshot } from '../../store/share';
import { useCompressorReady } from './useCompressorReady';

/** This page's address without its fragment: a shared link is this plus `#s=…`. */
function baseUrl(): string {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${search}`;
}

/** What pressing "Copy link" came to. */
export type CopyOutcome =
  { kind: 'copied' } | { kind: 'manual' } | { kind: 'unshareable'; reason: string };

/** Writes the link to the view on screen to the clipboard; `manual` where it cannot be written. */
export async function copyLink(store: AppStore): Promise<CopyOutcome> {
  try {
    await loadCompressor();
  } catch (_) {
    return { kind: 'unshareable', reason: 'the link writer could not be loaded' };
  }
  const link = shareLink(snapshot(store.getState()));
  if (!link.ok) return { kind: 'unshareable', reason: link.reason };
  try {
    // navigator.clipboard is undefined outside secure contexts, whatever the types say.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) throw new Error('no clipboard');
    await clipboard.writeText(baseUrl() + link.hash);
    return { kind: 'copied' };
  } catch (_) {
    return { kind: 'manual' };
  }
}

/** The link, in a field to copy by hand (shown when the clipboard cannot be written). */
export function LinkField({ onClose }: { onClose: () => void }) {
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
