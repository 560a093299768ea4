/**
 * Reads a GIF's block structure (GIF89a, https://www.w3.org/Graphics/GIF/spec-gif89a.txt) and
 * counts its frames: image descriptors (0x2C) and graphic control extensions (0x21 0xF9),
 * skipping colour tables and data sub-blocks, so bytes inside the LZW data are never mistaken
 * for blocks. Used by the tests to check "one frame per step".
 */

/** What {@link gifBlocks} found: size, frames and each frame's delay (ms). */
export interface GifSummary {
  width: number;
  height: number;
  images: number;
  controls: number;
  delaysMs: number[];
}

/** @throws {Error} if `b` is not a well-formed GIF. */
export function gifBlocks(b: Uint8Array): GifSummary {
  const sig = String.fromCharCode(...b.subarray(0, 6));
  if (sig !== 'GIF89a' && sig !== 'GIF87a') throw new Error(`not a GIF: ${sig}`);
  const width = b[6]! | (b[7]! << 8);
  const height = b[8]! | (b[9]! << 8);
  let i = 13;
  const packed = b[10]!;
  if (packed & 0x80) i += 3 * (1 << ((packed & 7) + 1));
  const skipSubBlocks = () => {
    while (i < b.length && b[i] !== 0) i += b[i]! + 1;
    i += 1;
  };
  let images = 0;
  let controls = 0;
  const delaysMs: number[] = [];
  while (i < b.length) {
    const t = b[i]!;
    if (t === 0x3b) return { width, height, images, controls, delaysMs };
    if (t === 0x21) {
      const label = b[i + 1]!;
      if (label === 0xf9) {
        controls += 1;
        delaysMs.push((b[i + 4]! | (b[i + 5]! << 8)) * 10);
      }
      i += 2;
      skipSubBlocks();
    } else if (t === 0x2c) {
      images += 1;
      const p = b[i + 9]!;
      i += 10;
      if (p & 0x80) i += 3 * (1 << ((p & 7) + 1));
      i += 1; // LZW minimum code size
      skipSubBlocks();
    } else throw new Error(`unexpected GIF block 0x${t.toString(16)} at byte ${i}`);
  }
  throw new Error('GIF ends without its trailer (0x3B)');
}
