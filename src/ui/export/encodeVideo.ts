/**
 * WebM and MP4 video through WebCodecs (mediabunny 1.61.0: Output + WebMOutputFormat or
 * Mp4OutputFormat + CanvasSource): the frames are drawn onto one canvas and each is added as
 * one video frame held for its duration (no screen recording: the pixels are the rendered
 * frames). WebM takes VP9, VP8 or AV1; MP4 takes H.264 (AVC), the codec every player plays.
 */
import {
  BufferTarget,
  CanvasSource,
  Mp4OutputFormat,
  Output,
  QUALITY_HIGH,
  WebMOutputFormat,
  getFirstEncodableVideoCodec,
} from 'mediabunny';
import type { VideoCodec } from 'mediabunny';

/** The video containers the export writes. */
export type VideoContainer = 'webm' | 'mp4';

/** Adds the canvas's current picture as the next frame; `finish` gives the file. */
export interface VideoWriter {
  /** The codec chosen (`vp9`, `vp8`, `av1` or `avc`). */
  codec: string;
  add(durationS: number): Promise<void>;
  finish(): Promise<Uint8Array>;
}

/** The codecs each container is written with, best first. */
export const CONTAINER_CODECS: Record<VideoContainer, readonly VideoCodec[]> = {
  webm: ['vp9', 'vp8', 'av1'],
  mp4: ['avc'],
};

const NAME: Record<VideoContainer, string> = { webm: 'a WebM', mp4: 'an MP4' };
const CODEC_NAMES: Record<VideoContainer, string> = {
  webm: 'none of VP9, VP8 or AV1',
  mp4: 'no H.264 (AVC)',
};

/**
 * Starts a `container` file of `canvas`'s pictures (its width and height must be even).
 * @throws {Error} naming what is missing when the browser has no VideoEncoder or cannot encode
 * the container's codecs at this size.
 */
export async function videoWriter(
  canvas: HTMLCanvasElement,
  container: VideoContainer,
): Promise<VideoWriter> {
  if (typeof VideoEncoder === 'undefined')
    throw new Error(
      `This browser has no VideoEncoder (WebCodecs): it cannot make ${NAME[container]}.`,
    );
  const codec = await getFirstEncodableVideoCodec([...CONTAINER_CODECS[container]], {
    width: canvas.width,
    height: canvas.height,
  });
  if (!codec)
    throw new Error(
      `This browser encodes ${CODEC_NAMES[container]} at ${canvas.width}×${canvas.height}: it cannot make ${NAME[container]}.`,
    );
  const target = new BufferTarget();
  // MP4: the index (moov) before the media, so a player or a browser starts at once.
  const format =
    container === 'mp4' ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat();
  const output = new Output({ format, target });
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
      if (!target.buffer) throw new Error(`The ${container.toUpperCase()} came out empty.`);
      return new Uint8Array(target.buffer);
    },
  };
}
