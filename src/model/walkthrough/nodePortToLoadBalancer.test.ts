/**
 * The default walkthrough (the seed's five-step NodePort → LoadBalancer story) against the
 * model: every step resolves to a trace step, and what each step claims holds in the trace
 * the model produces for its scene. Facts: shared/seeds/004_83d1a20af1ffbd47.txt, checked
 * against kube-proxy (shared/reference/kube-proxy.md §1.3).
 */
import { describe, it, expect } from 'vitest';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH, storyStepIndex } from '../index';
import type { SceneOptions, StoryStep } from '../index';
import { CANON, TraceDriver, scene } from '../test/driver';

const S = 'default/web:http';

function sceneOf(step: StoryStep): SceneOptions {
  return { ...DEFAULT_SCENE, ...step.scene };
}

function traceOf(step: StoryStep) {
  const opts = sceneOf(step);
  return { opts, t: new TraceDriver(scene(opts).trace().trace, opts) };
}

function byId(id: string): StoryStep {
  const s = DEFAULT_WALKTHROUGH.steps.find((x) => x.id === id);
  if (!s) throw new Error(`no story step ${id}`);
  return s;
}

describe('DEFAULT_WALKTHROUGH', () => {
  it('has the five steps of the story, in order', () => {
    expect(DEFAULT_WALKTHROUGH.steps.map((s) => s.id)).toEqual([
      'nodeport-everywhere',
      'dial-node-2',
      'type-loadbalancer',
      'lb-picks-node',
      'node-1-dnat',
    ]);
  });

  for (const step of DEFAULT_WALKTHROUGH.steps)
    it(`${step.id}: resolves to a trace step (or -1 for 'start')`, () => {
      const { t } = traceOf(step);
      const i = storyStepIndex(t.trace, step);
      if (step.show.at === 'start') expect(i).toBe(-1);
      else {
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(t.steps.length);
        expect(t.step(i).at).toBe(step.show.at);
        if (step.show.transform) expect(t.step(i).transform).toBe(step.show.transform);
      }
    });

  it('step 1: every node has the KUBE-NODEPORTS rule for 31000, node-2 included', () => {
    const opts = sceneOf(byId('nodeport-everywhere'));
    for (const node of ['node-1', 'node-2', 'node-3'])
      expect(scene(opts).rules(node).chain('nat', 'KUBE-NODEPORTS')).toContain(
        `-A KUBE-NODEPORTS -p tcp -m comment --comment "${S}" -m tcp --dport 31000 -j ${CANON.chains.ext}`,
      );
  });

  it('step 2: node-2 DNATs to 10.244.3.9:8080, masquerades, and sends it to node-3', () => {
    const step = byId('dial-node-2');
    const { t } = traceOf(step);
    const shown = t.step(storyStepIndex(t.trace, step));
    expect(shown.at).toBe('node:node-2');
    expect(shown.transform).toBe('DNAT');
    expect(`${shown.after.dst}:${shown.after.dport}`).toBe('10.244.3.9:8080');
    const snat = t.at('node:node-2').find((s) => s.transform === 'SNAT');
    expect(snat?.after.src).toBe('192.168.0.12');
    expect(t.nodesVisited).toEqual(['node-2', 'node-3']);
    expect(t.expectDelivered()).toMatchObject({
      podIP: '10.244.3.9',
      snat: true,
      crossedNodes: true,
    });
    const d = t.decisions('endpoint')[0];
    expect(d?.chosen).toBe('10.244.3.9:8080');
  });

  it('step 3: no address yet (EXTERNAL-IP <pending>)', () => {
    const { t } = traceOf(byId('type-loadbalancer'));
    t.expectOutcome('no-address');
  });

  it('step 4: the balancer sends the connection to node-1:31000', () => {
    const step = byId('lb-picks-node');
    const { t } = traceOf(step);
    const shown = t.step(storyStepIndex(t.trace, step));
    expect(shown.at).toBe('lb');
    expect(shown.to).toBe('node:node-1');
    expect(`${shown.before.dst}:${shown.before.dport}`).toBe('203.0.113.7:80');
    expect(`${shown.after.dst}:${shown.after.dport}`).toBe('192.168.0.11:31000');
    expect(shown.after.src).toBe('198.51.100.23');
    expect(shown.decision?.chosen).toBe('node-1');
  });

  it('step 4 (the alternative it names): a destination-keeping balancer is caught by the loadbalancer IP rule', () => {
    const opts = { ...sceneOf(byId('lb-picks-node')), delivery: 'LoadBalancerIP' as const };
    const t = scene(opts).trace();
    const first = t.firstAt('node:node-1');
    expect(`${first?.before.dst}:${first?.before.dport}`).toBe('203.0.113.7:80');
    expect(first?.rule?.text).toBe(
      `-A KUBE-SERVICES -d 203.0.113.7/32 -p tcp -m comment --comment "${S} loadbalancer IP" -m tcp --dport 80 -j ${CANON.chains.ext}`,
    );
  });

  it('step 5: node-1 DNATs to 10.244.1.5:8080; the decision offered 10.244.3.9:8080 at 0.5', () => {
    const step = byId('node-1-dnat');
    const { t } = traceOf(step);
    const i = storyStepIndex(t.trace, step);
    const shown = t.step(i);
    expect(shown.at).toBe('node:node-1');
    expect(`${shown.after.dst}:${shown.after.dport}`).toBe('10.244.1.5:8080');
    expect(shown.rule?.text).toBe(
      `-A ${CANON.chains.sep1} -p tcp -m comment --comment "${S}" -m tcp -j DNAT --to-destination 10.244.1.5:8080`,
    );
    // The choice is made by the KUBE-SVC statistic rule just before the DNAT, on node-1.
    const d = t.steps
      .slice(0, i + 1)
      .filter((s) => s.at === 'node:node-1')
      .map((s) => s.decision)
      .find((x) => x?.kind === 'endpoint');
    expect(d?.chosen).toBe('10.244.1.5:8080');
    expect(d?.candidates.find((c) => c.id === '10.244.3.9:8080')).toMatchObject({
      probability: 0.5,
      eligible: true,
      nodeName: 'node-3',
    });
  });
});
