/**
 * The events registry (issue 16, point 2): every kind it defines is the union the model's types
 * declare, has a handler in the engine and a horizon tail, reads back from the compact form and
 * the YAML/JSON form, is run by simulate(), and is documented where people write events. A kind
 * added to `EVENT_SPECS` and forgotten in one of these places fails here (most of them as a
 * compile error, `npx tsc --noEmit`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects } from '../index';
import { EVENT_HANDLERS } from './engine/handlers';
import { parseCompactEvents, parseTimelineSpec } from './events';
import { MAX_NAME_CHARS, MAX_REPLICAS, MAX_SIM_MS } from './limits';
import { COMPACT_ACTIONS, EVENT_ACTIONS, kindOfAction, namedBy } from './eventArgs';
import { EVENT_KINDS, EVENT_SPECS, MAX_EVENT_JSON_CHARS, makeEvent } from './registry';
import type {
  ArgSpec,
  CLUSTER_HEALTH_CHECK_TARGETS,
  CONTROLLER_KINDS,
  EventKind,
  RegistryEvent,
} from './registry';
import { simulate } from './timeline';
import type {
  ClusterHealthCheckTarget,
  ControllerKind,
  TimelineEvent,
  TimelineEventKind,
} from './types';

/** One argument per kind on the canonical cluster (nodes node-1…3; Pods of Deployment web). */
const SAMPLE: { [K in EventKind]: RegistryEvent & { kind: K } } = {
  'fail-node': makeEvent('fail-node', 10_000, 'node-1'),
  'restore-node': makeEvent('restore-node', 50_000, 'node-1'),
  'drain-node': makeEvent('drain-node', 20_000, 'node-2'),
  'uncordon-node': makeEvent('uncordon-node', 60_000, 'node-2'),
  'scale-down-node': makeEvent('scale-down-node', 30_000, 'node-3'),
  'kill-pod': makeEvent('kill-pod', 15_000, 'default/web-6d8f9c7b5-x2k4p'),
  scale: makeEvent('scale', 40_000, 4),
  'set-policy': makeEvent('set-policy', 45_000, 'Local'),
};

/** `5000` ms as the compact form writes it. */
const compact = (e: TimelineEvent) =>
  `${COMPACT_ACTIONS[e.kind]}:${String((e as Record<string, unknown>)[EVENT_SPECS[e.kind].field])}@${e.at}ms`;

describe('the events registry', () => {
  it('is the union the model declares (a compile-time check: npx tsc --noEmit)', () => {
    expectTypeOf<TimelineEvent>().toEqualTypeOf<RegistryEvent>();
    expectTypeOf<TimelineEventKind>().toEqualTypeOf<EventKind>();
    expectTypeOf<ControllerKind>().toEqualTypeOf<(typeof CONTROLLER_KINDS)[number]>();
    expectTypeOf<ClusterHealthCheckTarget>().toEqualTypeOf<
      (typeof CLUSTER_HEALTH_CHECK_TARGETS)[number]
    >();
  });

  it('builds events with their keys in the order JSON writes them', () => {
    expect(JSON.stringify(SAMPLE.scale)).toBe('{"at":40000,"kind":"scale","replicas":4}');
    expect(Object.keys(SAMPLE['kill-pod'])).toEqual(['at', 'kind', 'pod']);
  });

  it('MAX_EVENT_JSON_CHARS is the longest event JSON can write: every kind at 24 h, widest', () => {
    const widest = (arg: ArgSpec): string | number =>
      arg.type === 'name'
        ? 'x'.repeat(arg.maxChars)
        : arg.type === 'int'
          ? String(arg.min).length > String(arg.max).length
            ? arg.min
            : arg.max
          : arg.options.reduce((a, b) => (b.length > a.length ? b : a), '');
    const longest = Math.max(
      ...EVENT_KINDS.map(
        (k) => JSON.stringify(makeEvent(k, MAX_SIM_MS, widest(EVENT_SPECS[k].arg) as never)).length,
      ),
    );
    expect(longest).toBe(MAX_EVENT_JSON_CHARS);
    expect(MAX_EVENT_JSON_CHARS).toBe(40 + 317 + 2);
  });

  it('has one compact action word per kind, and the word leads back to it', () => {
    expect(new Set(EVENT_ACTIONS).size).toBe(EVENT_KINDS.length);
    for (const k of EVENT_KINDS) expect(kindOfAction(COMPACT_ACTIONS[k])).toBe(k);
    expect(kindOfAction('explode')).toBeUndefined();
  });

  it('says which node or Pod an event names (what the model and the view look up)', () => {
    expect(EVENT_KINDS.filter((k) => namedBy(SAMPLE[k], 'node') !== null)).toEqual([
      'fail-node',
      'restore-node',
      'drain-node',
      'uncordon-node',
      'scale-down-node',
    ]);
    expect(namedBy(SAMPLE['kill-pod'], 'pod')).toBe('default/web-6d8f9c7b5-x2k4p');
    expect(namedBy(SAMPLE['kill-pod'], 'node')).toBeNull();
    expect(namedBy(SAMPLE.scale, 'pod')).toBeNull();
  });

  it('every kind has its handler in the engine', () => {
    expect(Object.keys(EVENT_HANDLERS).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it.each(EVENT_KINDS)('%s reads back from the compact form and the YAML/JSON form', (k) => {
    const e = SAMPLE[k];
    expect(parseCompactEvents(compact(e))).toEqual([e]);
    expect(parseTimelineSpec(JSON.stringify([e])).events).toEqual([e]);
    expect(parseTimelineSpec(JSON.stringify({ events: [e] })).events).toEqual([e]);
  });

  it('simulate() runs every kind: each is applied as an event entry at its time', () => {
    const events = EVENT_KINDS.map((k) => SAMPLE[k]);
    const tl = simulate({
      objects: canonicalObjects(),
      scene: DEFAULT_SCENE,
      events,
      workload: { count: 0 },
    });
    const applied = tl.entries.filter((x) => x.kind === 'event' && x.actor === 'user');
    expect(applied.map((x) => x.at).sort((a, b) => a - b)).toEqual(
      events.map((e) => e.at).sort((a, b) => a - b),
    );
  });

  it('the model and the parser check each argument at its bounds, naming the limit', () => {
    const run = (e: TimelineEvent) => () =>
      simulate({
        objects: canonicalObjects(),
        scene: DEFAULT_SCENE,
        events: [e],
        workload: { count: 0 },
      });
    expect(MAX_REPLICAS).toBe(100);
    expect(run({ at: 0, kind: 'scale', replicas: 100 })).not.toThrow();
    expect(run({ at: 0, kind: 'scale', replicas: 101 })).toThrow(
      'events[0].replicas (scale) must be a whole number from 0 to 100, not 101',
    );
    expect(() => parseCompactEvents('scale:101@1s')).toThrow(
      '"scale:101@1s": scale needs a replica count from 0 to 100',
    );
    expect(run({ at: 0, kind: 'set-policy', policy: 'Both' as 'Local' })).toThrow(
      'events[0].policy (set-policy) must be one of Cluster, Local, not "Both"',
    );
    // A node name is a DNS subdomain: at most 253 characters (checked before the node lookup).
    const long = 'n'.repeat(MAX_NAME_CHARS + 1);
    expect(run({ at: 0, kind: 'fail-node', node: long })).toThrow(
      'events[0].node (fail-node) must be at most 253 characters long, not 254',
    );
    expect(() => parseCompactEvents(`fail:${long}@1s`)).toThrow(
      'fail-node node must be at most 253 characters long, not 254',
    );
    expect(run({ at: 0, kind: 'explode' } as unknown as TimelineEvent)).toThrow(
      'events[0].kind must be one of fail-node, restore-node, drain-node, uncordon-node, scale-down-node, kill-pod, scale, set-policy, not "explode"',
    );
  });

  it('README.md and content/AUTHORING.md list every compact action', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### The events format'));
    const authoring = readFileSync('content/AUTHORING.md', 'utf8');
    const eventsRow = authoring.split('\n').find((l) => l.startsWith('| `events` |')) ?? '';
    for (const action of EVENT_ACTIONS) {
      expect(section).toContain(`\`${action}:`);
      expect(eventsRow).toContain(`\`${action}:`);
    }
  });
});
