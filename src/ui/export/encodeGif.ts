/**
 * An animated GIF, one frame at a time (gifenc 1.0.3: PnnQuant palette, LZW). Each frame gets
 * its own 256-colour palette, quantised from a sample of its pixels (every `stride`-th pixel:
 * the stage is flat colours and anti-aliased edges, and quantising a 2-megapixel frame in
 * full would block the page for ~0.5 s), then every pixel is mapped to it.
 */
import { GIFEncoder, applyPalette, quantize } from 'gifenc';

/** Adds frames and returns the file. */
export interface GifWriter {
  /** Adds one frame of RGBA pixels (`width` × `height`), shown for `delayMs`. */
  add(rgba: Uint8ClampedArray, width: number, height: number, delayMs: number): void;
  /** The GIF file's bytes (loops forever). */
  finish(): Uint8Array;
}

/** Every how many pixels the palette is sampled, for a frame of `pixels` pixels (≤ ~250k samples). */
export function sampleStride(pixels: number): number {
  return Math.max(1, Math.floor(pixels / 250_000));
}

function sample(rgba: Uint8ClampedArray, stride: number): Uint8ClampedArray {
  if (stride === 1) return rgba;
  const n = Math.floor(rgba.length / 4 / stride);
  const out = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) out.set(rgba.subarray(i * stride * 4, i * stride * 4 + 4), i * 4);
  return out;
}

/** A GIF writer; frames may differ in palette but must share one size. */
export function gifWriter(): GifWriter {
  const gif = GIFEncoder();
  let first = true;
  return {
    add(rgba, width, height, delayMs) {
      const palette = quantize(sample(rgba, sampleStride(width * height)), 256);
      const index = applyPalette(rgba, palette);
      gif.writeFrame(index, width, height, {
        palette,
        delay: delayMs,
        ...(first ? { repeat: 0 } : {}),
      });
      first = false;
    },
    finish() {
      gif.finish();
      return gif.bytes();
    },
  };
}
