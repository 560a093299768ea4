/**
 * The run's log. Requirement (types.ts `TimelineEntry`): entries are sorted by `at`, then by
 * the order they were written in, and `seq` is that order, unique in a timeline.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../../index';
import { add, addressText, excludedText, sortedEntries } from './messages';
import { testSim } from './testSim';

describe('the log', () => {
  it('sorts by time, keeps the writing order within a millisecond and numbers the entries 0, 1, …', () => {
    const sim = testSim();
    add(sim, 2000, 'note', 'user', 'b');
    add(sim, 1000, 'note', 'user', 'a');
    add(sim, 2000, 'note', 'kubelet', 'c', { node: 'node-1' });
    add(sim, 0, 'event', 'api-server', 'first');
    expect(sortedEntries(sim).map((e) => [e.seq, e.at, e.message])).toEqual([
      [0, 0, 'first'],
      [1, 1000, 'a'],
      [2, 2000, 'b'],
      [3, 2000, 'c'],
    ]);
    expect(sim.entries.at(-1)).toEqual({
      at: 2000,
      seq: 3,
      kind: 'note',
      actor: 'kubelet',
      message: 'c',
      node: 'node-1',
    });
  });
});

describe('shared phrases', () => {
  it('names the published address (the canonical balancer publishes 203.0.113.7)', () => {
    expect(addressText(testSim())).toBe('203.0.113.7');
  });

  it('names the nodes the exclude label keeps out of the targets', () => {
    const objects = canonicalObjects();
    for (const o of objects)
      if (o.kind === 'Node' && o.metadata?.name === 'node-3')
        o.metadata.labels = {
          ...o.metadata.labels,
          'node.kubernetes.io/exclude-from-external-load-balancers': '',
        };
    expect(excludedText(testSim({}, objects))).toBe(
      'node-3 (labelled node.kubernetes.io/exclude-from-external-load-balancers)',
    );
  });
});
