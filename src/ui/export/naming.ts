/**
 * What an export is called and which steps it draws: pure, so the file names and frame counts
 * the UI promises are unit-tested (naming.test.ts) and the e2e test can rely on them.
 */
import type { Trace } from '../../model/trace/types';

/** One exported frame: trace step `index` (-1: before the first step). */
export interface FrameSpec {
  /** Index into `trace.steps`; -1 is the view before the first step. */
  index: number;
  /** "Step 3 of 13 · request →", or "Before the first step · 13 steps". */
  label: string;
  title: string;
  body: string;
}

/**
 * The frames of an animation or handout: exactly one per trace step, in order (`trace.steps`).
 * The view before the first step is left out: its drawing is the first step's start, and
 * "one frame per step" is a count a reader can check against the player's "of N".
 */
export function frameList(trace: Trace): FrameSpec[] {
  return trace.steps.map((_, i) => frameAt(trace, i));
}

/** The frame for step `index` of `trace` (-1: before the first step, with a generic caption). */
export function frameAt(trace: Trace, index: number): FrameSpec {
  const n = trace.steps.length;
  const step = trace.steps[index];
  if (!step)
    return {
      index: -1,
      label: `Before the first step · ${n} steps`,
      title: 'Before the first packet',
      body: n > 0 ? 'The client is about to open the connection.' : trace.outcome.summary,
    };
  return {
    index,
    label: `Step ${index + 1} of ${n} · ${step.direction === 'reply' ? 'reply ←' : 'request →'}`,
    title: step.narration.title,
    body: step.narration.body,
  };
}

/**
 * The frame for walkthrough step `story` (0-based, of `stories` in the walkthrough), whose scene
 * traced `trace` and which shows trace step `index` of it (-1: before the first step): captioned
 * with the story step's own title and sentences, labelled with both positions, e.g.
 * "Story step 4 of 5 · trace step 2 of 13, request →".
 */
export function storyFrameSpec(
  step: { title: string; body: string },
  story: number,
  stories: number,
  trace: Trace,
  index: number,
): FrameSpec {
  const n = trace.steps.length;
  const at = trace.steps[index];
  const where = at
    ? `trace step ${index + 1} of ${n}, ${at.direction === 'reply' ? 'reply ←' : 'request →'}`
    : 'before the first packet';
  return {
    index: at ? index : -1,
    label: `Story step ${story + 1} of ${stories} · ${where}`,
    title: step.title,
    body: step.body,
  };
}

/** The export formats. */
export type ExportKind = 'svg' | 'png' | 'gif' | 'webm' | 'mp4' | 'handout';

/** What an animation or handout draws: the trace on screen, or the walkthrough's story steps. */
export type FrameSource = 'trace' | 'story';

/** What a file name is made of. */
export interface NameParts {
  /** `spec.externalTrafficPolicy`: Cluster | Local. */
  policy: string;
  /** How many steps the trace has (for `source: 'story'`, how many story steps are drawn). */
  steps: number;
  /** Animations and handouts: whose frames (default `trace`). */
  source?: FrameSource;
  /** The current step index (-1: before the first), for single frames. */
  step?: number;
  /** For the PNG: its size in device pixels. */
  pixels?: { width: number; height: number };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'scene';

/**
 * The download's file name: `lb-datapath-<policy>-step-<k>-of-<n>.svg`,
 * `…-step-<k>-of-<n>-<W>x<H>@2x.png` (W × H in device pixels), `lb-datapath-<policy>-<n>-steps.gif`
 * / `.webm` / `.mp4`, `lb-datapath-<policy>-handout.html`; the walkthrough's:
 * `lb-datapath-walkthrough-<n>-story-steps.gif` (…`.webm`, `.mp4`) and
 * `lb-datapath-walkthrough-handout.html`. `k` is 1-based; before the first step it is `start`.
 */
export function exportFileName(kind: ExportKind, p: NameParts): string {
  if (p.source === 'story' && kind !== 'svg' && kind !== 'png')
    return kind === 'handout'
      ? 'lb-datapath-walkthrough-handout.html'
      : `lb-datapath-walkthrough-${p.steps}-story-step${p.steps === 1 ? '' : 's'}.${kind}`;
  const base = `lb-datapath-${slug(p.policy)}`;
  const step = p.step === undefined || p.step < 0 ? 'start' : String(p.step + 1);
  switch (kind) {
    case 'svg':
      return `${base}-step-${step}-of-${p.steps}.svg`;
    case 'png': {
      const px = p.pixels ? `-${p.pixels.width}x${p.pixels.height}@2x` : '@2x';
      return `${base}-step-${step}-of-${p.steps}${px}.png`;
    }
    case 'gif':
    case 'webm':
    case 'mp4':
      return `${base}-${p.steps}-step${p.steps === 1 ? '' : 's'}.${kind}`;
    case 'handout':
      return `${base}-handout.html`;
  }
}

/** A byte count for people: "812 B", "48.3 KB", "2.41 MB" (1 KB = 1,000 B, as browsers show). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(2)} MB`;
}

/** How long each animation frame is held, ms (one step per 1.5 s: time to read the card). */
export const FRAME_MS = 1500;
