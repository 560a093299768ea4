import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../../model';
import { exportFileName, formatBytes, frameAt, frameList, storyFrameSpec } from './naming';

const trace = runScene(canonicalObjects(), DEFAULT_SCENE).trace;

describe('frameList', () => {
  it('has exactly one frame per trace step, in order, with the step narration', () => {
    const frames = frameList(trace);
    expect(trace.steps.length).toBeGreaterThan(3);
    expect(frames).toHaveLength(trace.steps.length);
    frames.forEach((f, i) => {
      expect(f.index).toBe(i);
      expect(f.title).toBe(trace.steps[i]!.narration.title);
      expect(f.body).toBe(trace.steps[i]!.narration.body);
      expect(f.label.startsWith(`Step ${i + 1} of ${trace.steps.length} · `)).toBe(true);
    });
    expect(frames[0]!.label).toContain('request →');
    expect(frames.some((f) => f.label.endsWith('reply ←'))).toBe(true);
  });

  it('labels the view before the first step', () => {
    expect(frameAt(trace, -1)).toMatchObject({
      index: -1,
      label: `Before the first step · ${trace.steps.length} steps`,
      title: 'Before the first packet',
    });
  });
});

describe('exportFileName', () => {
  it('names single frames by step (1-based) and the PNG by its device pixels', () => {
    expect(exportFileName('svg', { policy: 'Cluster', steps: 13, step: 1 })).toBe(
      'lb-datapath-cluster-step-2-of-13.svg',
    );
    expect(exportFileName('svg', { policy: 'Local', steps: 9, step: -1 })).toBe(
      'lb-datapath-local-step-start-of-9.svg',
    );
    expect(
      exportFileName('png', {
        policy: 'Cluster',
        steps: 13,
        step: 12,
        pixels: { width: 1800, height: 1240 },
      }),
    ).toBe('lb-datapath-cluster-step-13-of-13-1800x1240@2x.png');
  });

  it('names animations by step count and the handout by policy', () => {
    expect(exportFileName('gif', { policy: 'Cluster', steps: 13 })).toBe(
      'lb-datapath-cluster-13-steps.gif',
    );
    expect(exportFileName('webm', { policy: 'Local', steps: 1 })).toBe(
      'lb-datapath-local-1-step.webm',
    );
    expect(exportFileName('handout', { policy: 'Local', steps: 7 })).toBe(
      'lb-datapath-local-handout.html',
    );
  });
});

describe('formatBytes', () => {
  it('uses the units browsers show (1 KB = 1,000 B)', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(48_300)).toBe('48.3 KB');
    expect(formatBytes(2_410_000)).toBe('2.41 MB');
  });
});

describe('storyFrameSpec', () => {
  it('captions a story step with its own words and both positions', () => {
    const words = { title: '4. The load balancer picks a node', body: 'It picks one.' };
    const reply = trace.steps.findIndex((s) => s.direction === 'reply');
    expect(storyFrameSpec(words, 3, 5, trace, 1)).toEqual({
      index: 1,
      label: `Story step 4 of 5 · trace step 2 of ${trace.steps.length}, request →`,
      ...words,
    });
    expect(storyFrameSpec(words, 3, 5, trace, reply).label).toBe(
      `Story step 4 of 5 · trace step ${reply + 1} of ${trace.steps.length}, reply ←`,
    );
    expect(storyFrameSpec(words, 0, 5, trace, -1)).toMatchObject({
      index: -1,
      label: 'Story step 1 of 5 · before the first packet',
    });
  });
});

describe('exportFileName: MP4 and the walkthrough', () => {
  it('names the trace MP4 like the WebM and the walkthrough by its story steps', () => {
    expect(exportFileName('mp4', { policy: 'Local', steps: 9 })).toBe(
      'lb-datapath-local-9-steps.mp4',
    );
    const story = { policy: 'Cluster', steps: 5, source: 'story' as const };
    expect(exportFileName('gif', story)).toBe('lb-datapath-walkthrough-5-story-steps.gif');
    expect(exportFileName('webm', story)).toBe('lb-datapath-walkthrough-5-story-steps.webm');
    expect(exportFileName('mp4', story)).toBe('lb-datapath-walkthrough-5-story-steps.mp4');
    expect(exportFileName('handout', story)).toBe('lb-datapath-walkthrough-handout.html');
    expect(exportFileName('gif', { ...story, steps: 1 })).toBe(
      'lb-datapath-walkthrough-1-story-step.gif',
    );
    // A single frame is the frame on screen, whatever the animation's source.
    expect(exportFileName('svg', { ...story, steps: 13, step: 2 })).toBe(
      'lb-datapath-cluster-step-3-of-13.svg',
    );
  });
});
