/**
 * The EndpointSlice and kube-proxy's sync. Facts: the EndpointSlice controller derives an
 * endpoint's conditions from its Pod (utils.go `podToEndpoint`: ready = podReady &&
 * !terminating, serving = podReady, terminating = deletionTimestamp set); kube-proxy applies a
 * change `endpointPropagationMs` later (the model's setting, DESIGN.md), and changes that reach
 * it in the same millisecond are one sync (its sync loop runs once for a batch of changes).
 */
import { describe, expect, it } from 'vitest';
import { ACTION_HANDLERS } from './handlers';
import { endpointsChanged } from './kubeProxySync';
import { nodeOf } from './state';
import type { Sim } from './state';
import { testSim } from './testSim';

const pod = (sim: Sim, name: string) => {
  const p = [...sim.pods.values()].find((x) => x.name === name);
  if (!p) throw new Error(`no Pod ${name}`);
  return p;
};

describe('endpointsChanged', () => {
  it('records what changed and schedules one sync endpointPropagationMs later', () => {
    const sim = testSim({ controlPlane: { endpointPropagationMs: 1000 } });
    pod(sim, 'web-6d8f9c7b5-x2k4p').ready = false;
    endpointsChanged(sim, 5000);
    expect(sim.entries.map((e) => [e.at, e.kind, e.message])).toEqual([
      [
        5000,
        'endpoints',
        'EndpointSlice of default/web: 10.244.1.5 now ready:false serving:false terminating:false.',
      ],
    ]);
    expect(sim.agenda.size).toBe(1);
    expect(sim.agenda.peekTime()).toBe(6000);
  });

  it('batches two changes in the same millisecond into one sync carrying the last endpoints', () => {
    const sim = testSim({ controlPlane: { endpointPropagationMs: 1000 } });
    pod(sim, 'web-6d8f9c7b5-x2k4p').ready = false;
    endpointsChanged(sim, 5000);
    const other = pod(sim, 'web-6d8f9c7b5-q7m9z');
    other.phase = 'Terminating';
    endpointsChanged(sim, 5000);
    expect(sim.entries).toHaveLength(2);
    expect(sim.agenda.size).toBe(1);
    const { t, value } = sim.agenda.pop();
    expect(t).toBe(6000);
    expect(
      value.kind === 'sync' &&
        value.endpoints.map((e) => [e.ip, e.ready, e.serving, e.terminating]),
    ).toEqual([
      ['10.244.3.9', false, true, true],
      ['10.244.1.5', false, false, false],
    ]);
  });

  it('writes nothing and schedules nothing when the endpoints are the same', () => {
    const sim = testSim();
    endpointsChanged(sim, 5000);
    expect([sim.entries.length, sim.agenda.size]).toEqual([0, 0]);
  });
});

describe('kube-proxy sync', () => {
  it('programs the endpoints on every node that is up and says which are ready', () => {
    const sim = testSim({ controlPlane: { endpointPropagationMs: 1000 } });
    nodeOf(sim, 'node-2').up = false;
    pod(sim, 'web-6d8f9c7b5-x2k4p').ready = false;
    endpointsChanged(sim, 5000);
    const { t, value } = sim.agenda.pop();
    if (value.kind !== 'sync') throw new Error(value.kind);
    ACTION_HANDLERS.sync(sim, value, t);
    expect(sim.kp.endpoints).toBe(sim.apiEndpoints);
    expect(['node-1', 'node-2', 'node-3'].map((n) => nodeOf(sim, n).lastSync)).toEqual([
      6000, 0, 6000,
    ]);
    expect(sim.entries.at(-1)?.message).toBe(
      'kube-proxy on every node rewrites its rules: ready endpoints 10.244.3.9. Open connections keep their conntrack entries.',
    );
    // The same endpoints again: nothing to rewrite.
    ACTION_HANDLERS.sync(sim, { ...value }, 7000);
    expect(sim.entries).toHaveLength(2);
  });
});
