import { describe, expect, it } from 'vitest';
import { generatedCluster } from '../model/scenario/generated';
import { runScene } from '../model';
import { sceneForObjects } from '../store/importScenario';
import { sceneReply } from './handler';
import { joinArrays, splitArrays } from './parts';

describe('splitArrays / joinArrays', () => {
  it('takes arrays over the size out in parts and puts them back in order', () => {
    const value = {
      ok: true,
      small: [1, 2],
      cluster: { pods: [1, 2, 3, 4, 5], endpoints: { a: [6, 7, 8], b: [9] } },
    };
    const { value: light, parts } = splitArrays(value, 2);
    expect(light).toEqual({
      ok: true,
      small: [1, 2],
      cluster: { pods: [], endpoints: { a: [], b: [9] } },
    });
    // 5 Pods in parts of 2 (3 parts), then endpoints a in 2.
    expect(parts.map((p) => [p.path.join('.'), p.items])).toEqual([
      ['cluster.pods', [1, 2]],
      ['cluster.pods', [3, 4]],
      ['cluster.pods', [5]],
      ['cluster.endpoints.a', [6, 7]],
      ['cluster.endpoints.a', [8]],
    ]);
    // The original is untouched (the worker keeps it for the next request).
    expect(value.cluster.pods).toEqual([1, 2, 3, 4, 5]);
    expect(joinArrays(structuredClone(light), structuredClone(parts))).toEqual(value);
  });

  it('leaves a value with no large array as it is, with no parts', () => {
    const value = { a: [1], b: { c: 'x' } };
    const out = splitArrays(value, 2);
    expect(out.value).toBe(value);
    expect(out.parts).toEqual([]);
  });

  it('looks no deeper than the depth given', () => {
    const value = { a: { b: { c: { d: [1, 2, 3] } } } };
    expect(splitArrays(value, 1, 2).parts).toEqual([]);
    expect(splitArrays(value, 1, 3).parts).toHaveLength(3);
  });

  it('refuses a part whose path holds no array', () => {
    expect(() => joinArrays({ a: 1 }, [{ path: ['a'], items: [1] }])).toThrow(/no array at a/);
  });

  it('a scene reply at 100 nodes / 1,000 Pods comes back equal, in parts of at most 1,000', () => {
    const objects = generatedCluster({ nodes: 100, pods: 1_000 });
    const reply = sceneReply(runScene(objects, sceneForObjects(objects, 1)), ['node-1']);
    const { value, parts } = splitArrays(reply, 300);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) expect(p.items.length).toBeLessThanOrEqual(300);
    expect(value.ok && value.cluster.pods).toEqual([]);
    expect(joinArrays(structuredClone(value), structuredClone(parts))).toEqual(reply);
  });
});
