/**
 * Every step of the default walkthrough, in each kube-proxy mode: the trace step it shows
 * exists, and when that step is kube-proxy's, its rule is a line of that node's rules in
 * that mode (the rules view and the animation cannot disagree).
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalObjects,
  DEFAULT_SCENE,
  DEFAULT_WALKTHROUGH,
  runScene,
  storyStepIndex,
} from '../index';

describe.each(['iptables', 'nftables', 'ipvs'] as const)('%s', (proxyMode) => {
  it.each(DEFAULT_WALKTHROUGH.steps.map((s, i) => [i + 1, s] as const))(
    'story step %i',
    (_n, story) => {
      const r = runScene(canonicalObjects(), { ...DEFAULT_SCENE, ...story.scene, proxyMode });
      const i = storyStepIndex(r.trace, story);
      if (story.show.at === 'start') {
        expect(i).toBe(-1);
        return;
      }
      expect(i).toBeGreaterThanOrEqual(0);
      for (const step of r.trace.steps) {
        if (step.rule?.kind !== 'kube-proxy') continue;
        expect(step.rule.mode).toBe(proxyMode);
        const lines = r.rules[step.rule.node]?.lines ?? [];
        const line = lines.find((l) => l.ruleId === step.rule?.['ruleId' as never]);
        expect(line, `${step.rule.ruleId} on ${step.rule.node}`).toBeDefined();
        expect(line?.text.trim()).toBe(step.rule.text.trim());
        for (const hit of step.rule.trail)
          expect(
            lines.some((l) => l.ruleId === hit.ruleId),
            `trail ${hit.ruleId}`,
          ).toBe(true);
      }
    },
  );
});
