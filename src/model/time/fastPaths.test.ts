/**
 * The fast path list ({@link fastPaths}: one trace per class of entry node and endpoint) is
 * the straightforward one ({@link computePaths}: every node × endpoint traced in full), on
 * generated clusters under both policies, every kube-proxy mode and delivery, with nodes down,
 * nodes out of rotation and Pods on a few nodes only; and a whole timeline's epochs carry the
 * straightforward paths of their moment.
 */
import { describe, expect, it } from 'vitest';
import { generatedCluster } from '../scenario/generated';
import { fillGaps } from '../import/fill';
import type { SceneOptions } from '../scenario/scene';
import { DEFAULT_SCENE } from '../scenario/scene';
import { computePaths, prepare } from './paths';
import { fastPaths, newPathMemo } from './fastPaths';
import { simulate, stateAt } from './timeline';

const objects = (nodes: number, pods: number, spreadOver?: number) =>
  fillGaps(generatedCluster({ nodes, pods, ...(spreadOver ? { spreadOver } : {}) })).objects;

const scene = (over: Partial<SceneOptions>): SceneOptions => ({
  ...DEFAULT_SCENE,
  client: 'internet',
  ...over,
});

describe('fastPaths equals computePaths', () => {
  const cases: [string, Partial<SceneOptions>][] = [
    ['Cluster', {}],
    ['Local', { externalTrafficPolicy: 'Local' }],
    ['Cluster, node-2 down', { downNodes: ['node-2'] }],
    ['Local, node-2 down', { externalTrafficPolicy: 'Local', downNodes: ['node-2'] }],
    ['Cluster, node-1 failed', { failedNodes: ['node-1'] }],
    ['Cluster, rotation node-2, node-4', { choices: { rotation: ['node-2', 'node-4'] } }],
    [
      'Local, node-3 down, rotation without node-1',
      {
        externalTrafficPolicy: 'Local',
        downNodes: ['node-3'],
        choices: { rotation: ['node-2', 'node-3', 'node-4', 'node-5'] },
      },
    ],
    ['ipvs', { proxyMode: 'ipvs' }],
    ['nftables, Local', { proxyMode: 'nftables', externalTrafficPolicy: 'Local' }],
    ['delivery LoadBalancerIP', { delivery: 'LoadBalancerIP' }],
    ['ipMode Proxy', { ipMode: 'Proxy' }],
    ['not published', { published: false }],
    ['empty rotation', { choices: { rotation: [] } }],
  ];
  for (const [name, over] of cases)
    for (const [nodes, pods, spread] of [
      [5, 20, undefined],
      [5, 7, 2],
    ] as const)
      it(`${name} (${nodes} nodes, ${pods} Pods${spread ? ` on ${spread}` : ''})`, () => {
        const objs = objects(nodes, pods, spread);
        const s = scene(over);
        const want = computePaths(prepare(objs, s), s, 'internet');
        const memo = newPathMemo();
        const got = fastPaths(prepare(objs, s), s, 'internet', memo);
        expect(got).toEqual(want);
        // The fast path ran: no fallback to tracing everything.
        if (want.some((x) => x.endpoint !== null)) {
          expect(memo.full).toBeUndefined();
          expect(memo.classes.size).toBeGreaterThan(0);
        }
        expect(want.length).toBeGreaterThan(0);
      });

  it('one memo serves every rotation of a prepared state', () => {
    const objs = objects(5, 20);
    const s = scene({ downNodes: ['node-2'] });
    const p = prepare(objs, s);
    const memo = newPathMemo();
    for (const rotation of [
      ['node-1', 'node-2', 'node-3', 'node-4', 'node-5'],
      ['node-1', 'node-3'],
      ['node-2'],
      ['node-4', 'node-5', 'node-2'],
    ]) {
      const r = { ...s, choices: { rotation } };
      expect(fastPaths(p, r, 'internet', memo)).toEqual(
        computePaths(prepare(objs, r), r, 'internet'),
      );
    }
  });
});

describe('a timeline with a failed node', () => {
  for (const policy of ['Cluster', 'Local'] as const)
    it(`every epoch's paths are computePaths of its moment (${policy})`, () => {
      const tl = simulate({
        objects: objects(5, 20),
        scene: scene({ externalTrafficPolicy: policy }),
        events: [
          { at: 12_000, kind: 'fail-node', node: 'node-1' },
          { at: 90_000, kind: 'restore-node', node: 'node-1' },
        ],
        workload: { count: 1000, startMs: 0, periodMs: 120_000, holdMs: 30_000 },
        horizonMs: 120_000,
      });
      expect(tl.epochs.length).toBeGreaterThan(3);
      for (const e of tl.epochs) {
        const snap = stateAt(tl, e.from);
        const s = { ...snap.scene, client: tl.base.scene.client };
        expect(e.paths).toEqual(computePaths(prepare(snap.objects, s), s, s.client));
      }
    });
});
