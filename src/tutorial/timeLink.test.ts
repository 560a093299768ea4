/**
 * Time links (content/AUTHORING.md, "Time links"): reading the query, writing it back, and
 * resolving it against a scenario and the time view's run.
 *
 * Facts the expectations rest on:
 * - durations are Go's `time.ParseDuration` units (`90s` = 90,000 ms, `1m30s` the same);
 * - the canonical scenario (DESIGN.md) has nodes node-1, node-2, node-3 and the Pods
 *   web-6d8f9c7b5-x2k4p (node-1) and web-6d8f9c7b5-q7m9z (node-3); bare-metal-pending's nodes
 *   are k8s-cp-1, k8s-worker-1, k8s-worker-2 (public/examples/bare-metal-pending.yaml);
 * - health-check ranges are Google Cloud's `compute.healthChecks` API's (interval and timeout
 *   1–300 s, thresholds 1–10; a timeout over the interval is invalid) and the defaults
 *   cloud-provider-gcp's (8 s, 1 s, 1, 3);
 * - the horizon is the model's (src/model/time/settings.ts `resolveSettings`), worked out below.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE } from '../model';
import { COMPACT_ACTIONS } from '../model/time/eventArgs';
import { EVENT_KINDS, EVENT_SPECS, makeEvent } from '../model/time/registry';
import type { TimelineEvent } from '../model/time/types';
import { INITIAL_TIME } from '../store/timelineSlice';
import { extractBlocks } from './blocks';
import { diskScenarioLoader } from './node';
import { formatTimeEvent, formatTimeLink, parseTimeQuery } from './timeLink';
import type { TimeLink } from './timeLink';
import { describeTime, resolveTimeLink, resolveTimeQuery } from './timeResolve';

const loadScenario = diskScenarioLoader(process.cwd());
const keysOf = (query: string) => parseTimeQuery(query).errors.map((e) => [e.key, e.value]);
const messages = (query: string) => {
  const r = resolveTimeQuery(query, { loadScenario });
  return r.ok ? [] : r.errors.map((e) => e.message);
};

describe('parseTimeQuery', () => {
  it('reads every key, the events with the model’s parser and `at` as a Go duration', () => {
    const { link, errors } = parseTimeQuery(
      'time:scenario=bare-metal-pending&policy=Local&controller=metallb-l2' +
        '&events=fail:node-1@60s,restore:node-1@2m30s&interval=3&timeout=1&healthy=2&unhealthy=2' +
        '&connections=5000&at=1m30s',
    );
    expect(errors).toEqual([]);
    expect(link).toEqual({
      scenario: 'bare-metal-pending',
      policy: 'Local',
      controller: 'metallb-l2',
      events: [
        { at: 60_000, kind: 'fail-node', node: 'node-1' },
        { at: 150_000, kind: 'restore-node', node: 'node-1' },
      ],
      interval: 3,
      timeout: 1,
      healthy: 2,
      unhealthy: 2,
      connections: 5000,
      at: 90_000,
    } satisfies TimeLink);
  });

  it('reads every kind of the compact events form', () => {
    const { link } = parseTimeQuery(
      'events=drain:node-2@30s,uncordon:node-2@2m,kill:web-6d8f9c7b5-x2k4p@5s,scale:4@20s,policy:Local@40s',
    );
    expect(link.events).toEqual([
      { at: 30_000, kind: 'drain-node', node: 'node-2' },
      { at: 120_000, kind: 'uncordon-node', node: 'node-2' },
      { at: 5_000, kind: 'kill-pod', pod: 'web-6d8f9c7b5-x2k4p' },
      { at: 20_000, kind: 'scale', replicas: 4 },
      { at: 40_000, kind: 'set-policy', policy: 'Local' },
    ]);
  });

  it('an empty query is no keys and no problem', () => {
    expect(parseTimeQuery('')).toEqual({ link: {}, errors: [] });
    expect(parseTimeQuery('time:')).toEqual({ link: {}, errors: [] });
  });

  it('names the key and the value of every problem, and keeps the good keys', () => {
    const r = parseTimeQuery('policy=cluster&at=90s&speed=2&controller=metallb');
    expect(r.link).toEqual({ at: 90_000 });
    expect(r.errors.map((e) => e.message)).toEqual([
      'policy=cluster: must be Cluster or Local',
      'speed=2: unknown key "speed" (keys: scenario, policy, controller, events, interval, timeout, healthy, unhealthy, connections, at)',
      'controller=metallb: must be cloud, none or metallb-l2',
    ]);
  });

  it('refuses health-check values outside Google Cloud’s API ranges', () => {
    expect(keysOf('interval=0')).toEqual([['interval', '0']]);
    expect(keysOf('interval=301')).toEqual([['interval', '301']]);
    expect(keysOf('interval=300&timeout=300&healthy=10&unhealthy=10')).toEqual([]);
    expect(keysOf('timeout=1.5')).toEqual([['timeout', '1.5']]);
    expect(keysOf('healthy=11')).toEqual([['healthy', '11']]);
    expect(keysOf('unhealthy=0')).toEqual([['unhealthy', '0']]);
  });

  it('connections: 1 to 100,000, as the many-connections panel', () => {
    expect(keysOf('connections=100000')).toEqual([]);
    expect(parseTimeQuery('connections=100001').errors[0]?.message).toBe(
      'connections=100001: must be a whole number from 1 to 100,000',
    );
    expect(keysOf('connections=0')).toEqual([['connections', '0']]);
  });

  it('passes on the model’s own messages for bad events and durations', () => {
    expect(parseTimeQuery('events=explode:node-1@1s').errors[0]?.message).toMatch(
      /^events=explode:node-1@1s: "explode:node-1@1s": unknown kind "explode"/,
    );
    expect(parseTimeQuery('events=fail:node-1').errors[0]?.message).toMatch(
      /expected ACTION:TARGET@TIME/,
    );
    expect(parseTimeQuery('events=scale:101@1s').errors[0]?.message).toMatch(
      /scale needs a replica count from 0 to 100/,
    );
    expect(parseTimeQuery('events=,').errors[0]?.message).toBe(
      'events=,: names no event (write KIND:ARG@TIME, e.g. fail:node-1@60s)',
    );
    // A Go duration needs its unit: 90 alone is not one.
    expect(parseTimeQuery('at=90').errors[0]?.message).toMatch(/^at=90: "90" is not a duration/);
  });

  it('repeated and empty keys are problems', () => {
    expect(parseTimeQuery('at=1s&at=2s').errors[0]?.message).toBe(
      'at=2s: "at" is given more than once',
    );
    expect(parseTimeQuery('controller=').errors[0]?.message).toBe('controller= has no value');
  });
});

describe('formatTimeLink', () => {
  it('writes what parseTimeQuery reads back', () => {
    const query =
      'scenario=canonical&policy=Local&controller=none&events=fail:node-1@1m,restore:node-1@2m30s,scale:4@20.5s&interval=5&timeout=2&healthy=2&unhealthy=2&connections=10&at=1m30s';
    const { link, errors } = parseTimeQuery(query);
    expect(errors).toEqual([]);
    expect(formatTimeLink(link)).toBe(query);
    expect(parseTimeQuery(formatTimeLink(link)).link).toEqual(link);
  });

  it('writes events in the compact form', () => {
    expect(formatTimeEvent({ at: 90_000, kind: 'kill-pod', pod: 'web-a' })).toBe(
      'kill:web-a@1m30s',
    );
    expect(formatTimeEvent({ at: 0, kind: 'set-policy', policy: 'Cluster' })).toBe(
      'policy:Cluster@0s',
    );
  });

  it('every kind of the model’s registry: written, then read back the same', () => {
    const arg = {
      node: 'node-2',
      pod: 'default/web-6d8f9c7b5-x2k4p',
      replicas: 0,
      policy: 'Local',
    };
    for (const kind of EVENT_KINDS) {
      const e = makeEvent(kind, 61_500, arg[EVENT_SPECS[kind].field] as never) as TimelineEvent;
      const text = formatTimeEvent(e);
      expect(text).toMatch(new RegExp(`^${COMPACT_ACTIONS[kind]}:[^@]+@1m1\\.5s$`));
      expect(parseTimeQuery(`events=${text}`)).toEqual({ link: { events: [e] }, errors: [] });
    }
  });
});

describe('resolveTimeLink', () => {
  it('with no keys: the canonical scenario and scene, the view’s initial inputs, the clock at 0', () => {
    const r = resolveTimeLink({}, { loadScenario });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.time.scenario).toBe('canonical');
    // The canonical scenario is not carried (openView opens it), as for scene links.
    expect(r.time.open.view.objects).toBeUndefined();
    expect(r.time.open.view.scene).toEqual(DEFAULT_SCENE);
    expect(r.time.open.view.step).toBe(-1);
    expect(r.time.open.time).toEqual({
      controller: 'cloud',
      healthCheck: {},
      events: [],
      workload: INITIAL_TIME.workload,
    });
    expect(r.time.open.simMs).toBe(0);
  });

  it('sets the policy, the controller, the health-check overrides and the connections', () => {
    const r = resolveTimeQuery(
      'policy=Local&controller=none&interval=3&unhealthy=2&connections=5000&at=30s',
      { loadScenario },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.time.open.view.scene.externalTrafficPolicy).toBe('Local');
    expect(r.time.open.time.controller).toBe('none');
    expect(r.time.open.time.healthCheck).toEqual({ intervalSeconds: 3, unhealthyThreshold: 2 });
    expect(r.time.open.time.workload).toEqual({ ...INITIAL_TIME.workload, count: 5000 });
    expect(r.time.open.simMs).toBe(30_000);
    // The model fills in the rest from cloud-provider-gcp's defaults.
    expect(r.time.timeline.settings.healthCheck).toMatchObject({
      intervalSeconds: 3,
      timeoutSeconds: 1,
      healthyThreshold: 1,
      unhealthyThreshold: 2,
    });
  });

  it('carries an example scenario’s objects and its own scene', () => {
    const r = resolveTimeQuery('scenario=bare-metal-pending&controller=none', { loadScenario });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.time.open.view.objects?.length).toBe(r.time.objects.length);
    // The example publishes no address: its own scene says so.
    expect(r.time.open.view.scene.published).toBe(false);
  });

  it('events are sorted by time, keeping the written order for equal times', () => {
    const r = resolveTimeQuery('events=restore:node-1@90s,fail:node-1@60s,drain:node-2@60s', {
      loadScenario,
    });
    expect(r.ok && r.time.open.time.events.map(formatTimeEvent)).toEqual([
      'fail:node-1@1m',
      'drain:node-2@1m',
      'restore:node-1@1m30s',
    ]);
  });

  it('an event on a node that is not in the scenario is a problem naming the nodes', () => {
    const r = resolveTimeQuery('events=fail:node-1@60s,fail:node-9@70s', { loadScenario });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      {
        key: 'events',
        value: 'fail:node-9@1m10s',
        message:
          'events: fail:node-9@1m10s: no node "node-9" in the scenario (nodes: node-1, node-2, node-3)',
      },
    ]);
    expect(messages('scenario=bare-metal-pending&events=drain:node-1@30s')).toEqual([
      'events: drain:node-1@30s: no node "node-1" in the scenario (nodes: k8s-cp-1, k8s-worker-1, k8s-worker-2)',
    ]);
  });

  it('a kill must name a Pod that backs the Service at that time', () => {
    expect(messages('events=kill:web-6d8f9c7b5-x2k4p@60s')).toEqual([]);
    expect(messages('events=kill:default/web-6d8f9c7b5-q7m9z@60s')).toEqual([]);
    expect(messages('events=kill:web-nope@60s')).toEqual([
      'events: kill:web-nope@1m: no Pod "web-nope" backs default/web by then (Pods: web-6d8f9c7b5-q7m9z, web-6d8f9c7b5-x2k4p)',
    ]);
    // curl runs on node-2 but is no backend of web.
    expect(messages('events=kill:curl@60s')).toHaveLength(1);
  });

  it('a timeout longer than the interval is a problem on the key the link set', () => {
    expect(messages('interval=3&timeout=5')).toEqual([
      'timeout=5: the timeout (5 s) must not be longer than the interval (3 s)',
    ]);
    // Google Cloud's default interval is 8 s.
    expect(messages('timeout=10')).toEqual([
      'timeout=10: the timeout (10 s) must not be longer than the interval (8 s)',
    ]);
    expect(messages('timeout=8')).toEqual([]);
  });

  it('`at` may not lie beyond the end of the run', () => {
    // resolveSettings: provisioning from creation needs 0.2 + 30 + 5 + (1 + 1) × 8 + 30 = 81.2 s;
    // fail-node restored later: 60 s + 60 s = 120 s; restore at 150 s: 150 s + 60 s = 210 s; the
    // workload (opening at 41 s, when node-3 joined the rotation, for 60 s) ends at 101 s.
    // The horizon is the largest: 210 s.
    const q = 'events=fail:node-1@60s,restore:node-1@150s';
    const r = resolveTimeQuery(`${q}&at=3m30s`, { loadScenario });
    expect(r.ok && r.time.horizonMs).toBe(210_000);
    expect(messages(`${q}&at=211s`)).toEqual([
      'at=3m31s: beyond the end of the run (3m30s); use at most 3m30s',
    ]);
  });

  it('an unknown scenario is a problem on `scenario`', () => {
    const r = resolveTimeQuery('scenario=nope', { loadScenario });
    expect(!r.ok && r.errors[0]?.key).toBe('scenario');
    expect(!r.ok && r.errors[0]?.message).toMatch(/^scenario=nope: no example "nope"/);
  });

  it('describeTime says what the model shows at `at`', () => {
    // At 100 s node-1 has failed (60 s) and left the rotation after three failed probes 8 s
    // apart; the address was published at 35.2 s.
    const r = resolveTimeQuery('events=fail:node-1@60s,restore:node-1@150s&at=100s', {
      loadScenario,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(describeTime(r.time)[1]).toBe(
      'at 1m40s of 3m30s: EXTERNAL-IP 203.0.113.7; in rotation: node-2, node-3; down: node-1',
    );
  });
});

describe('extractBlocks finds time links', () => {
  it('links and definitions, with their text and file line, apart from scene links', () => {
    const body = [
      'Intro [a scene](scene:step=2).', // 3
      '',
      'Then [watch it fail](time:events=fail:node-1@60s&at=90s).', // 5
      '',
      '[later]: time:at=1m', // 7
    ].join('\n');
    const b = extractBlocks(body, 3);
    expect(b.sceneLinks.map((l) => l.query)).toEqual(['step=2']);
    expect(b.timeLinks).toEqual([
      {
        url: 'time:events=fail:node-1@60s&at=90s',
        query: 'events=fail:node-1@60s&at=90s',
        text: 'watch it fail',
        line: 5,
      },
      { url: 'time:at=1m', query: 'at=1m', text: '', line: 7 },
    ]);
  });
});
