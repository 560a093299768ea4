/**
 * "Share by link": one view of the app (objects, toggles, step, walkthrough step, node) as a
 * URL fragment `#s=<data>`, where `<data>` is the view's JSON compressed with lz-string's
 * `compressToEncodedURIComponent`. A fragment never reaches a server.
 *
 * Pure: no DOM, no storage. Decoding trusts nothing: every field is checked explicitly (no
 * eval, no prototype tricks, sizes and ranges bounded) and a bad link gives a reason a person
 * can read, never an exception.
 */
import { compressNow, type Compress } from './compress';
import type { ScenarioObject } from '../../model/k8s/objects';
import { LOAD_BALANCER_IMPLEMENTATIONS } from '../../model/k8s/objects';
import type { SceneOptions } from '../../model/scenario/scene';
import type { TimelineEvent } from '../../model/time/types';
// The time model's input format and bounds: two modules that import nothing, so this stays
// out of the time model's chunk.
import { MAX_EVENTS } from '../../model/time/limits';
import { MAX_EVENT_JSON_CHARS } from '../../model/time/registry';
// The story's template: as many steps as the bound walkthrough, without binding it at load.
import { NODEPORT_TO_LOADBALANCER_STORY as DEFAULT_WALKTHROUGH } from '../../model/walkthrough/nodePortToLoadBalancer';
import {
  FORBIDDEN_KEYS,
  Invalid,
  MAX_NAME,
  fail,
  has,
  integer,
  isPlainObject,
  name,
  oneOf,
  own,
  onlyKeys,
  truncate,
} from './fields';
import { decompressBounded } from './lz';
import { timeOf, tooManyEvents } from './sharedTime';
import type { SharedTime } from './sharedTime';

export type { SharedTime } from './sharedTime';

/** The format version this app writes and reads. */
export const SHARE_VERSION = 1;

/** One view of the app, as a link (and the saved last view) carries it. */
export interface SharedState {
  v: 1;
  /** The scenario's objects; omitted when they are the canonical scenario's. */
  objects?: ScenarioObject[];
  scene: SceneOptions;
  /** The trace step (-1 = before the first step); clamped to the trace when opened. */
  step: number;
  /** The walkthrough step on screen, or null. */
  story: number | null;
  /** The node whose rules the Rules panel shows. */
  node?: string;
  /** The "Time & failures" view, when it is on screen: its inputs and the clock. */
  time?: SharedTime;
}

export type DecodeResult = { ok: true; state: SharedState } | { ok: false; reason: string };
export type ValidateResult = DecodeResult;

/** The fragment's prefix. */
export const HASH_PREFIX = '#s=';

/**
 * At most this many characters of JSON for the view apart from the time view's scheduled events
 * (200 KB): the objects, the scene and the rest. A view over it gets no link ("the view is larger
 * than 200 KB"); it is still saved in the browser (./persist.ts).
 */
export const MAX_VIEW_CHARS = 200_000;
/**
 * Room for the time view's scheduled events on top of {@link MAX_VIEW_CHARS}: the model's
 * {@link MAX_EVENTS} (1,000) events of the longest kind at their widest
 * ({@link MAX_EVENT_JSON_CHARS}, 359 characters: a `kill-pod` at 24 h naming a 317-character
 * `namespace/name`), each with its comma: 360,000 characters. So a link carries every run the
 * model accepts, whatever its events, beside a view that fits 200 KB (issue 16: it once allowed
 * 200 events against the model's 1,000, and a view with 201 got no link).
 */
export const MAX_EVENTS_CHARS = MAX_EVENTS * (MAX_EVENT_JSON_CHARS + 1);
/**
 * At most this many characters of JSON once decompressed: {@link MAX_VIEW_CHARS} +
 * {@link MAX_EVENTS_CHARS} (560 KB). The bounded decompressor stops there (./lz.ts).
 */
export const MAX_DECODED_CHARS = MAX_VIEW_CHARS + MAX_EVENTS_CHARS;
/**
 * At most this many characters in the link's data. lz-string writes 6 bits per character, and
 * up to about 5 characters per input character on text that does not compress; reading is
 * linear in the input and bounded in its output, so this only turns away absurd input early.
 */
export const MAX_ENCODED_CHARS = 1_000_000;
const MAX_FAILED_NODES = 1_000;
/** Objects a link or saved view may hold (more are refused when one is read). */
export const MAX_OBJECTS = 5_000;
const MAX_DEPTH = 64;
const MAX_STEP = 100_000;
const MAX_SEED = 2 ** 53 - 1;

/** Said by {@link shareLink} while the compressor is still loading (./compress.ts). */
export const LINK_NOT_READY = 'the link is still being prepared';

/**
 * The view as `#s=<data>`, compressed with `compress` (by default the loaded compressor,
 * ./compress.ts; tests and scripts may pass lz-string's `compressToEncodedURIComponent`).
 * @throws {Error} when no `compress` is given and the compressor has not loaded yet.
 */
export function encodeState(state: SharedState, compress?: Compress): string {
  const json = JSON.stringify(state);
  const data = compress ? compress(json) : compressNow(json);
  if (data === undefined) throw new Error(`${LINK_NOT_READY}: await loadCompressor() first`);
  return HASH_PREFIX + data;
}

/** Whether `state` holds more objects than a link or saved view may ({@link MAX_OBJECTS}). */
export function tooManyObjects(state: SharedState): boolean {
  return (state.objects?.length ?? 0) > MAX_OBJECTS;
}

/**
 * The view as `#s=<data>` when a link can carry it — the link is decoded again, so it is one
 * this app will open — otherwise why not (a scenario too large for a link; `pending` while the
 * compressor is still loading, ./compress.ts).
 */
export function shareLink(
  state: SharedState,
): { ok: true; hash: string } | { ok: false; reason: string; pending?: true } {
  // Known too large without writing out 10,000 Pods (seconds of main-thread work in all).
  if (tooManyObjects(state))
    return {
      ok: false,
      reason: `the view has more than ${MAX_OBJECTS.toLocaleString('en-US')} objects`,
    };
  const events = state.time?.events ?? [];
  if (events.length > MAX_EVENTS) return { ok: false, reason: tooManyEvents() };
  const json = JSON.stringify(state);
  const size = sizeProblem(json.length, events, 'the view');
  if (size) return { ok: false, reason: size };
  const data = compressNow(json);
  if (data === undefined) return { ok: false, reason: LINK_NOT_READY, pending: true };
  const hash = HASH_PREFIX + data;
  const back = decodeState(hash);
  return back.ok ? { ok: true, hash } : { ok: false, reason: back.reason };
}

/**
 * Why a view of `chars` characters of JSON, holding `events`, is too large for a link; null when
 * it is not. `what` starts the message ("the view", "the view in the link").
 */
function sizeProblem(chars: number, events: readonly TimelineEvent[], what: string): string | null {
  const eventChars = events.length === 0 ? 0 : JSON.stringify(events).length;
  // The whole bound can be passed with a view that fits only by names escaped in JSON.
  const limit =
    chars - eventChars > MAX_VIEW_CHARS
      ? MAX_VIEW_CHARS
      : chars > MAX_DECODED_CHARS
        ? MAX_DECODED_CHARS
        : 0;
  return limit > 0 ? `${what} is larger than ${limit / 1000} KB` : null;
}

const DAMAGED =
  'the link is damaged or incomplete (part of it may have been lost when it was copied)';

/**
 * Reads a view from a URL fragment (`#s=<data>`, or `s=<data>`, or the data alone).
 * Never throws.
 */
export function decodeState(hash: string): DecodeResult {
  try {
    return decode(hash);
  } catch (_) {
    // Every step above is checked; this is only a last line of defence.
    return { ok: false, reason: DAMAGED };
  }
}

function decode(hash: string): DecodeResult {
  if (typeof hash !== 'string') return { ok: false, reason: 'the link is not text' };
  let data = hash.startsWith('#') ? hash.slice(1) : hash;
  if (data.startsWith('s=')) data = data.slice(2);
  if (data.length === 0) return { ok: false, reason: 'the link holds no view (nothing after #s=)' };
  if (data.length > MAX_ENCODED_CHARS)
    return { ok: false, reason: `the link is too long (over ${MAX_ENCODED_CHARS} characters)` };
  if (data.includes('%')) {
    // A mail client or chat app may have percent-encoded '$' or '+'.
    try {
      data = decodeURIComponent(data);
    } catch (_) {
      return { ok: false, reason: DAMAGED };
    }
  }
  const unpacked = decompressBounded(data, MAX_DECODED_CHARS);
  if (!unpacked.ok) {
    switch (unpacked.problem) {
      case 'alphabet':
        return {
          ok: false,
          reason:
            'the link contains characters that a link to this app never contains (it may have been changed when it was copied)',
        };
      case 'too-large':
        return {
          ok: false,
          reason: `the view in the link is larger than ${MAX_DECODED_CHARS / 1000} KB`,
        };
      case 'damaged':
        return { ok: false, reason: DAMAGED };
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(unpacked.text);
  } catch (_) {
    return { ok: false, reason: DAMAGED };
  }
  const checked = validateSharedState(value, 'the link');
  if (!checked.ok) return checked;
  const size = sizeProblem(
    unpacked.text.length,
    checked.state.time?.events ?? [],
    'the view in the link',
  );
  return size ? { ok: false, reason: size } : checked;
}

function sceneOf(value: unknown): SceneOptions {
  if (!isPlainObject(value)) return fail('scene must be an object');
  onlyKeys(
    value,
    [
      'externalTrafficPolicy',
      'ipMode',
      'delivery',
      'implementation',
      'published',
      'failedNodes',
      'client',
      'dial',
      'choices',
      'proxyMode',
      'seed',
      'service',
      'port',
      'downNodes',
    ],
    'scene',
  );
  const published = own(value, 'published');
  if (typeof published !== 'boolean') fail('scene.published must be true or false');
  const failed = own(value, 'failedNodes');
  if (!Array.isArray(failed)) fail('scene.failedNodes must be a list');
  if (failed.length > MAX_FAILED_NODES)
    fail(`scene.failedNodes has more than ${MAX_FAILED_NODES} entries`);
  const scene: SceneOptions = {
    externalTrafficPolicy: oneOf(
      own(value, 'externalTrafficPolicy'),
      ['Cluster', 'Local'],
      'scene.externalTrafficPolicy',
    ),
    ipMode: oneOf(own(value, 'ipMode'), ['VIP', 'Proxy'], 'scene.ipMode'),
    delivery: oneOf(own(value, 'delivery'), ['NodePort', 'LoadBalancerIP'], 'scene.delivery'),
    published,
    failedNodes: failed.map((n, i) => name(n, `scene.failedNodes[${i}]`)),
    client: name(own(value, 'client'), 'scene.client'),
    dial: dialOf(own(value, 'dial')),
    choices: choicesOf(own(value, 'choices')),
    seed: integer(own(value, 'seed'), -MAX_SEED, MAX_SEED, 'scene.seed'),
  };
  if (has(value, 'proxyMode'))
    scene.proxyMode = oneOf(
      own(value, 'proxyMode'),
      ['iptables', 'nftables', 'ipvs'],
      'scene.proxyMode',
    );
  if (has(value, 'implementation'))
    scene.implementation = oneOf(
      own(value, 'implementation'),
      LOAD_BALANCER_IMPLEMENTATIONS,
      'scene.implementation',
    );
  if (has(value, 'service')) scene.service = name(own(value, 'service'), 'scene.service');
  if (has(value, 'port')) scene.port = name(own(value, 'port'), 'scene.port');
  if (has(value, 'downNodes')) scene.downNodes = names(own(value, 'downNodes'), 'scene.downNodes');
  return scene;
}

/** A bounded list of names (node names). */
function names(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) return fail(`${path} must be a list`);
  if (value.length > MAX_FAILED_NODES) fail(`${path} has more than ${MAX_FAILED_NODES} entries`);
  return value.map((n, i) => name(n, `${path}[${i}]`));
}

function dialOf(value: unknown): SceneOptions['dial'] {
  if (!isPlainObject(value)) return fail('scene.dial must be an object');
  const kind = oneOf(
    own(value, 'kind'),
    ['LoadBalancer', 'NodePort', 'ClusterIP'],
    'scene.dial.kind',
  );
  if (kind === 'NodePort') {
    onlyKeys(value, ['kind', 'nodeName'], 'scene.dial');
    return { kind, nodeName: name(own(value, 'nodeName'), 'scene.dial.nodeName') };
  }
  onlyKeys(value, ['kind'], 'scene.dial');
  return { kind };
}

function choicesOf(value: unknown): SceneOptions['choices'] {
  if (!isPlainObject(value)) return fail('scene.choices must be an object');
  onlyKeys(value, ['lbTarget', 'endpoint', 'rotation'], 'scene.choices');
  const choices: SceneOptions['choices'] = {};
  if (has(value, 'lbTarget'))
    choices.lbTarget = name(own(value, 'lbTarget'), 'scene.choices.lbTarget');
  if (has(value, 'endpoint'))
    choices.endpoint = name(own(value, 'endpoint'), 'scene.choices.endpoint');
  if (has(value, 'rotation'))
    choices.rotation = names(own(value, 'rotation'), 'scene.choices.rotation');
  return choices;
}

/**
 * Checks one JSON value inside an object: only JSON types, no forbidden keys, bounded depth.
 * Iterative, so a deeply nested value cannot exhaust the stack.
 */
function checkJson(root: unknown, rootPath: string): void {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: root, path: rootPath, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) fail(`${path} is not a finite number`);
      continue;
    }
    if (depth >= MAX_DEPTH) fail(`${rootPath} is nested more than ${MAX_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${path}[${i}]`, depth: depth + 1 }));
      continue;
    }
    if (!isPlainObject(value)) fail(`${path} is not plain data`);
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) fail(`${path} has a forbidden key "${key}"`);
      stack.push({ value: value[key], path: `${path}.${truncate(key)}`, depth: depth + 1 });
    }
  }
}

function objectsOf(value: unknown): ScenarioObject[] {
  if (!Array.isArray(value)) return fail('objects must be a list');
  if (value.length > MAX_OBJECTS) fail(`objects has more than ${MAX_OBJECTS} entries`);
  value.forEach((o, i) => {
    if (!isPlainObject(o)) fail(`objects[${i}] must be an object`);
    const kind = own(o, 'kind');
    if (typeof kind !== 'string' || kind.length === 0 || kind.length > MAX_NAME)
      fail(`objects[${i}].kind must be a non-empty string`);
    checkJson(o, `objects[${i}]`);
  });
  return value as ScenarioObject[];
}

/**
 * Checks a parsed value (from a link or from storage) field by field and returns a fresh
 * {@link SharedState} holding only known fields. `what` names the source in version messages
 * ("the link", "the saved view"). Never throws.
 */
export function validateSharedState(value: unknown, what: string): ValidateResult {
  try {
    return { ok: true, state: validate(value, what) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message };
    return { ok: false, reason: `${what} could not be read` };
  }
}

function validate(value: unknown, what: string): SharedState {
  if (!isPlainObject(value)) return fail(`${what} does not hold a view of this app`);
  const v = own(value, 'v');
  if (typeof v !== 'number' || !Number.isFinite(v))
    return fail(`${what} does not hold a view of this app (it has no format version)`);
  if (v > SHARE_VERSION)
    return fail(
      `${what} is from a newer version of this app (format ${v}; this version reads format ${SHARE_VERSION})`,
    );
  if (v !== SHARE_VERSION)
    return fail(
      `${what} is from an older version of this app (format ${v}; this version reads format ${SHARE_VERSION})`,
    );
  onlyKeys(value, ['v', 'objects', 'scene', 'step', 'story', 'node', 'time'], what);
  const story = own(value, 'story');
  const state: SharedState = {
    v: SHARE_VERSION,
    scene: sceneOf(own(value, 'scene')),
    step: integer(own(value, 'step'), -1, MAX_STEP, 'step'),
    story:
      story === null
        ? null
        : integer(story, 0, DEFAULT_WALKTHROUGH.steps.length - 1, 'story (the walkthrough step)'),
  };
  if (has(value, 'objects')) state.objects = objectsOf(own(value, 'objects'));
  if (has(value, 'node')) state.node = name(own(value, 'node'), 'node');
  if (has(value, 'time')) state.time = timeOf(own(value, 'time'));
  return state;
}
