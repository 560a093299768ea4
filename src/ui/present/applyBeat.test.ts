/**
 * applyBeat: a talk's beat put on the app's store as the tutorial's links put theirs — a scene
 * beat's scene and step, a time beat's inputs and clock — paused; a bad beat changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../store';
import type { TalkBeat } from '../../tutorial/talks';
import { applyBeat } from './applyBeat';

const beat = (
  kind: 'scene' | 'time',
  query: string,
  steps: TalkBeat['steps'] = null,
): TalkBeat => ({
  title: 'B',
  show: { kind, query },
  caption: 'C.',
  notes: '',
  steps,
  line: 1,
});

describe('applyBeat', () => {
  it('opens a scene beat on its scene and step, paused, in the trace view', async () => {
    const store = createAppStore();
    store.getState().setPlaying(true);
    expect(await applyBeat(store, beat('scene', 'policy=Local&lbTarget=node-1&step=7'))).toEqual({
      ok: true,
    });
    const s = store.getState();
    expect(s.scene.externalTrafficPolicy).toBe('Local');
    expect(s.scene.choices.lbTarget).toBe('node-1');
    expect(s.playback.stepIndex).toBe(6);
    expect(s.playback.playing).toBe(false);
    expect(s.time.view).toBe('trace');
  });

  it('opens story step N with its walkthrough step', async () => {
    const store = createAppStore();
    expect(await applyBeat(store, beat('scene', 'story=4'))).toEqual({ ok: true });
    expect(store.getState().ui.walkthroughStep).toBe(3);
    expect(store.getState().playback.stepIndex).toBe(1);
  });

  it('opens a time beat in the Time & failures view with its events and clock, paused', async () => {
    const store = createAppStore();
    const r = await applyBeat(
      store,
      beat('time', 'policy=Local&events=fail:node-1@60s&interval=3&at=85s'),
    );
    expect(r).toEqual({ ok: true });
    const { time, scene } = store.getState();
    expect(time.view).toBe('time');
    expect(time.playing).toBe(false);
    expect(time.simMs).toBe(85_000);
    expect(time.events).toEqual([{ kind: 'fail-node', node: 'node-1', at: 60_000 }]);
    expect(time.healthCheck).toEqual({ intervalSeconds: 3 });
    expect(scene.externalTrafficPolicy).toBe('Local');
    // A scene beat afterwards leaves the time view.
    expect(await applyBeat(store, beat('scene', 'step=2'))).toEqual({ ok: true });
    expect(store.getState().time.view).toBe('trace');
  });

  it('picks one step of an unexpanded steps: beat', async () => {
    const store = createAppStore();
    const walk = beat('scene', 'story=2', { from: 5, to: 9 });
    expect(await applyBeat(store, walk, 2)).toEqual({ ok: true });
    expect(store.getState().playback.stepIndex).toBe(6);
    expect(await applyBeat(store, walk, 5)).toEqual({
      ok: false,
      message: 'step 5 is not within steps 5-9',
    });
  });

  it('reports a beat that does not resolve and leaves the store as it was', async () => {
    const store = createAppStore();
    const before = store.getState().scene;
    expect(await applyBeat(store, beat('scene', 'failed=node-9'))).toEqual({
      ok: false,
      message: 'failed=node-9: no node "node-9" in the scenario (nodes: node-1, node-2, node-3)',
    });
    expect(await applyBeat(store, beat('time', 'at=1h'))).toEqual({
      ok: false,
      message: 'at=1h: beyond the end of the run (1m41s); use at most 1m41s',
    });
    expect(store.getState().scene).toBe(before);
  });

  it('lets the later of two calls win', async () => {
    const store = createAppStore();
    const first = applyBeat(store, beat('scene', 'policy=Local&step=2'));
    const second = applyBeat(store, beat('scene', 'step=3'));
    expect(await first).toEqual({ ok: false, message: 'superseded by a later beat' });
    expect(await second).toEqual({ ok: true });
    expect(store.getState().scene.externalTrafficPolicy).toBe('Cluster');
    expect(store.getState().playback.stepIndex).toBe(2);
  });
});
