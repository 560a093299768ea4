/**
 * runScene's answers on generated clusters are exactly those of the implementation before the
 * speed-up (issue 11): each digest below is SHA-256 of the trace (steps, outcome, conntrack),
 * the balancer's targets and the full rules text of every node on the path, recorded with the
 * pre-speed-up model (commit 775d2af). A digest that changes means an answer changed.
 * The scene is the one an import of these clusters starts with (`DEFAULT_SCENE`) plus the toggles.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, runScene } from './index';
import type { SceneOptions } from './index';
import { generatedCluster } from './scenario/generated';
import { fillGaps } from './import/fill';

function digest(
  nodes: number,
  pods: number,
  spreadOver: number | undefined,
  over: Partial<SceneOptions>,
): string {
  const objects = fillGaps(
    generatedCluster({ nodes, pods, ...(spreadOver ? { spreadOver } : {}) }),
  ).objects;
  const r = runScene(objects, { ...DEFAULT_SCENE, ...over });
  const path = new Set<string>();
  for (const s of r.trace.steps)
    for (const p of [s.at, s.from, s.to]) if (p.startsWith('node:')) path.add(p.slice(5));
  const rules = [...path]
    .sort()
    .map((n) => [n, (r.rules[n]?.lines ?? []).map((l) => l.text).join('\n')]);
  return createHash('sha256')
    .update(JSON.stringify({ trace: r.trace, lbTargets: r.lbTargets, rules }))
    .digest('hex');
}

const CASES: [string, number, number, number | undefined, Partial<SceneOptions>, string][] = [
  [
    '10 nodes / 1,000 endpoints, Cluster policy',
    10,
    1000,
    undefined,
    {},
    'b69e88660c60cd8373d930e7e2922fb039bf14b05a91c7ee3eb99c6b7dc1fa27',
  ],
  [
    '10 nodes / 1,000 endpoints, Local policy, seed 3',
    10,
    1000,
    undefined,
    { externalTrafficPolicy: 'Local', seed: 3 },
    '6c994dfd3edcf6025729f43df57b420e16840821f1f0a99d926af54342d8a2d2',
  ],
  [
    '10 nodes / 1,000 endpoints, node-1 and node-2 failed',
    10,
    1000,
    undefined,
    { failedNodes: ['node-1', 'node-2'], seed: 9 },
    '182dc31a1892b9cabf38b33e9f327dea5f4398613bb0a3dff30181bebfc938b0',
  ],
  [
    '100 nodes / 1,000 endpoints, Cluster policy',
    100,
    1000,
    undefined,
    {},
    '6444fc732a5fbce9e4154b8240bcbc8205157ed2bb04b06a4dd70605ba486628',
  ],
  [
    '100 nodes / 1,000 endpoints, pinned node-2 and endpoint',
    100,
    1000,
    undefined,
    { choices: { lbTarget: 'node-2', endpoint: '10.244.1.2:8080' } },
    '2977306db3b410350e610b7ea76fc6246a8f3eca0532404a10e710b36621f0cd',
  ],
  [
    '100 nodes / 1,000 endpoints, nftables',
    100,
    1000,
    undefined,
    { proxyMode: 'nftables', seed: 6 },
    '694f2ac651891ce36d561ca0e5d02bfe027c44bfd9d7f4c12be07525db4a654e',
  ],
  [
    '100 nodes / 1,000 endpoints, IPVS',
    100,
    1000,
    undefined,
    { proxyMode: 'ipvs', seed: 8 },
    '1eadc73b6f7ae05e0d87d59d8666afdc0e9262b0dbd7adbb323bb02e9ae691d9',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy via node-2',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', choices: { lbTarget: 'node-2' } },
    '1481f3c294b93891fdfe5052aa9f516a3c3feb940635e8f74c722f342b48057e',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy, seed 3 (a node without endpoints)',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', seed: 3 },
    'd2862016befae6a6698fec03603b4bab7a84b978b59e7fca28b474b99bf7e568',
  ],
  [
    '40 nodes / 120 endpoints on 5, ipMode Proxy',
    40,
    120,
    5,
    { ipMode: 'Proxy', seed: 2 },
    '76477dfc7c10dd40f9a9be863a73e900790ba362b90908d0de8ad2707a302b6f',
  ],
  [
    '40 nodes / 120 endpoints on 5, NodePort on node-1',
    40,
    120,
    5,
    { dial: { kind: 'NodePort', nodeName: 'node-1' }, seed: 4 },
    '2644eae3a00eade0b127b5e5d9af6f2c175e9cc9940d4aae7bfb4a6e57664fc8',
  ],
  [
    '40 nodes / 120 endpoints on 5, node-2 down (not yet noticed)',
    40,
    120,
    5,
    { downNodes: ['node-2'], seed: 11 },
    '910a005f1a3ae7b06d58ee021e67880878bee2eab18ad20e039e8d1dc691834c',
  ],
];

describe('runScene gives the pre-speed-up answers', () => {
  it.each(CASES)(
    '%s',
    (_name, nodes, pods, spread, over, want) => {
      expect(digest(nodes, pods, spread, over)).toBe(want);
    },
    60_000,
  );
});
