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
    '50569c3b023cc637fb08993ad865991d432da718871b63b1680b14bc733b4b68',
  ],
  [
    '10 nodes / 1,000 endpoints, Local policy, seed 3',
    10,
    1000,
    undefined,
    { externalTrafficPolicy: 'Local', seed: 3 },
    'c87e29d98366eaefc8c1965587ba1540626dda2405b890a0d48e4a1ad76fb3f8',
  ],
  [
    '10 nodes / 1,000 endpoints, node-1 and node-2 failed',
    10,
    1000,
    undefined,
    { failedNodes: ['node-1', 'node-2'], seed: 9 },
    '5c58257d2eb8a966ef01cccf26c2e637d4ecf903eebafa0043917a5992c7416a',
  ],
  [
    '100 nodes / 1,000 endpoints, Cluster policy',
    100,
    1000,
    undefined,
    {},
    '60de860a6bcb7baf306dc78bb0891287584c4fe2e801ccddc03587b8e8106602',
  ],
  [
    '100 nodes / 1,000 endpoints, pinned node-2 and endpoint',
    100,
    1000,
    undefined,
    { choices: { lbTarget: 'node-2', endpoint: '10.244.1.2:8080' } },
    '24a3f95feabd9e6c7785f36fa827ad2a3794545df6913176b01231134b8e17ba',
  ],
  [
    '100 nodes / 1,000 endpoints, nftables',
    100,
    1000,
    undefined,
    { proxyMode: 'nftables', seed: 6 },
    'bd4026e74b59c2122c44598ccce17afda7ccbc7860450459441c84aa92ba4bd2',
  ],
  [
    '100 nodes / 1,000 endpoints, IPVS',
    100,
    1000,
    undefined,
    { proxyMode: 'ipvs', seed: 8 },
    '6a1aff908f0fe4a01ae50c96deda2b21eff39159db06152c29c02d0493a8744f',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy via node-2',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', choices: { lbTarget: 'node-2' } },
    '8fa1e948894cd4aa1ffa4ef742510440dcddcd59d338ea38ca0f5549ab85c2ca',
  ],
  [
    '40 nodes / 120 endpoints on 5, Local policy, seed 3 (a node without endpoints)',
    40,
    120,
    5,
    { externalTrafficPolicy: 'Local', seed: 3 },
    '2866c55bf9b5741ae8344e3aa0fad47f304645d6b1d30f762962b1d3281b1f83',
  ],
  [
    '40 nodes / 120 endpoints on 5, ipMode Proxy',
    40,
    120,
    5,
    { ipMode: 'Proxy', seed: 2 },
    'e5016bdec1653ce375ad4d83806e65bc551479c633f7e43892c58e9933f33b0c',
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
    'd6695b3b8e8090dc96a5a357c3b282d3b49ec170b797c71e093404c6d91ae9c4',
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
