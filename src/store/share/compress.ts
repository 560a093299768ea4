/**
 * lz-string's compressor, loaded after the first paint rather than with it: links are written
 * only once the view changes or someone copies one, and the library (about 1.4 KB gzip) kept
 * the initial JavaScript over its 120 KB budget (DESIGN.md) once the strict CSP moved the
 * page's inline scripts into counted files. Reading a link needs no library (./lz.ts).
 *
 * Until it has loaded, {@link compressNow} answers undefined and the callers wait
 * ({@link loadCompressor}) or say a link is not ready; {@link onCompressorReady} tells views
 * to draw again when it arrives.
 */

/** `compressToEncodedURIComponent`: JSON text → the URI-safe lz-string text of `#s=`. */
export type Compress = (text: string) => string;

let compress: Compress | undefined;
let loading: Promise<Compress> | undefined;
const listeners = new Set<() => void>();

/**
 * Loads the compressor (once; later calls share the first). Resolves with it; rejects only if
 * the chunk cannot be fetched, and a later call then tries again.
 */
export function loadCompressor(): Promise<Compress> {
  loading ??= import('lz-string').then(
    (m) => {
      // CommonJS through an ES import: the functions are on `default` (bundlers may also
      // copy them onto the namespace).
      const lz = m.default;
      compress = (text) => lz.compressToEncodedURIComponent(text);
      for (const listener of [...listeners]) listener();
      return compress;
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  );
  return loading;
}

/** The compressed text, or undefined while the compressor has not loaded. */
export function compressNow(text: string): string | undefined {
  return compress?.(text);
}

/** Whether {@link compressNow} answers. */
export function compressorReady(): boolean {
  return compress !== undefined;
}

/** Calls `listener` once the compressor has loaded; returns the unsubscribe. */
export function onCompressorReady(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
