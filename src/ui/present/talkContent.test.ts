/**
 * The browser's talk loader, run in Node through Vite's import.meta.glob: the list of talks in
 * content/talks, a talk loaded with its `steps:` beats expanded, a chapter as a talk, and the
 * errors for what does not exist.
 */
import { describe, expect, it } from 'vitest';
import { listTalks, loadTalk } from './talkContent';

describe('listTalks', () => {
  it('lists the shipped talks in their order, with their front matter', async () => {
    const list = await listTalks();
    expect(list.map((t) => t.id)).toEqual([
      'nodeport-to-loadbalancer',
      'cluster-vs-local',
      'node-failure-over-time',
    ]);
    expect(list[0]).toEqual({
      id: 'nodeport-to-loadbalancer',
      title: 'From NodePort to LoadBalancer, in five steps',
      summary: expect.stringContaining('a port on every node') as string,
      durationMs: 20 * 60_000,
      beats: 10,
    });
  });
});

describe('loadTalk', () => {
  it('expands a steps: beat into one beat per trace step', async () => {
    const talk = await loadTalk('nodeport-to-loadbalancer');
    expect(talk.beats.every((b) => b.steps === null)).toBe(true);
    const walked = talk.beats.filter((b) => b.part);
    expect(walked.map((b) => b.show.query)).toEqual([
      'story=2&step=5',
      'story=2&step=6',
      'story=2&step=7',
      'story=2&step=8',
      'story=2&step=9',
    ]);
    expect(walked[2]?.caption).toBe(
      'A second hop: node-2 → node-3. The chosen pod lives on node-3, so node-2 sends the packet across the cluster network.',
    );
    // 10 beats as written, one of them five steps long.
    expect(talk.beats).toHaveLength(14);
  });

  it('presents a tutorial chapter as a talk', async () => {
    const talk = await loadTalk('chapter:traffic-policy');
    expect(talk.id).toBe('chapter:traffic-policy');
    expect(talk.title).toBe('externalTrafficPolicy — Cluster or Local');
    expect(talk.beats[0]?.show).toEqual({
      kind: 'scene',
      query: 'policy=Local&lbTarget=node-1&step=0',
    });
    expect(talk.beats.length).toBeGreaterThan(8);
  });

  it('rejects an unknown talk or chapter, naming what exists', async () => {
    await expect(loadTalk('nope')).rejects.toThrow(
      'no talk "nope" in content/talks (talks: cluster-vs-local, node-failure-over-time, nodeport-to-loadbalancer)',
    );
    await expect(loadTalk('chapter:nope')).rejects.toThrow('no tutorial chapter "nope"');
  });
});
