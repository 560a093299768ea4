import { useSyncExternalStore } from 'react';
import { compressorReady, loadCompressor, onCompressorReady } from '../../store/share';

/**
 * Whether links can be written yet (the compressor loads after the first paint,
 * store/share/compress.ts); asks for it and draws the caller again when it has arrived, so a
 * selector such as `selectShareHash` is read again then.
 */
export function useCompressorReady(): boolean {
  return useSyncExternalStore(
    (notify) => {
      void loadCompressor().catch(() => undefined);
      return onCompressorReady(notify);
    },
    compressorReady,
    () => false,
  );
}
