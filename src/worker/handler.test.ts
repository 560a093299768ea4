import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../model';
import type { SceneOptions } from '../model';
import { generatedCluster } from '../model/scenario/generated';
import { derivedOf } from './client';
import { ModelHandler, pathNodes, sceneReply } from './handler';
import { packRules, unpackRules } from './pack';
import type { ModeRuleset } from '../model/kube-proxy/types';

/** What the view reads of a ruleset (the walker's own tables stay in the worker). */
const listing = (rs: ModeRuleset | undefined) =>
  rs && { mode: rs.mode, nodeName: rs.nodeName, lines: rs.lines };

/** The worker's answer is runScene's, reshaped: the same cluster, trace, targets and rules. */
describe('the worker handler answers what runScene answers', () => {
  const cases: [string, ReturnType<typeof canonicalObjects>, SceneOptions][] = [
    ['canonical', canonicalObjects(), DEFAULT_SCENE],
    [
      'canonical, Local, nftables',
      canonicalObjects(),
      { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local', proxyMode: 'nftables' },
    ],
    ['canonical, ipvs', canonicalObjects(), { ...DEFAULT_SCENE, proxyMode: 'ipvs' }],
    ['generated 12 nodes / 60 Pods', generatedCluster({ nodes: 12, pods: 60 }), DEFAULT_SCENE],
  ];
  for (const [name, objects, scene] of cases)
    it(name, () => {
      const want = runScene(objects, scene);
      const h = new ModelHandler();
      h.handle({ type: 'objects', id: 1, objects: structuredClone(objects) });
      const node = want.cluster.nodes.at(-1)!.name;
      const reply = h.handle({ type: 'scene', req: 7, objects: 1, scene, nodes: [node] });
      expect(reply?.type).toBe('scene');
      if (reply?.type !== 'scene') return;
      const d = derivedOf(structuredClone(reply.reply));
      expect(d.ok).toBe(true);
      if (!d.ok) return;
      expect(d.result.cluster).toEqual(want.cluster);
      expect(d.result.trace).toEqual(want.trace);
      expect(d.result.serviceKey).toBe(want.serviceKey);
      expect(d.result.lbTargets).toEqual(want.lbTargets);
      // The node asked for and the path's nodes come in full, equal to runScene's.
      for (const n of [node, ...pathNodes(want)])
        expect(d.result.rules[n]).toEqual(listing(want.rules[n]));
      // Counts: rule lines with an id.
      const rs = want.rules[node]!;
      expect(d.result.ruleCounts?.[node]).toEqual({
        mode: rs.mode,
        rules: rs.lines.filter((l) => l.ruleId !== undefined).length,
      });
      // Any other node on request.
      const other = want.cluster.nodes[0]!.name;
      const r = h.handle({ type: 'rules', req: 8, objects: 1, scene, node: other });
      expect(r?.type === 'rules' && r.reply.ok && unpackRules(r.reply.rules)).toEqual(
        listing(want.rules[other]),
      );
    });

  it('says when it does not hold the objects, and errors come back as messages', () => {
    const h = new ModelHandler();
    expect(
      h.handle({ type: 'scene', req: 1, objects: 9, scene: DEFAULT_SCENE, nodes: [] }),
    ).toEqual({ type: 'missing', req: 1, objects: 9 });
    h.handle({ type: 'objects', id: 2, objects: canonicalObjects() });
    const bad = h.handle({
      type: 'scene',
      req: 2,
      objects: 2,
      scene: { ...DEFAULT_SCENE, client: 'nobody' },
      nodes: [],
    });
    let want = '';
    try {
      runScene(canonicalObjects(), { ...DEFAULT_SCENE, client: 'nobody' });
    } catch (e) {
      want = (e as Error).message;
    }
    expect(want).not.toBe('');
    expect(bad).toEqual({ type: 'scene', req: 2, reply: { ok: false, error: want } });
  });

  it('sends the path’s rules only while they are small', () => {
    const objects = generatedCluster({ nodes: 4, pods: 8 });
    const result = runScene(objects, DEFAULT_SCENE);
    const reply = sceneReply(result, []);
    expect(reply.ok && reply.rules.map((r) => r.nodeName)).toEqual(pathNodes(result));
  });
});

describe('packed rules', () => {
  it('unpack to the same lines in every mode', () => {
    for (const proxyMode of ['iptables', 'nftables', 'ipvs'] as const) {
      const r = runScene(canonicalObjects(), { ...DEFAULT_SCENE, proxyMode });
      for (const n of r.cluster.nodes) {
        const rs = r.rules[n.name]!;
        expect(unpackRules(structuredClone(packRules(rs)))).toEqual(listing(rs));
      }
    }
  });
});
