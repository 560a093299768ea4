/**
 * Rasterises an exported frame: the SVG file text decoded as an image (the browser's own SVG
 * renderer, so the pixels are the vector frame's) and drawn on a canvas at `scale` device
 * pixels per SVG unit, over the frame's background.
 */
import type { FrameSvg } from './frameSvg';

/** A canvas the size of `f` × `scale`, rounded up to even pixels when `even` (video encoders want it). */
export function frameCanvas(
  f: { width: number; height: number },
  scale: number,
  even = false,
): HTMLCanvasElement {
  const c = document.createElement('canvas');
  const up = (n: number) => {
    const px = Math.ceil(n * scale);
    return even && px % 2 ? px + 1 : px;
  };
  c.width = up(f.width);
  c.height = up(f.height);
  return c;
}

/**
 * Draws frame `f` onto `canvas` at its top left (`scale` px per SVG unit), over `background`
 * filling the whole canvas (a smaller frame in a larger animation keeps the same ground).
 * @throws {Error} if the browser cannot decode the SVG as an image.
 */
export async function drawFrame(
  f: FrameSvg,
  canvas: HTMLCanvasElement,
  scale: number,
  background: string,
): Promise<CanvasRenderingContext2D> {
  const url = URL.createObjectURL(new Blob([f.markup], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('This browser gives no 2D canvas.');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, f.width * scale, f.height * scale);
    return ctx;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** `canvas` as a PNG file. @throws {Error} if the browser gives no PNG. */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('The browser could not make the PNG.'))),
      'image/png',
    ),
  );
}
