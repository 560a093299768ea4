import fc from 'fast-check';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH, canonicalObjects } from '../../model';
import type { SceneOptions } from '../../model/scenario/scene';
import type { ScenarioObject } from '../../model/k8s/objects';
import { createAppStore } from '../store';
import {
  HASH_PREFIX,
  MAX_DECODED_CHARS,
  decodeState,
  encodeState,
  shareLink,
  validateSharedState,
} from './link';
import type { DecodeResult, SharedState } from './link';
import { URI_SAFE_ALPHABET, decompressBounded } from './lz';
import { snapshot } from './view';

const pack = (value: unknown) =>
  HASH_PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(value));

/**
 * lz-string data whose every code repeats the newest dictionary entry plus one character:
 * `codes` codes expand to about codes²/2 characters of 'a'.
 */
function lzBomb(codes: number): string {
  const out: string[] = [];
  let val = 0;
  let position = 0;
  const write = (value: number, bits: number) => {
    for (let i = 0; i < bits; i++, value >>= 1) {
      val = (val << 1) | (value & 1);
      if (++position === 6) {
        out.push(URI_SAFE_ALPHABET[val]!);
        val = 0;
        position = 0;
      }
    }
  };
  write(0, 2);
  write('a'.charCodeAt(0), 8);
  let dictSize = 4;
  let enlargeIn = 4;
  let numBits = 3;
  for (let i = 0; i < codes; i++) {
    write(dictSize, numBits);
    dictSize++;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  }
  write(2, numBits);
  while (position !== 0) write(0, 1);
  return out.join('');
}

const view = (patch: Partial<SharedState> = {}): SharedState => ({
  v: 1,
  scene: DEFAULT_SCENE,
  step: -1,
  story: null,
  ...patch,
});

function reasonOf(r: DecodeResult): string {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.state)}`);
  return r.reason;
}

/** Every value of every toggle, one scene each. */
const TOGGLED: Partial<SceneOptions>[] = [
  { externalTrafficPolicy: 'Local' },
  { ipMode: 'Proxy' },
  { delivery: 'LoadBalancerIP' },
  { published: false },
  { failedNodes: ['node-2'] },
  { failedNodes: ['node-1', 'node-3'] },
  { client: 'node' },
  { client: 'pod', dial: { kind: 'ClusterIP' } },
  { dial: { kind: 'NodePort', nodeName: 'node-2' } },
  { choices: { lbTarget: 'node-3' } },
  { choices: { endpoint: '10.244.3.9:8080' } },
  { choices: { lbTarget: 'node-1', endpoint: '10.244.1.5:8080' } },
  { proxyMode: 'iptables' },
  { proxyMode: 'nftables' },
  { proxyMode: 'ipvs' },
  { seed: 0 },
  { seed: 4_294_967_296 },
  { seed: -7 },
];

const name = fc.stringMatching(/^[a-z0-9][a-z0-9.:-]{0,30}$/);
const sceneArb: fc.Arbitrary<SceneOptions> = fc.record(
  {
    externalTrafficPolicy: fc.constantFrom('Cluster', 'Local'),
    ipMode: fc.constantFrom('VIP', 'Proxy'),
    delivery: fc.constantFrom('NodePort', 'LoadBalancerIP'),
    published: fc.boolean(),
    failedNodes: fc.array(name, { maxLength: 4 }),
    client: name,
    dial: fc.oneof(
      fc.constant({ kind: 'LoadBalancer' as const }),
      fc.constant({ kind: 'ClusterIP' as const }),
      name.map((nodeName) => ({ kind: 'NodePort' as const, nodeName })),
    ),
    choices: fc.record({ lbTarget: name, endpoint: name }, { requiredKeys: [] }),
    proxyMode: fc.constantFrom('iptables', 'nftables', 'ipvs'),
    seed: fc.integer(),
  },
  {
    requiredKeys: [
      'externalTrafficPolicy',
      'ipMode',
      'delivery',
      'published',
      'failedNodes',
      'client',
      'dial',
      'choices',
      'seed',
    ],
  },
) as fc.Arbitrary<SceneOptions>;

const stateArb: fc.Arbitrary<SharedState> = fc.record({
  v: fc.constant(1 as const),
  scene: sceneArb,
  step: fc.integer({ min: -1, max: 200 }),
  story: fc.option(fc.integer({ min: 0, max: DEFAULT_WALKTHROUGH.steps.length - 1 }), {
    nil: null,
  }),
});

describe('encodeState / decodeState round trip', () => {
  it('the default view: a short link without objects', () => {
    const state = snapshot(createAppStore({ story: 0 }).getState());
    expect(state.objects).toBeUndefined();
    const hash = encodeState(state);
    expect(hash.startsWith('#s=')).toBe(true);
    expect(hash).toMatch(/^#s=[A-Za-z0-9+\-$]+$/);
    expect(hash.length).toBeLessThan(400);
    expect(decodeState(hash)).toEqual({ ok: true, state });
  });

  it.each(TOGGLED.map((patch) => [JSON.stringify(patch), patch] as const))(
    'every toggle: %s',
    (_, patch) => {
      const state = view({
        scene: { ...DEFAULT_SCENE, ...patch },
        step: 3,
        story: 2,
        node: 'node-3',
      });
      expect(decodeState(encodeState(state))).toEqual({ ok: true, state });
    },
  );

  it('custom objects', () => {
    const objects = canonicalObjects();
    objects.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-4', labels: { 'topology.kubernetes.io/zone': 'é—ü 東京' } },
      status: { addresses: [{ type: 'InternalIP', address: '192.168.0.14' }] },
    } as ScenarioObject);
    const state = view({ objects, step: 0 });
    const decoded = decodeState(encodeState(state));
    expect(decoded).toEqual({ ok: true, state });
  });

  it('any valid view', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        expect(decodeState(encodeState(state))).toEqual({ ok: true, state });
      }),
    );
  });

  it('the traced Service and port, and a timeline moment (down nodes, rotation), survive a link', () => {
    // A multi-Service import picks `service`/`port`; "Open as trace" from the timeline adds
    // nodes that are down but not yet noticed, and the balancer's rotation at that moment.
    const state = view({
      scene: {
        ...DEFAULT_SCENE,
        service: 'shop/api',
        port: 'https',
        downNodes: ['node-1'],
        choices: { lbTarget: 'node-1', rotation: ['node-1', 'node-3'] },
      },
    });
    expect(decodeState(encodeState(state))).toEqual({ ok: true, state });
    const bad = view({ scene: { ...DEFAULT_SCENE, downNodes: 'node-1' as never } });
    expect(reasonOf(decodeState(encodeState(bad)))).toBe('scene.downNodes must be a list');
  });

  it('shareLink makes only links this app opens again', () => {
    const state = view({ scene: { ...DEFAULT_SCENE, ipMode: 'Proxy' } });
    expect(shareLink(state)).toEqual({ ok: true, hash: encodeState(state) });
    const big = view({ objects: [{ kind: 'X', pad: 'y'.repeat(MAX_DECODED_CHARS) } as never] });
    expect(shareLink(big)).toEqual({ ok: false, reason: 'the view is larger than 200 KB' });
    // More objects than a link may carry: refused as a reader would refuse them.
    const many = view({ objects: Array.from({ length: 5_001 }, () => ({ kind: 'X' }) as never) });
    expect(shareLink(many)).toEqual({ ok: false, reason: 'the view has more than 5,000 objects' });
    expect(reasonOf(decodeState(encodeState(many)))).toMatch(/more than 5000 entries/);
    const deep = view({
      objects: [{ kind: 'X', a: JSON.parse('['.repeat(80) + ']'.repeat(80)) }] as never,
    });
    expect(shareLink(deep)).toMatchObject({ ok: false, reason: expect.stringMatching(/nested/) });
  });

  it('reads the data with or without "#s=", and percent-encoded by a mail client', () => {
    const state = view({ scene: { ...DEFAULT_SCENE, ipMode: 'Proxy' } });
    const data = encodeState(state).slice(HASH_PREFIX.length);
    expect(decodeState(`s=${data}`)).toEqual({ ok: true, state });
    expect(decodeState(data)).toEqual({ ok: true, state });
    expect(decodeState(`#s=${encodeURIComponent(data)}`)).toEqual({ ok: true, state });
  });
});

describe('decodeState rejects bad links with a reason', () => {
  it('empty, garbage, truncated', () => {
    expect(reasonOf(decodeState('#s='))).toMatch(/holds no view/);
    expect(reasonOf(decodeState('#s=garbage'))).toMatch(/damaged or incomplete/);
    expect(reasonOf(decodeState('#s=not a link!'))).toMatch(/characters/);
    expect(reasonOf(decodeState('#s=%E0%A4%A'))).toMatch(/damaged/);
    const hash = encodeState(view({ objects: canonicalObjects() }));
    for (const cut of [hash.length - 10, Math.floor(hash.length / 2), 5])
      expect(reasonOf(decodeState(hash.slice(0, cut)))).toMatch(/damaged or incomplete/);
  });

  it('a link from another version', () => {
    expect(reasonOf(decodeState(pack({ ...view(), v: 2 })))).toMatch(/newer version/);
    expect(reasonOf(decodeState(pack({ ...view(), v: 0 })))).toMatch(/older version/);
    expect(reasonOf(decodeState(pack({ ...view(), v: '1' })))).toMatch(/no format version/);
    expect(reasonOf(decodeState(pack([1, 2])))).toMatch(/does not hold a view/);
    expect(reasonOf(decodeState(pack('x')))).toMatch(/does not hold a view/);
  });

  it('prototype keys, anywhere', () => {
    const json = JSON.stringify(view());
    const inject = (at: string, key: string) =>
      HASH_PREFIX +
      LZString.compressToEncodedURIComponent(json.replace(at, `${at}"${key}":{"polluted":1},`));
    expect(reasonOf(decodeState(inject('{', '__proto__')))).toMatch(/forbidden key "__proto__"/);
    expect(reasonOf(decodeState(inject('"scene":{', 'constructor')))).toMatch(
      /scene has a forbidden key "constructor"/,
    );
    const withChoice = JSON.stringify(
      view({ scene: { ...DEFAULT_SCENE, choices: { lbTarget: 'node-1' } } }),
    ).replace('"choices":{', '"choices":{"__proto__":{"lbTarget":"x"},');
    expect(
      reasonOf(decodeState(HASH_PREFIX + LZString.compressToEncodedURIComponent(withChoice))),
    ).toMatch(/scene\.choices has a forbidden key "__proto__"/);
    const objects = JSON.stringify([{ kind: 'Node', metadata: { labels: {} } }]).replace(
      '"labels":{',
      '"labels":{"__proto__":{"polluted":1}',
    );
    const withObjects = json.replace('{', `{"objects":${objects},`);
    expect(
      reasonOf(decodeState(HASH_PREFIX + LZString.compressToEncodedURIComponent(withObjects))),
    ).toMatch(/objects\[0\]\.metadata\.labels has a forbidden key "__proto__"/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('every field is checked', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...view(), extra: 1 }, /unknown field "extra"/],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, ipMode: 'vip' } },
        /scene\.ipMode must be one of VIP, Proxy/,
      ],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, externalTrafficPolicy: 1 } },
        /externalTrafficPolicy/,
      ],
      [{ ...view(), scene: { ...DEFAULT_SCENE, delivery: null } }, /scene\.delivery/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, published: 'yes' } }, /scene\.published/],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, failedNodes: 'node-1' } },
        /failedNodes must be a list/,
      ],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, failedNodes: [1] } },
        /failedNodes\[0\] must be a string/,
      ],
      [{ ...view(), scene: { ...DEFAULT_SCENE, client: '' } }, /scene\.client must be 1 to 253/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, client: 'x'.repeat(300) } }, /scene\.client/],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, dial: { kind: 'NodePort' } } },
        /scene\.dial\.nodeName/,
      ],
      [{ ...view(), scene: { ...DEFAULT_SCENE, dial: { kind: 'Ingress' } } }, /scene\.dial\.kind/],
      [
        { ...view(), scene: { ...DEFAULT_SCENE, dial: { kind: 'ClusterIP', nodeName: 'x' } } },
        /unknown field "nodeName"/,
      ],
      [{ ...view(), scene: { ...DEFAULT_SCENE, choices: { lbTarget: 3 } } }, /choices\.lbTarget/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, choices: [] } }, /scene\.choices must be an object/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, proxyMode: 'userspace' } }, /scene\.proxyMode/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, seed: 1.5 } }, /scene\.seed must be a whole number/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, seed: 2 ** 60 } }, /scene\.seed must be between/],
      [{ ...view(), scene: { ...DEFAULT_SCENE, theme: 'dark' } }, /unknown field "theme"/],
      [{ ...view(), scene: undefined }, /scene must be an object/],
      [{ ...view(), step: -2 }, /step must be between -1/],
      [{ ...view(), step: '3' }, /step must be a whole number/],
      [{ ...view(), story: 99 }, /story/],
      [{ ...view(), story: undefined }, /story/],
      [{ ...view(), node: 7 }, /node must be a string/],
      [{ ...view(), objects: {} }, /objects must be a list/],
      [{ ...view(), objects: [null] }, /objects\[0\] must be an object/],
      [{ ...view(), objects: [{ apiVersion: 'v1' }] }, /objects\[0\]\.kind/],
      [{ ...view(), objects: [{ kind: 5 }] }, /objects\[0\]\.kind/],
    ];
    for (const [value, reason] of bad) expect(reasonOf(decodeState(pack(value)))).toMatch(reason);
  });

  it('numbers must be finite (1e400 parses to Infinity)', () => {
    const json = JSON.stringify(view()).replace('"step":-1', '"step":1e400');
    expect(
      reasonOf(decodeState(HASH_PREFIX + LZString.compressToEncodedURIComponent(json))),
    ).toMatch(/step must be a whole number/);
    const obj = JSON.stringify({ ...view(), objects: [{ kind: 'Node', x: 0 }] }).replace(
      '"x":0',
      '"x":-1e999',
    );
    expect(
      reasonOf(decodeState(HASH_PREFIX + LZString.compressToEncodedURIComponent(obj))),
    ).toMatch(/objects\[0\]\.x is not a finite number/);
  });

  it('deep nesting and size are bounded', () => {
    const deep = `{"v":1,"scene":${JSON.stringify(DEFAULT_SCENE)},"step":-1,"story":null,"objects":[{"kind":"X","a":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
    expect(
      reasonOf(decodeState(HASH_PREFIX + LZString.compressToEncodedURIComponent(deep))),
    ).toMatch(/nested more than 64 levels/);
    // Past what the decompressor writes out: 200 KB of view + room for 1,000 of the widest
    // events (360,000 characters, link.ts MAX_EVENTS_CHARS).
    const big = view({ objects: [{ kind: 'X', pad: 'y'.repeat(MAX_DECODED_CHARS) } as never] });
    expect(reasonOf(decodeState(encodeState(big)))).toBe(
      'the view in the link is larger than 560 KB',
    );
    // Under that, but more than 200 KB that are not scheduled events: refused as shareLink would.
    const objects = view({ objects: [{ kind: 'X', pad: 'y'.repeat(250_000) } as never] });
    expect(reasonOf(decodeState(encodeState(objects)))).toBe(
      'the view in the link is larger than 200 KB',
    );
    // An 85 KB link that would expand to (n + 1)(n + 2) / 2 = 544,549,503 characters, more than
    // any JavaScript string can hold (V8's limit is 2^29 - 24 = 536,870,888): a decoder that
    // expanded it before checking the size would fail with a RangeError instead of this reason,
    // so the reason proves it stopped early (no stopwatch: a busy machine must not fail it).
    const codes = 33_000;
    expect(((codes + 1) * (codes + 2)) / 2).toBeGreaterThan(2 ** 29 - 24);
    const bomb = HASH_PREFIX + lzBomb(codes);
    expect(bomb.length).toBeLessThan(90_000);
    expect(reasonOf(decodeState(bomb))).toBe('the view in the link is larger than 560 KB');
  });
});

/** lz-string's URI-safe characters (and what it writes), for the fuzzers. */
const linkChar = fc.constantFrom(...URI_SAFE_ALPHABET);

function expectSafe(r: DecodeResult): void {
  if (r.ok) {
    // Whatever got through is exactly what validation accepts, and encodes back.
    expect(validateSharedState(JSON.parse(JSON.stringify(r.state)), 'x')).toEqual(r);
    expect(decodeState(encodeState(r.state))).toEqual(r);
  } else {
    expect(typeof r.reason).toBe('string');
    expect(r.reason.length).toBeGreaterThan(10);
  }
}

/**
 * The fuzzers decode a few hundred links each (up to ~2,000 for the truncations): 0.5-2.2 s per
 * test alone on a loaded 2-core machine, so more than vitest's 5 s default when the whole suite
 * runs there in parallel. Their budget is explicit.
 */
const FUZZ = { timeout: 30_000 };

describe('decodeState never throws (fuzz)', FUZZ, () => {
  const valid = encodeState(
    view({
      objects: canonicalObjects(),
      scene: { ...DEFAULT_SCENE, failedNodes: ['node-2'], proxyMode: 'ipvs' },
      step: 4,
      story: 1,
      node: 'node-2',
    }),
  );

  it('random strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: linkChar })),
        (s) => {
          expectSafe(decodeState(s));
          expectSafe(decodeState(HASH_PREFIX + s));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('truncations of a valid link: rejected, or (when only padding was cut) the same view', () => {
    const whole = decodeState(valid);
    expect(whole.ok).toBe(true);
    for (let cut = 0; cut < valid.length; cut++) {
      const r = decodeState(valid.slice(0, cut));
      if (r.ok) expect(r).toEqual(whole);
      else expectSafe(r);
    }
  });

  it('bit flips and replaced characters in a valid link', () => {
    const data = valid.slice(HASH_PREFIX.length);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: data.length - 1 }),
        fc.integer({ min: 0, max: 5 }),
        fc.option(fc.string({ minLength: 1, maxLength: 3 }), { nil: undefined }),
        (at, bit, replacement) => {
          const value = URI_SAFE_ALPHABET.indexOf(data[at]!);
          const flipped = replacement ?? URI_SAFE_ALPHABET[value ^ (1 << bit)]!;
          expectSafe(decodeState(HASH_PREFIX + data.slice(0, at) + flipped + data.slice(at + 1)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('random JSON values, compressed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => expectSafe(decodeState(pack(value)))),
      { numRuns: 500 },
    );
  });

  it('views with random values in random fields, compressed', () => {
    const tampered = fc
      .tuple(
        stateArb,
        fc.constantFrom('v', 'scene', 'step', 'story', 'node', 'objects', 'extra'),
        fc.jsonValue(),
      )
      .map(([state, key, value]) => ({ ...state, [key]: value }));
    const sceneTampered = fc
      .tuple(
        stateArb,
        fc.constantFrom(...(Object.keys(DEFAULT_SCENE) as string[]), 'proxyMode', '__proto__'),
        fc.jsonValue(),
      )
      .map(([state, key, value]) => ({ ...state, scene: { ...state.scene, [key]: value } }));
    fc.assert(
      fc.property(fc.oneof(tampered, sceneTampered), (value) =>
        expectSafe(decodeState(pack(value))),
      ),
      { numRuns: 1000 },
    );
  });
});

describe('decompressBounded (lz-string, with a limit)', FUZZ, () => {
  it('reads whatever lz-string writes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 1 }),
          fc.string({ unit: 'binary', minLength: 1 }),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const packed = LZString.compressToEncodedURIComponent(text);
          expect(decompressBounded(packed, 1e6)).toEqual({ ok: true, text });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agrees with lz-string wherever it succeeds', () => {
    fc.assert(
      fc.property(fc.string({ unit: linkChar, minLength: 1, maxLength: 200 }), (s) => {
        const mine = decompressBounded(s, 1e6);
        if (mine.ok) expect(mine.text).toBe(LZString.decompressFromEncodedURIComponent(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with lz-string on damaged real data', () => {
    const data = LZString.compressToEncodedURIComponent(JSON.stringify(canonicalObjects()));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: data.length - 1 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: data.length }),
        (at, bit, cut) => {
          const flipped =
            data.slice(0, at) +
            URI_SAFE_ALPHABET[URI_SAFE_ALPHABET.indexOf(data[at]!) ^ (1 << bit)]! +
            data.slice(at + 1);
          for (const damaged of [flipped, data.slice(0, cut)]) {
            const mine = decompressBounded(damaged, 1e7);
            if (mine.ok)
              expect(mine.text).toBe(LZString.decompressFromEncodedURIComponent(damaged));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the lz bomb of the tests is real lz-string data', () => {
    const text = 'a'.repeat((12 * 13) / 2);
    expect(LZString.decompressFromEncodedURIComponent(lzBomb(11))).toBe(text);
    expect(decompressBounded(lzBomb(11), 1e6)).toEqual({ ok: true, text });
  });

  it('stops at the limit', () => {
    const packed = LZString.compressToEncodedURIComponent('abc'.repeat(1000));
    expect(decompressBounded(packed, 3000)).toEqual({ ok: true, text: 'abc'.repeat(1000) });
    expect(decompressBounded(packed, 2999)).toEqual({ ok: false, problem: 'too-large' });
    expect(decompressBounded('', 10)).toEqual({ ok: false, problem: 'damaged' });
    expect(decompressBounded('ab!', 10)).toEqual({ ok: false, problem: 'alphabet' });
  });
});
