import { describe, expect, it } from 'vitest';
import { gifWriter, sampleStride } from './encodeGif';
import { gifBlocks } from './gifFrames';

function solid(w: number, h: number, rgb: [number, number, number]): Uint8ClampedArray {
  const px = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set([...rgb, 255], i * 4);
  return px;
}

describe('gifWriter + gifBlocks', () => {
  it('writes one image and one graphic control extension per frame, with its delay', () => {
    const gif = gifWriter();
    const colours: [number, number, number][] = [
      [0, 114, 178],
      [179, 77, 0],
      [0, 122, 94],
      [244, 246, 249],
      [23, 32, 44],
    ];
    for (const c of colours) gif.add(solid(40, 30, c), 40, 30, 1500);
    const s = gifBlocks(gif.finish());
    expect(s).toEqual({
      width: 40,
      height: 30,
      images: 5,
      controls: 5,
      delaysMs: [1500, 1500, 1500, 1500, 1500],
    });
  });

  it('samples the palette from at most ~250k pixels', () => {
    expect(sampleStride(100_000)).toBe(1);
    expect(sampleStride(1_000_000)).toBe(4);
    expect(Math.floor(3_000_000 / sampleStride(3_000_000))).toBeLessThanOrEqual(250_000);
  });
});
