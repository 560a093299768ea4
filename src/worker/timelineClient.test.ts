import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE } from '../model';
import type { ScenarioObject } from '../model/k8s/objects';
import { generatedCluster } from '../model/scenario/generated';
import { timeAnswer } from '../store/timeAnswer';
import type { TimeAnswer, TimeInputs } from '../store/timeAnswer';
import { INITIAL_TIME } from '../store/timelineSlice';
import { createTimelineClient } from './timelineClient';
import type { TimelineTransport } from './timelineClient';
import { TimelineHandler, timelineOutgoing } from './timelineHandler';
import { EPOCHS_PER_PART } from './timelineProtocol';
import type { FromTimelineWorker, ToTimelineWorker } from './timelineProtocol';

/**
 * A worker in this thread: every message is structured-cloned both ways, as postMessage does;
 * requests wait in `inbox` until the test serves them, and the client's tasks (`later`) wait
 * in `tasks` until the test runs them, so the order of events is the test's.
 */
function fakeWorker() {
  const handler = new TimelineHandler();
  const inbox: ToTimelineWorker[] = [];
  const tasks: (() => void)[] = [];
  const posted: string[] = [];
  let listener: (m: FromTimelineWorker) => void = () => {};
  const transport: TimelineTransport = {
    post: (m) => {
      posted.push(m.type === 'timeline' ? `timeline ${m.time.workload.count}` : m.type);
      const copy = structuredClone(m);
      // Object sets are held at once (the worker reads them in order, before any request).
      if (copy.type === 'timeline') inbox.push(copy);
      else handler.handle(copy);
    },
    listen: (fn) => {
      listener = fn;
    },
  };
  const client = createTimelineClient(transport, (fn) => tasks.push(fn));
  /** Runs the client's tasks until none is left; how many ran. */
  const flush = (): number => {
    let n = 0;
    for (; tasks.length > 0; n++) tasks.shift()!();
    return n;
  };
  return {
    client,
    inbox,
    /**
     * Answers the oldest waiting request, every message cloned, then runs the client's tasks
     * (unless `land` is false: then the answer has arrived but not yet landed).
     */
    serve(land = true): FromTimelineWorker[] {
      flush(); // the rest of an object set
      const msg = inbox.shift();
      if (!msg) throw new Error('no request waiting');
      const reply = handler.handle(msg);
      const out = reply ? timelineOutgoing(reply) : [];
      for (const m of out) listener(structuredClone(m));
      if (land) flush();
      return out;
    },
    /** Every message the worker got, in order ("objects", "timeline 30"...). */
    posted,
    /** Forgets every object set (a restarted worker). */
    restart() {
      for (let id = 1; id < 100; id++) handler.handle({ type: 'forget', id });
    },
    flush,
  };
}

const time = (patch: Partial<TimeInputs> = {}): TimeInputs => ({
  controller: INITIAL_TIME.controller,
  healthCheck: INITIAL_TIME.healthCheck,
  events: INITIAL_TIME.events,
  workload: INITIAL_TIME.workload,
  ...patch,
});

describe('the time view’s worker answers what timeAnswer answers', () => {
  const cases: [string, ScenarioObject[], TimeInputs][] = [
    [
      'canonical, 25,000 connections, node-1 fails at 50 s and comes back at 120 s',
      canonicalObjects(),
      time({
        events: [
          { at: 50_000, kind: 'fail-node', node: 'node-1' },
          { at: 120_000, kind: 'restore-node', node: 'node-1' },
        ],
        workload: { ...INITIAL_TIME.workload, count: 25_000, longLivedClient: 'node' },
      }),
    ],
    [
      'generated 12 nodes / 60 Pods, three nodes fail',
      generatedCluster({ nodes: 12, pods: 60 }),
      time({
        events: [
          { at: 45_000, kind: 'fail-node', node: 'node-2' },
          { at: 60_000, kind: 'fail-node', node: 'node-5' },
          { at: 75_000, kind: 'fail-node', node: 'node-9' },
        ],
        workload: { ...INITIAL_TIME.workload, count: 1_500 },
      }),
    ],
    [
      'an error (the timeout outlasts the interval) comes back as a value',
      canonicalObjects(),
      time({ healthCheck: { intervalSeconds: 2, timeoutSeconds: 5 } }),
    ],
  ];
  for (const [name, objects, inputs] of cases)
    it(name, () => {
      const want = timeAnswer(objects, DEFAULT_SCENE, inputs);
      const w = fakeWorker();
      let got: TimeAnswer | undefined;
      w.client.channel().request(objects, DEFAULT_SCENE, inputs, (a) => (got = a));
      const out = w.serve(false);
      const tasks = w.flush();
      expect(got).toBeDefined();
      expect(got).toEqual(want);
      // The request's own objects, not a copy that crossed twice.
      expect(got!.derived.input.objects).toBe(objects);
      expect(want.derived.ok).toBe(!name.startsWith('an error'));
      if (!want.derived.ok || !got!.derived.ok) return;
      expect(want.derived.timeline.epochs.length).toBeGreaterThan(EPOCHS_PER_PART);
      // The model's lazy Epoch.paths (left behind by postMessage) reads the same.
      const e = want.derived.timeline.epochs.length - 1;
      expect(got!.derived.timeline.epochs[e]!.paths).toEqual(
        want.derived.timeline.epochs[e]!.paths,
      );
      expect(Object.keys(got!.derived.timeline.epochs[e]!)).not.toContain('paths');
      // In parts: the epochs a few at a time; the connections packed by column with the answer.
      const parts = out.filter((m) => m.type === 'part');
      const epochParts = parts.filter((m) => m.part.path.join('.') === 'derived.timeline.epochs');
      expect(epochParts).toHaveLength(
        Math.ceil(want.derived.timeline.epochs.length / EPOCHS_PER_PART),
      );
      for (const m of parts) expect(m.part.items.length).toBeLessThanOrEqual(1_000);
      const last = out[out.length - 1]!;
      if (last.type !== 'timeline') throw new Error('the answer comes last');
      expect(last.answer.derived.input.objects).toEqual([]);
      expect(last.answer.derived.ok && last.answer.derived.timeline.connections).toEqual([]);
      expect(last.connections?.length).toBe(want.derived.timeline.connections.length);
      // Repeated epoch states go once and are shared again on arrival.
      expect(last.shared?.length).toBeGreaterThan(0);
      for (const [i, key, from] of last.shared ?? [])
        expect(got!.derived.timeline.epochs[i]!.state[key]).toBe(
          got!.derived.timeline.epochs[from]!.state[key],
        );
      // Made into objects 10,000 a task, the answer landing with the last slice.
      expect(tasks).toBe(Math.ceil(want.derived.timeline.connections.length / 10_000));
    });
});

it('cutting an answer into messages leaves the handler’s (memoised) answer as it was', () => {
  const h = new TimelineHandler();
  const objects = generatedCluster({ nodes: 6, pods: 30 });
  h.handle({ type: 'objects', id: 1, objects });
  const inputs = time({ events: [{ at: 45_000, kind: 'fail-node', node: 'node-2' }] });
  const reply = h.handle({
    type: 'timeline',
    req: 1,
    objects: 1,
    scene: DEFAULT_SCENE,
    time: inputs,
  });
  const before = structuredClone(reply);
  const out = timelineOutgoing(reply!, 10, 2);
  expect(out.length).toBeGreaterThan(3);
  expect(reply).toEqual(before);
});

describe('a newer request supersedes an older one', () => {
  const objects = canonicalObjects();
  const a = time({ workload: { ...INITIAL_TIME.workload, count: 10 } });
  const b = time({ workload: { ...INITIAL_TIME.workload, count: 20 } });
  const c = time({ workload: { ...INITIAL_TIME.workload, count: 30 } });
  const totals = (got: [string, TimeAnswer][]) =>
    got.map(([n, x]) => [n, x.derived.ok ? x.derived.timeline.stats.total : -1]);

  it('the older answer never lands, and a request replaced while waiting is never sent', () => {
    const w = fakeWorker();
    const ch = w.client.channel();
    const got: [string, TimeAnswer][] = [];
    ch.request(objects, DEFAULT_SCENE, a, (x) => got.push(['a', x]));
    ch.request(objects, DEFAULT_SCENE, b, (x) => got.push(['b', x]));
    ch.request(objects, DEFAULT_SCENE, c, (x) => got.push(['c', x]));
    // Only a is sent while it is in flight.
    expect(w.inbox.map((m) => m.type === 'timeline' && m.time.workload.count)).toEqual([10]);
    w.serve(); // a's answer arrives: dropped, and c goes out (b never does)
    expect(got).toEqual([]);
    expect(w.inbox.map((m) => m.type === 'timeline' && m.time.workload.count)).toEqual([30]);
    w.serve();
    expect(totals(got)).toEqual([['c', 30]]);
  });

  it('an answer that arrived is dropped when a newer request comes before it lands', () => {
    const w = fakeWorker();
    const ch = w.client.channel();
    const got: [string, TimeAnswer][] = [];
    ch.request(objects, DEFAULT_SCENE, a, (x) => got.push(['a', x]));
    w.serve(false); // a's answer is joined; its landing waits for a later task
    ch.request(objects, DEFAULT_SCENE, b, (x) => got.push(['b', x]));
    w.flush();
    expect(got).toEqual([]);
    w.serve();
    expect(totals(got)).toEqual([['b', 20]]);
  });

  it('objects are sent once per array; a worker that lost them gets them again', () => {
    const w = fakeWorker();
    const ch = w.client.channel();
    const got: [string, TimeAnswer][] = [];
    ch.request(objects, DEFAULT_SCENE, a, (x) => got.push(['a', x]));
    w.serve();
    ch.request(objects, DEFAULT_SCENE, b, (x) => got.push(['b', x]));
    expect(w.posted).toEqual(['objects', 'timeline 10', 'timeline 20']);
    w.restart();
    w.serve(); // "missing": the client sends the objects and asks again
    expect(w.posted).toEqual(['objects', 'timeline 10', 'timeline 20', 'objects', 'timeline 20']);
    w.serve();
    expect(totals(got)).toEqual([
      ['a', 10],
      ['b', 20],
    ]);
  });

  it('channels are independent, and a closed channel gets nothing more', () => {
    const w = fakeWorker();
    const one = w.client.channel();
    const two = w.client.channel();
    const got: [string, TimeAnswer][] = [];
    one.request(objects, DEFAULT_SCENE, a, (x) => got.push(['one', x]));
    two.request(objects, DEFAULT_SCENE, b, (x) => got.push(['two', x]));
    one.close();
    w.serve();
    w.serve();
    expect(totals(got)).toEqual([['two', 20]]);
  });
});
