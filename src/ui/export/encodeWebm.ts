/**
 * WebM video through WebCodecs (mediabunny 1.61.0: Output + WebMOutputFormat + CanvasSource):
 * the frames are drawn onto one canvas and each is added as one video frame held for its
 * duration (no screen recording: the pixels are the rendered frames).
 */
import {
  BufferTarget,
  CanvasSource,
  Output,
  QUALITY_HIGH,
  WebMOutputFormat,
  getFirstEncodableVideoCodec,
} from 'mediabunny';

/** Adds the canvas's current picture as the next frame; `finish` gives the file. */
export interface WebmWriter {
  /** The codec chosen (`vp9`, `vp8` or `av1`). */
  codec: string;
  add(durationS: number): Promise<void>;
  finish(): Promise<Uint8Array>;
}

/**
 * Starts a WebM file of `canvas`'s pictures.
 * @throws {Error} naming what is missing when the browser has no VideoEncoder or encodes none
 * of VP9, VP8 and AV1 at this size.
 */
export async function webmWriter(canvas: HTMLCanvasElement): Promise<WebmWriter> {
  if (typeof VideoEncoder === 'undefined')
    throw new Error('This browser has no VideoEncoder (WebCodecs): it cannot make a WebM.');
  const codec = await getFirstEncodableVideoCodec(['vp9', 'vp8', 'av1'], {
    width: canvas.width,
    height: canvas.height,
  });
  if (!codec)
    throw new Error(
      `This browser encodes none of VP9, VP8 or AV1 at ${canvas.width}×${canvas.height}: it cannot make a WebM.`,
    );
  const target = new BufferTarget();
  const output = new Output({ format: new WebMOutputFormat(), target });
  const source = new CanvasSource(canvas, { codec, bitrate: QUALITY_HIGH });
  output.addVideoTrack(source);
  await output.start();
  let t = 0;
  return {
    codec,
    async add(durationS) {
      // Every frame is a key frame: a still held 1.5 s, so seeking lands on any step at once.
      await source.add(t, durationS, { keyFrame: true });
      t += durationS;
    },
    async finish() {
      source.close();
      await output.finalize();
      if (!target.buffer) throw new Error('The WebM came out empty.');
      return new Uint8Array(target.buffer);
    },
  };
}
