import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/store';
import { selectStepCount } from '../store/selectors';
import { applyHostMessage } from './protocol';

/** The default view (the walkthrough's first step), in-process. */
const fresh = () => createAppStore({ story: 0 });

describe('the embed’s postMessage commands', () => {
  it('goTo numbers steps as the player’s buttons: 0 before the first, N the Nth', () => {
    const store = fresh();
    const steps = selectStepCount(store.getState());
    expect(steps).toBe(13);
    expect(applyHostMessage(store, { type: 'lb-datapath:goTo', step: 5 })).toBeNull();
    expect(store.getState().playback.stepIndex).toBe(4);
    applyHostMessage(store, { type: 'lb-datapath:goTo', step: 0 });
    expect(store.getState().playback.stepIndex).toBe(-1);
    applyHostMessage(store, { type: 'lb-datapath:goTo', step: 99 });
    expect(store.getState().playback.stepIndex).toBe(steps - 1);
    expect(applyHostMessage(store, { type: 'lb-datapath:goTo', step: 1.5 })).toBe(
      'lb-datapath:goTo: step must be a whole number from 0 (got 1.5)',
    );
  });

  it('play and pause', () => {
    const store = fresh();
    applyHostMessage(store, { type: 'lb-datapath:play' });
    expect(store.getState().playback.playing).toBe(true);
    applyHostMessage(store, { type: 'lb-datapath:pause' });
    expect(store.getState().playback.playing).toBe(false);
  });

  it('set changes the scene through the same commands as the toggles', () => {
    const store = fresh();
    expect(
      applyHostMessage(store, {
        type: 'lb-datapath:set',
        toggle: 'externalTrafficPolicy',
        value: 'Local',
      }),
    ).toBeNull();
    expect(store.getState().scene.externalTrafficPolicy).toBe('Local');
    applyHostMessage(store, { type: 'lb-datapath:set', toggle: 'ipMode', value: 'Proxy' });
    expect(store.getState().scene.ipMode).toBe('Proxy');
    applyHostMessage(store, { type: 'lb-datapath:set', toggle: 'proxyMode', value: 'nftables' });
    expect(store.getState().scene.proxyMode).toBe('nftables');
    applyHostMessage(store, {
      type: 'lb-datapath:set',
      toggle: 'nodeFailed',
      node: 'node-1',
      value: true,
    });
    expect(store.getState().scene.failedNodes).toEqual(['node-1']);
    // Setting what already holds changes nothing (it is not a toggle).
    applyHostMessage(store, {
      type: 'lb-datapath:set',
      toggle: 'nodeFailed',
      node: 'node-1',
      value: true,
    });
    expect(store.getState().scene.failedNodes).toEqual(['node-1']);
  });

  it('refusals name the field and what it takes', () => {
    const store = fresh();
    expect(
      applyHostMessage(store, { type: 'lb-datapath:set', toggle: 'ipMode', value: 'vip' }),
    ).toBe('lb-datapath:set: value for ipMode must be VIP or Proxy (got "vip")');
    expect(
      applyHostMessage(store, {
        type: 'lb-datapath:set',
        toggle: 'nodeFailed',
        node: 'node-9',
        value: true,
      }),
    ).toBe(
      'lb-datapath:set: node must be one of the cluster\'s nodes (node-1, node-2, node-3; got "node-9")',
    );
    expect(applyHostMessage(store, { type: 'lb-datapath:set', toggle: 'speed', value: 2 })).toBe(
      'lb-datapath:set: toggle must be one of externalTrafficPolicy, ipMode, proxyMode, published, nodeFailed (got "speed")',
    );
    expect(applyHostMessage(store, { type: 'lb-datapath:jump' })).toBe(
      'lb-datapath:jump is not a command (goTo, play, pause, set)',
    );
  });

  it('ignores messages that are not its own (other scripts on the host post messages too)', () => {
    const store = fresh();
    for (const m of [null, 'hello', { type: 'resize' }, { type: 42 }, ['lb-datapath:play']])
      expect(applyHostMessage(store, m)).toBeNull();
    expect(store.getState().playback.playing).toBe(false);
  });
});
