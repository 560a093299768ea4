import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../model';
import type { SceneOptions } from '../model';
import { generatedCluster } from '../model/scenario/generated';
import { createOutbox, derivedOf } from './client';
import { ModelHandler, outgoing, pathNodes, sceneReply, visitedNodes } from './handler';
import { joinArrays } from './parts';
import type { ToWorker } from './protocol';
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

describe('rule counts', () => {
  it('every node the packet passes is counted, the Pod’s node too (no kube-proxy rule acts there)', () => {
    // Cluster policy on the canonical scene: the balancer's node DNATs to a Pod on node-3 and
    // the packet crosses (SNATed) to it; node-3's rules are still the ones kube-proxy wrote.
    const objects = canonicalObjects();
    const scene: SceneOptions = { ...DEFAULT_SCENE, choices: { lbTarget: 'node-2' } };
    const result = runScene(objects, scene);
    const crossed = visitedNodes(result).filter((n) => !pathNodes(result).includes(n));
    expect(crossed).toEqual(['node-3']);
    const reply = sceneReply(result, []);
    const lines = runScene(objects, scene).rules['node-3']?.lines ?? [];
    expect(reply.ok && reply.ruleCounts['node-3']).toEqual({
      mode: 'iptables',
      rules: lines.filter((l) => l.ruleId !== undefined).length,
    });
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

describe('large messages in parts', () => {
  it('an object set sent in parts answers as the whole set does; a forgotten one is dropped', () => {
    const objects = generatedCluster({ nodes: 6, pods: 30 });
    const whole = new ModelHandler();
    whole.handle({ type: 'objects', id: 1, objects });
    const parts = new ModelHandler();
    parts.handle({ type: 'objects', id: 1, objects: objects.slice(0, 10), more: true });
    parts.handle({ type: 'objects', id: 1, objects: objects.slice(10, 20), more: true });
    // Not complete yet: the handler does not hold the set.
    expect(
      parts.handle({ type: 'scene', req: 1, objects: 1, scene: DEFAULT_SCENE, nodes: [] }),
    ).toEqual({ type: 'missing', req: 1, objects: 1 });
    parts.handle({ type: 'objects', id: 1, objects: objects.slice(20) });
    const ask: ToWorker = {
      type: 'scene',
      req: 2,
      objects: 1,
      scene: DEFAULT_SCENE,
      nodes: ['node-1'],
    };
    expect(parts.handle(ask)).toEqual(whole.handle(ask));

    // Parts of a set forgotten before it was complete are dropped, not joined to the next.
    parts.handle({ type: 'objects', id: 2, objects: objects.slice(0, 10), more: true });
    parts.handle({ type: 'forget', id: 2 });
    parts.handle({ type: 'objects', id: 2, objects: generatedCluster({ nodes: 2, pods: 4 }) });
    const two = parts.run(2, DEFAULT_SCENE);
    expect(two instanceof Error || two === undefined ? two : two.cluster.nodes.length).toBe(2);
  });

  it('a scene answer goes as its large arrays in parts, then the rest; joined it is the answer', () => {
    const objects = generatedCluster({ nodes: 20, pods: 100 });
    const h = new ModelHandler();
    h.handle({ type: 'objects', id: 1, objects });
    const reply = h.handle({ type: 'scene', req: 5, objects: 1, scene: DEFAULT_SCENE, nodes: [] });
    const msgs = outgoing(reply!, 30);
    const last = msgs[msgs.length - 1]!;
    expect(last.type).toBe('scene');
    const parts = msgs.slice(0, -1);
    // 100 Pods in parts of 30: 4 parts; and the nodes, endpoints and targets likewise.
    expect(
      parts.filter((m) => m.type === 'part' && m.part.path.join('.') === 'cluster.pods'),
    ).toHaveLength(4);
    for (const m of parts) expect(m.type === 'part' && m.req === 5).toBe(true);
    const joined = structuredClone(last);
    if (joined.type !== 'scene') throw new Error('not a scene answer');
    joinArrays(
      joined.reply,
      parts.map((m) => (m.type === 'part' ? m.part : { path: [], items: [] })),
    );
    expect(joined).toEqual(reply);
    // Other messages go as they are.
    const missing = { type: 'missing', req: 1, objects: 3 } as const;
    expect(outgoing(missing)).toEqual([missing]);
  });
});

describe('the client outbox', () => {
  it('posts an object set in parts, one per task, and what follows after them, in order', () => {
    const posted: string[] = [];
    const tasks: (() => void)[] = [];
    const box = createOutbox(
      (m) =>
        posted.push(
          m.type === 'objects' ? `objects ${m.objects.length}${m.more ? '+' : ''}` : m.type,
        ),
      (fn) => tasks.push(fn),
    );
    const objects = generatedCluster({ nodes: 12, pods: 2_500 });
    box.sendObjects(1, objects);
    box.post({ type: 'scene', req: 1, objects: 1, scene: DEFAULT_SCENE, nodes: [] });
    // The first part at once; the rest each in a later task; the scene after the last part.
    expect(posted).toEqual(['objects 1000+']);
    while (tasks.length > 0) tasks.shift()!();
    const n = objects.length;
    expect(posted).toEqual(['objects 1000+', 'objects 1000+', `objects ${n - 2000}`, 'scene']);
    box.post({ type: 'forget', id: 1 });
    expect(posted[posted.length - 1]).toBe('forget');
  });
});
