import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../../model';
import { exportFileName, formatBytes, frameAt, frameList } from './naming';

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
