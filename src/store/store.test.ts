import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH, storyStepIndex } from '../model';
import {
  commandForKey,
  faster,
  first,
  goToStory,
  last,
  next,
  nextStory,
  pinChoice,
  playPause,
  prev,
  prevStory,
  reroll,
  run,
  setClient,
  setDial,
  setProxyMode,
  slower,
  toggleIpMode,
  toggleNodeFailure,
  togglePolicy,
  unpinChoice,
} from './commands';
import { nextStepIndex } from './scenarioSlice';
import { selectAtEnd, selectCluster, selectStep, selectStepCount, selectTrace } from './selectors';
import { createAppStore } from './store';
import type { AppStore } from './types';

/** A tiny driver: run commands, read the step. */
function driver(store: AppStore = createAppStore()) {
  return {
    store,
    do: (...commands: Parameters<typeof run>[1][]) => {
      for (const c of commands) run(store, c);
      return store.getState();
    },
    index: () => store.getState().playback.stepIndex,
    count: () => selectStepCount(store.getState()),
    trace: () => selectTrace(store.getState()),
    step: () => selectStep(store.getState()),
  };
}

describe('createAppStore', () => {
  it('starts on the canonical scenario with the default scene, before the first step', () => {
    const s = createAppStore().getState();
    expect(s.scene).toBe(DEFAULT_SCENE);
    expect(s.playback).toEqual({ stepIndex: -1, playing: false, speed: 1 });
    expect(s.ui.selectedNode).toBe('node-1');
    expect(s.ui.walkthroughStep).toBeNull();
    expect(selectCluster(s)?.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('gives each caller a fresh store', () => {
    const a = createAppStore();
    const b = createAppStore();
    run(a, next);
    expect(a.getState().playback.stepIndex).toBe(0);
    expect(b.getState().playback.stepIndex).toBe(-1);
  });

  it('can open on a walkthrough step', () => {
    const s = createAppStore({ story: 0 }).getState();
    expect(s.ui.walkthroughStep).toBe(0);
    expect(s.scene).toEqual({ ...DEFAULT_SCENE, ...DEFAULT_WALKTHROUGH.steps[0]!.scene });
  });
});

describe('the trace is derived, not stored', () => {
  it('is memoised on the (objects, scene) references', () => {
    const d = driver();
    const t1 = d.trace();
    d.do(next, next);
    expect(d.trace()).toBe(t1);
    expect(Object.keys(d.store.getState())).not.toContain('trace');
  });

  it('re-derives when the policy toggles, with the values the model computes', () => {
    const d = driver();
    const before = d.trace();
    const cluster = before.outcome;
    expect(cluster).toMatchObject({ kind: 'delivered', snat: true, clientIPPreserved: false });
    d.do(togglePolicy);
    expect(d.store.getState().scene.externalTrafficPolicy).toBe('Local');
    const local = d.trace();
    expect(local).not.toBe(before);
    expect(local.outcome).toMatchObject({
      kind: 'delivered',
      snat: false,
      clientIPPreserved: true,
    });
    if (local.outcome.kind === 'delivered')
      expect(local.outcome.sourceIPSeenByPod).toBe('198.51.100.23');
    d.do(togglePolicy);
    expect(d.trace().outcome).toEqual(cluster);
  });

  it('re-derives when ipMode toggles', () => {
    const d = driver();
    const vip = d.trace();
    d.do(toggleIpMode);
    expect(d.store.getState().scene.ipMode).toBe('Proxy');
    expect(d.trace()).not.toBe(vip);
  });
});

describe('playback commands', () => {
  it('next / prev / first / last move the step and stay in range', () => {
    const d = driver();
    const n = d.count();
    expect(n).toBeGreaterThan(3);
    expect(prev.enabled(d.store)).toBe(false);
    d.do(next, next, next);
    expect(d.index()).toBe(2);
    d.do(prev);
    expect(d.index()).toBe(1);
    d.do(last);
    expect(d.index()).toBe(n - 1);
    expect(selectAtEnd(d.store.getState())).toBe(true);
    expect(next.enabled(d.store)).toBe(false);
    expect(run(d.store, next)).toBe(false);
    expect(d.index()).toBe(n - 1);
    d.do(first);
    expect(d.index()).toBe(-1);
  });

  it('stepping pauses playback', () => {
    const d = driver();
    d.do(playPause);
    expect(d.store.getState().playback.playing).toBe(true);
    d.do(next);
    expect(d.store.getState().playback.playing).toBe(false);
  });

  it('play at the end starts again from before the first step', () => {
    const d = driver();
    d.do(last, playPause);
    expect(d.store.getState().playback).toMatchObject({ stepIndex: -1, playing: true });
    d.do(playPause);
    expect(d.store.getState().playback.playing).toBe(false);
  });

  it('faster / slower walk the speed list and stop at its ends', () => {
    const d = driver();
    d.do(faster, faster, faster);
    expect(d.store.getState().playback.speed).toBe(4);
    expect(faster.enabled(d.store)).toBe(false);
    d.do(slower, slower, slower, slower, slower);
    expect(d.store.getState().playback.speed).toBe(0.25);
    expect(slower.enabled(d.store)).toBe(false);
  });

  it('a kube-proxy step selects its node for the Rules panel', () => {
    const d = driver();
    let i = 0;
    while (d.step()?.rule?.kind !== 'kube-proxy' && i++ < d.count()) d.do(next);
    const rule = d.step()?.rule;
    expect(rule?.kind).toBe('kube-proxy');
    if (rule?.kind === 'kube-proxy') expect(d.store.getState().ui.selectedNode).toBe(rule.node);
  });

  it('maps keys to commands', () => {
    expect(commandForKey(' ')).toBe(playPause);
    expect(commandForKey('ArrowRight')).toBe(next);
    expect(commandForKey('ArrowLeft')).toBe(prev);
    expect(commandForKey('Home')).toBe(first);
    expect(commandForKey('End')).toBe(last);
    expect(commandForKey('x')).toBeUndefined();
  });
});

describe('scene commands', () => {
  it('a toggle mid-trace goes back before the first step; at the end it stays at the end', () => {
    const d = driver();
    d.do(next, next);
    d.do(togglePolicy);
    expect(d.index()).toBe(-1);
    d.do(last, togglePolicy);
    expect(d.index()).toBe(d.count() - 1);
  });

  it('nextStepIndex: the three policies', () => {
    expect(nextStepIndex('reset', 5, 10, 12)).toBe(-1);
    expect(nextStepIndex('clamp', 5, 10, 3)).toBe(2);
    expect(nextStepIndex('clamp', 5, 10, 12)).toBe(5);
    expect(nextStepIndex('ends', 9, 10, 12)).toBe(11);
    expect(nextStepIndex('ends', 4, 10, 12)).toBe(-1);
    expect(nextStepIndex('ends', -1, 10, 12)).toBe(-1);
    expect(nextStepIndex('ends', -1, 0, 12)).toBe(-1);
  });

  it('fails and restores a node', () => {
    const d = driver();
    d.do(toggleNodeFailure('node-3'));
    expect(d.store.getState().scene.failedNodes).toEqual(['node-3']);
    expect(selectCluster(d.store.getState())?.nodes.find((n) => n.name === 'node-3')?.ready).toBe(
      false,
    );
    d.do(toggleNodeFailure('node-3'));
    expect(d.store.getState().scene.failedNodes).toEqual([]);
    expect(toggleNodeFailure('node-9').enabled(d.store)).toBe(false);
  });

  it('ClusterIP can only be dialled from inside the cluster', () => {
    const d = driver();
    expect(setDial({ kind: 'ClusterIP' }).enabled(d.store)).toBe(false);
    d.do(setClient('pod'), setDial({ kind: 'ClusterIP' }));
    expect(d.store.getState().scene.dial).toEqual({ kind: 'ClusterIP' });
    d.do(setClient('internet'));
    expect(d.store.getState().scene.dial).toEqual({ kind: 'LoadBalancer' });
  });

  it('pinning a choice keeps the current step and the chosen candidate follows the pin', () => {
    const d = driver();
    while (d.step()?.decision?.kind !== 'lb-target') d.do(next);
    const at = d.index();
    const other = d
      .step()!
      .decision!.candidates.find((c) => c.eligible && c.id !== d.step()!.decision!.chosen)!;
    d.do(pinChoice('lbTarget', other.id));
    expect(d.index()).toBe(at);
    expect(d.step()?.decision).toMatchObject({ chosen: other.id, pinned: true });
    d.do(unpinChoice('lbTarget'));
    expect(d.store.getState().scene.choices).toEqual({});
    expect(d.index()).toBe(at);
  });

  it('re-roll draws a new seed, drops the pins and stays on the step', () => {
    const d = driver();
    d.do(next, next, pinChoice('endpoint', '10.244.1.5:8080'));
    d.do(reroll);
    expect(d.store.getState().scene.seed).toBe(DEFAULT_SCENE.seed + 1);
    expect(d.store.getState().scene.choices).toEqual({});
    expect(d.index()).toBe(1);
  });
});

describe('walkthrough commands', () => {
  it('opening a story step applies its scene over DEFAULT_SCENE and jumps to its trace step', () => {
    const d = driver();
    DEFAULT_WALKTHROUGH.steps.forEach((story, i) => {
      d.do(goToStory(i));
      const s = d.store.getState();
      expect(s.scene).toEqual({ ...DEFAULT_SCENE, ...story.scene });
      expect(s.ui.walkthroughStep).toBe(i);
      expect(d.index()).toBe(storyStepIndex(d.trace(), story));
    });
  });

  it('next / previous story step, and a manual toggle lets go of the story', () => {
    const d = driver(createAppStore({ story: 0 }));
    expect(prevStory.enabled(d.store)).toBe(false);
    d.do(nextStory, nextStory);
    expect(d.store.getState().ui.walkthroughStep).toBe(2);
    d.do(prevStory);
    expect(d.store.getState().ui.walkthroughStep).toBe(1);
    d.do(togglePolicy);
    expect(d.store.getState().ui.walkthroughStep).toBeNull();
  });
});

describe('kube-proxy mode switch', () => {
  it('keeps the step and the story, and the story keeps the mode', () => {
    const d = driver(createAppStore({ story: 4 }));
    const at = d.index();
    const before = d.step()?.rule;
    expect(before?.kind === 'kube-proxy' ? before.mode : undefined).toBe('iptables');
    d.do(setProxyMode('nftables'));
    expect(d.index()).toBe(at);
    expect(d.store.getState().ui.walkthroughStep).toBe(4);
    const rule = d.step()?.rule;
    expect(rule?.kind === 'kube-proxy' ? rule.mode : undefined).toBe('nftables');
    d.do(goToStory(1));
    expect(d.store.getState().scene.proxyMode).toBe('nftables');
  });
});
