/**
 * Vitest setup, run before every test file: the link compressor is loaded before the tests
 * (the app loads it after the first paint, store/share/compress.ts; tests write links at once).
 */
import { loadCompressor } from './store/share/compress';

await loadCompressor();
