/**
 * Runs one export: renders the frames from the model's steps (frameRenderer.tsx), serialises
 * them (frameSvg.ts), rasterises (raster.ts) and encodes them (encodeGif.ts, encodeVideo.ts,
 * handout.ts), reporting progress, and yields to the page between frames so it stays
 * responsive. Loaded by the Export dialog on first use (the encoders are loaded only for
 * their format).
 */
import type { Trace } from '../../model/trace/types';
import type { AppStore } from '../../store';
import { selectScene, selectTrace } from '../../store';
import { openFrameRenderer } from './frameRenderer';
import type { FrameRenderer } from './frameRenderer';
import { frameSvg } from './frameSvg';
import type { FrameSvg } from './frameSvg';
import { handoutHtml } from './handout';
import { FRAME_MS, exportFileName, formatBytes, frameAt, frameList } from './naming';
import type { ExportKind, FrameSource, FrameSpec } from './naming';
import { canvasPng, drawFrame, frameCanvas } from './raster';
import { storyFrames } from './storyFrames';

/** A finished export: the file to save and what to announce. */
export interface ExportResult {
  fileName: string;
  blob: Blob;
  /** E.g. "GIF ready: 13 frames, 1000×760 px, 412.0 KB, in 2.3 s." */
  message: string;
  /** Wall time of the export, ms. */
  ms: number;
}

/** Lets the page paint and handle input between two frames. */
const pause = () => new Promise<void>((r) => setTimeout(r, 0));

const seconds = (ms: number) =>
  ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The largest frame size among `frames` (animations keep one size), CSS px. */
function maxSize(frames: readonly FrameSvg[]) {
  return {
    width: Math.max(...frames.map((f) => f.width)),
    height: Math.max(...frames.map((f) => f.height)),
  };
}

async function renderAll(
  r: FrameRenderer,
  specs: readonly FrameSpec[],
  what: string,
  progress: (m: string) => void,
  prefix: (i: number) => string,
): Promise<FrameSvg[]> {
  const out: FrameSvg[] = [];
  for (const [i, spec] of specs.entries()) {
    progress(`${what}: drawing frame ${i + 1} of ${specs.length}…`);
    out.push(frameSvg(r.show(spec.index), spec, r.colours, prefix(i)));
    await pause();
  }
  return out;
}

/** An animation's or handout's frames, their captions and the handout's title. */
interface FrameSet {
  title: string;
  specs: FrameSpec[];
  frames: FrameSvg[];
}

/**
 * The frames of `source`: every step of `trace` (the view on screen), or one per walkthrough
 * step that applies (storyFrames.ts: each its own scene, answer and step).
 */
async function animationFrames(
  source: FrameSource,
  r: FrameRenderer,
  store: AppStore,
  trace: Trace,
  kind: ExportKind,
  progress: (m: string) => void,
): Promise<FrameSet> {
  const what =
    kind === 'gif' ? 'GIF' : kind === 'webm' ? 'WebM' : kind === 'mp4' ? 'MP4' : 'Handout';
  // The handout puts every frame on one page: each needs its own marker ids.
  const prefix = (i: number) => (kind === 'handout' ? `lbdp-f${i + 1}` : 'lbdp');
  if (source === 'story') {
    const story = await storyFrames(store, progress);
    const frames: FrameSvg[] = [];
    for (const [i, f] of story.frames.entries()) {
      progress(`${what}: drawing frame ${i + 1} of ${story.frames.length}…`);
      frames.push(frameSvg(r.showState(f.state), f.spec, r.colours, prefix(i)));
      await pause();
    }
    return { title: story.title, specs: story.frames.map((f) => f.spec), frames };
  }
  const specs = frameList(trace);
  if (specs.length === 0) throw new Error('This trace has no steps to export.');
  const sc = selectScene(store.getState());
  return {
    title: `externalTrafficPolicy: ${sc.externalTrafficPolicy} · ipMode: ${sc.ipMode}`,
    specs,
    frames: await renderAll(r, specs, what, progress, prefix),
  };
}

/**
 * Exports the view in `store` as `kind`: the current step as SVG or PNG (2× device pixels),
 * or, as GIF, WebM, MP4 or a handout, every step of the trace (`source` 'trace', one frame per
 * step) or of the walkthrough ('story', one frame per story step that applies). `anchor` is an
 * element of the app (the themed ancestor and the stage on screen are found from it).
 * @throws {Error} with a sentence for the person: no steps, no encoder, a failed decode, no
 * answer from the model.
 */
export async function runExport(
  kind: ExportKind,
  store: AppStore,
  anchor: Element,
  progress: (message: string) => void,
  source: FrameSource = 'trace',
): Promise<ExportResult> {
  const t0 = performance.now();
  const state = store.getState();
  const trace = selectTrace(state);
  const policy = selectScene(state).externalTrafficPolicy;
  const steps = trace.steps.length;
  const stepIndex = state.playback.stepIndex;
  const r = openFrameRenderer(store, anchor);
  try {
    if (kind === 'svg' || kind === 'png') {
      const f = frameSvg(r.show(stepIndex), frameAt(trace, stepIndex), r.colours, 'lbdp');
      if (kind === 'svg') {
        const blob = new Blob([f.markup], { type: 'image/svg+xml' });
        const ms = performance.now() - t0;
        return {
          fileName: exportFileName('svg', { policy, steps, step: stepIndex }),
          blob,
          ms,
          message: `SVG ready: ${f.width}×${f.height} px, ${formatBytes(blob.size)}, in ${seconds(ms)}.`,
        };
      }
      progress('PNG: rasterising at 2×…');
      const canvas = frameCanvas(f, 2);
      await drawFrame(f, canvas, 2, r.colours.background);
      const blob = await canvasPng(canvas);
      const ms = performance.now() - t0;
      const pixels = { width: canvas.width, height: canvas.height };
      return {
        fileName: exportFileName('png', { policy, steps, step: stepIndex, pixels }),
        blob,
        ms,
        message: `PNG ready: ${pixels.width}×${pixels.height} device px (2× the ${f.width}×${f.height} frame), ${formatBytes(blob.size)}, in ${seconds(ms)}.`,
      };
    }
    const set = await animationFrames(source, r, store, trace, kind, progress);
    r.dispose();
    const { specs, frames } = set;
    const parts = { policy, steps: source === 'story' ? frames.length : steps, source };
    const unit = source === 'story' ? 'story step' : 'step';
    if (kind === 'handout') {
      const html = handoutHtml(
        set.title,
        frames.map((f, i) => ({ spec: specs[i]!, svg: f.markup })),
      );
      const blob = new Blob([html], { type: 'text/html' });
      const ms = performance.now() - t0;
      return {
        fileName: exportFileName('handout', parts),
        blob,
        ms,
        message: `Handout ready: ${frames.length} ${unit}s, in ${seconds(ms)}.`,
      };
    }
    const size = maxSize(frames);
    const ground = r.colours.background;
    if (kind === 'gif') {
      const { gifWriter } = await import('./encodeGif');
      const gif = gifWriter();
      const canvas = frameCanvas(size, 1);
      for (const [i, f] of frames.entries()) {
        progress(`GIF: frame ${i + 1} of ${frames.length}…`);
        const ctx = await drawFrame(f, canvas, 1, ground);
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        gif.add(px, canvas.width, canvas.height, FRAME_MS);
        await pause();
      }
      const blob = new Blob([gif.finish() as Uint8Array<ArrayBuffer>], { type: 'image/gif' });
      const ms = performance.now() - t0;
      return {
        fileName: exportFileName('gif', parts),
        blob,
        ms,
        message: `GIF ready: ${frames.length} frames (one per ${unit}, ${FRAME_MS / 1000} s each), ${canvas.width}×${canvas.height} px, ${formatBytes(blob.size)}, in ${seconds(ms)}.`,
      };
    }
    const container = kind;
    const LABEL = container === 'mp4' ? 'MP4' : 'WebM';
    const { videoWriter } = await import('./encodeVideo');
    // Sharp text at 2×, within what every encoder takes (1920 px on the long side).
    const scale = Math.min(2, 1920 / size.width, 1920 / size.height);
    const canvas = frameCanvas(size, scale, true);
    await drawFrame(frames[0]!, canvas, scale, ground);
    const video = await videoWriter(canvas, container);
    for (const [i, f] of frames.entries()) {
      progress(`${LABEL}: frame ${i + 1} of ${frames.length}…`);
      if (i > 0) await drawFrame(f, canvas, scale, ground);
      await video.add(FRAME_MS / 1000);
      await pause();
    }
    const blob = new Blob([(await video.finish()) as Uint8Array<ArrayBuffer>], {
      type: container === 'mp4' ? 'video/mp4' : 'video/webm',
    });
    const ms = performance.now() - t0;
    return {
      fileName: exportFileName(container, parts),
      blob,
      ms,
      message: `${LABEL} ready (${video.codec === 'avc' ? 'H.264' : video.codec.toUpperCase()}): ${frames.length} frames (one per ${unit}), ${FRAME_MS / 1000} s each, ${canvas.width}×${canvas.height} px, ${formatBytes(blob.size)}, in ${seconds(ms)}.`,
    };
  } finally {
    r.dispose();
  }
}
