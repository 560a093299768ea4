import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, runScene } from '../model';
import { generatedCluster } from '../model/scenario/generated';
import { serveMessages } from './handler';
import type { FromWorker } from './protocol';

/**
 * After a scene's answer, the nodes it did not count are counted one per task; a rules request
 * in between must not stop that (the tutorial's rules panel asked for rules right after a scene,
 * and a node of the drawing read "counting rules…" for good), a newer scene does.
 */
describe('serveMessages: counting the rules the answer lacked', () => {
  const objects = generatedCluster({ nodes: 6, pods: 6 });
  const scene = DEFAULT_SCENE;
  const names = runScene(objects, scene).cluster.nodes.map((n) => n.name);

  function setup() {
    const posted: FromWorker[] = [];
    const tasks: (() => void)[] = [];
    const serve = serveMessages(
      (m) => posted.push(m),
      (fn) => tasks.push(fn),
    );
    const drain = () => {
      for (let t = tasks.shift(); t; t = tasks.shift()) t();
    };
    serve({ type: 'objects', id: 1, objects });
    return { serve, posted, drain };
  }
  const counted = (posted: FromWorker[], req: number) =>
    posted.flatMap((m) => (m.type === 'counts' && m.req === req ? Object.keys(m.counts) : []));
  const inReply = (posted: FromWorker[], req: number) => {
    const r = posted.find((m) => m.type === 'scene' && m.req === req);
    return r?.type === 'scene' && r.reply.ok ? Object.keys(r.reply.ruleCounts) : [];
  };

  it('counts every node the answer lacked, a rules request in between or not', () => {
    const { serve, posted, drain } = setup();
    serve({ type: 'scene', req: 1, objects: 1, scene, nodes: [] });
    serve({ type: 'rules', req: 2, objects: 1, scene, node: names[0]! });
    drain();
    const all = [...inReply(posted, 1), ...counted(posted, 1)].sort();
    expect(all).toEqual([...names].sort());
    expect(counted(posted, 1).length).toBeGreaterThan(0);
  });

  it('keeps counting for one store while another asks for its own scene', () => {
    const { serve, posted, drain } = setup();
    serve({ type: 'scene', req: 1, objects: 1, scene, nodes: [], channel: 1 });
    serve({
      type: 'scene',
      req: 2,
      objects: 1,
      scene: { ...scene, ipMode: 'Proxy' },
      nodes: [],
      channel: 2,
    });
    drain();
    expect([...inReply(posted, 1), ...counted(posted, 1)].sort()).toEqual([...names].sort());
    expect([...inReply(posted, 2), ...counted(posted, 2)].sort()).toEqual([...names].sort());
  });

  it('stops counting for a scene a newer one of the same store replaced', () => {
    const { serve, posted, drain } = setup();
    serve({ type: 'scene', req: 1, objects: 1, scene, nodes: [] });
    serve({
      type: 'scene',
      req: 3,
      objects: 1,
      scene: { ...scene, externalTrafficPolicy: 'Local' },
      nodes: [],
    });
    drain();
    expect(counted(posted, 1)).toEqual([]);
    expect([...inReply(posted, 3), ...counted(posted, 3)].sort()).toEqual([...names].sort());
  });
});
