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
    'df0266dd0f37554a5191a1479823c4081025abf943cf9144b425134ab1d8fd5d',
  ],
  [
    '10 nodes / 1,000 endpoints, Local policy, seed 3',
    10,
    1000,
    undefined,
    { externalTrafficPolicy: 'Local', seed: 3 },
    'e99b9d63fe26b4e0fc5cbd035e4af87751351f930943aa162b8f99e5c0f4396e',
  ],
  [
    '10 nodes / 1,000 endpoints, node-1 and node-2 failed',
    10,
    1000,
    undefined,
    { failedNodes: ['node-1', 'node-2'], seed: 9 },
    'cd39b7376c544a39526c0260e0815446cf1f998b74fcfe3f993fca37aa56c47e',
  ],
  [
    '100 nodes / 1,000 endpoints, Cluster policy',
    100,
    1000,
    undefined,
    {},
    '9c81a6339a0af610271df7283f45d4c1119648480f199df4a8dfc6fc836ac8be',
  ],
  [
    '100 nodes / 1,000 endpoints, pinned node-2 and endpoint',
    100,
    1000,
    undefined,
    { choices: { lbTarget: 'node-2', endpoint: '10.244.1.2:8080' } },
    '0e55b593ce1d6d2376c9c4744b0e33e67a1499af3a92c50608338282bed4ebf7',
  ],
  [
    '100 nodes / 1,000 endpoints, nftables',
    100,
    1000,
    undefined,
    { proxyMode: 'nftables', seed: 6 },
    'b94de7ac70c1140b3fb009db222257316230232db5a466d4d225ab20e115cd3a',
  ],
  [
    '100 nodes / 1,000 endpoints, IPVS',
    100,
    1000,
    undefined,
    { proxyMode: 'ipvs', seed: 8 },
    '4700b3afcedb49dd19e3d6a11ca32c1a357c84e7a5d907540d90214dc0a69517',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy via node-2',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', choices: { lbTarget: 'node-2' } },
    '8c6cae494ec3965fb1d29d4a03b146bcb41c118b1f4e9c4ef8275f1a7cd0b4ee',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy, seed 3 (a node without endpoints)',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', seed: 3 },
    'fbae0dd674c7223237c86fd5548e9f2668843f7aeef249ad94ff0402a861dbd0',
  ],
  [
    '40 nodes / 120 endpoints on 5, ipMode Proxy',
    40,
    120,
    5,
    { ipMode: 'Proxy', seed: 2 },
    '99eae668ed25e4d34ffa6d0355d8bb43c0806f1034e3bc8cf24782241bc2f09b',
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
    'cd1d225167c90e6ce17392188cb4488e66c664ae441c83f3919e17940e8b3bcc',
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
