import { describe, expect, it } from 'vitest';
import { canonicalObjects, storyStepIndex } from '../../model';
import { createAppStore, selectStory, selectTrace, storyStepScene } from '../../store';
import type { ApplicableStep } from '../../model/walkthrough/bind';
import { storyFrames, storyPlan } from './storyFrames';

describe('storyFrames', () => {
  it('gives one frame per story step: its scene, its trace step and its words', async () => {
    const live = createAppStore();
    const before = live.getState();
    const messages: string[] = [];
    const w = selectStory(before);
    const r = await storyFrames(live, (m) => messages.push(m));
    expect(r.title).toBe('From NodePort to LoadBalancer, in five steps');
    expect(r.total).toBe(w.steps.length);
    expect(r.frames).toHaveLength(w.steps.length);
    expect(w.steps.length).toBe(5);
    r.frames.forEach((f, i) => {
      const step = w.steps[i] as ApplicableStep;
      const trace = selectTrace(f.state);
      const index = storyStepIndex(trace, step);
      expect(f.state.ui.walkthroughStep).toBe(i);
      expect(f.state.scene).toEqual(storyStepScene(before, step));
      expect(f.state.playback.stepIndex).toBe(index);
      expect(f.spec.index).toBe(index);
      expect(f.spec.title).toBe(step.title);
      expect(f.spec.body).toBe(step.body);
      expect(f.spec.label.startsWith(`Story step ${i + 1} of 5 · `)).toBe(true);
    });
    // Steps 1 and 3 show their scene before the first packet; the others a step of their trace.
    expect(r.frames[0]!.spec.label).toBe('Story step 1 of 5 · before the first packet');
    expect(r.frames.map((f) => f.spec.index >= 0)).toEqual([false, true, false, true, true]);
    expect(r.frames[3]!.spec.label).toMatch(
      /^Story step 4 of 5 · trace step \d+ of \d+, request →$/,
    );
    // Story 2 dials node-2's NodePort, story 5 comes through the load balancer: different traces.
    expect(r.frames[1]!.state.scene).not.toEqual(r.frames[4]!.state.scene);
    expect(messages[0]).toBe('Walkthrough: tracing story step 1 (1 of 5)…');
    // The view on screen is untouched.
    expect(live.getState()).toBe(before);
  });

  it('skips a story step the cluster cannot tell', async () => {
    // No address published yet (status.loadBalancer: {}): the balancer's steps 4 and 5 cannot
    // be shown, as on a bare-metal cluster without a load-balancer controller.
    const objects = canonicalObjects();
    for (const o of objects)
      if (o.kind === 'Service' && o.spec?.type === 'LoadBalancer')
        (o as { status?: unknown }).status = { loadBalancer: {} };
    const live = createAppStore({ objects });
    const w = selectStory(live.getState());
    const plan = storyPlan(w);
    expect(plan).toEqual([0, 1, 2]);
    const r = await storyFrames(live, () => {});
    expect(r.frames.map((f) => f.state.ui.walkthroughStep)).toEqual(plan);
    expect(r.total).toBe(5);
    expect(r.frames.map((f) => f.spec.label.slice(0, 20))).toEqual(
      plan.map((i) => `Story step ${i + 1} of 5 · `),
    );
  });
});
