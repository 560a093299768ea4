/**
 * No raw runtime error ever reaches a user (issue 14 point 8; issue 15 point 7, ≥ 10,000
 * generated manifests). A small cluster's manifest gets one of its values replaced by
 * something hostile — deep nesting, `!!binary` (good and bad base64), every YAML 1.1 tag,
 * anchors that point at themselves, huge and odd strings, odd numbers, prototype keys — and:
 * - the importer (the one the app and the CLI share) never throws;
 * - every problem is worded by us or by the API server, never a JavaScript error's text;
 * - whatever it accepts, the model runs: `runScene` and a node's rules either work or
 *   refuse with a `ScenarioError` (ours, naming the field), never a `TypeError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importSources } from './importer';
import { runScene, ScenarioError } from '../index';
import { DEFAULT_SCENE } from '../scenario/scene';

/** Three nodes' worth of cluster, short so that 10,000 runs stay within seconds. */
const BASE = `apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  conditions: [{type: Ready, status: "True"}]
  addresses: [{type: InternalIP, address: 192.168.0.11}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: default
  labels: {app: web}
spec:
  nodeName: node-1
  containers: [{name: web, image: nginx}]
status:
  podIP: 10.244.1.5
  conditions: [{type: Ready, status: "True"}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
  type: LoadBalancer
  clusterIP: 10.96.0.50
  externalTrafficPolicy: Local
  healthCheckNodePort: 32000
  selector: {app: web}
  ports:
  - name: http
    port: 80
    targetPort: 8080
    nodePort: 31000
status:
  loadBalancer:
    ingress: [{ip: 203.0.113.10}]
`;

const LINES = BASE.split('\n');
/** Lines that hold `key: value` with a value to replace. */
const VALUE_LINES = LINES.flatMap((l, i) => (/^\s*(?:- )?[A-Za-z]+: \S/.test(l) ? [i] : []));

/** What a JavaScript runtime error looks like; none of it may reach the problem list. */
const RAW =
  /Maximum call stack|is not a function|Cannot read propert|Cannot convert|of undefined|of null|Failed to execute|Invalid regular expression|RangeError|TypeError|ReferenceError|internal error|\[object Object\]|is not iterable|\bundefined\b/;

const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 300 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 300 }).map((n) => '{a: '.repeat(n) + '1' + '}'.repeat(n)),
  fc.base64String({ maxLength: 40 }).map((b) => `!!binary ${b || '""'}`),
  fc.string({ maxLength: 12 }).map((s) => `!!binary ${JSON.stringify(s)}`),
  fc.constantFrom(
    '!!set {a, b}',
    '!!omap [a: 1, b: 2]',
    '!!pairs [a: 1, a: 2]',
    '!!timestamp 2001-12-14t21:59:43.10-05:00',
    '2001-12-14',
    '!!float .nan',
    '.nan',
    '-.inf',
    '!!int 0x1F',
    '0o17',
    '1e400',
    '-0',
    '99999999999999999999999',
    '!!null ~',
    '~',
    '""',
    '!!str 80',
    '!!bool yes',
    'yes',
    '!foo bar',
    '!!js/function "function(){}"',
    '&a [*a]',
    '&a {x: *a}',
    '*missing',
    '{__proto__: {polluted: 1}}',
    '{constructor: {prototype: {x: 1}}}',
    '[__proto__]',
    '"a\\u0000b"',
    '"\\x7f\\e"',
    '"name\\"><img src=x>"',
    "'-1'",
    '[1, [2, [3]]]',
    '{? [a, b] : c}',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }).map((s) => JSON.stringify(s)),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** BASE with the value on line `at` replaced by `value`. */
function mutate(at: number, value: string): string {
  const lines = [...LINES];
  const line = lines[at] ?? '';
  const key = /^(\s*(?:- )?[A-Za-z]+: )/.exec(line)?.[1] ?? '';
  lines[at] = `${key}${value}`;
  return lines.join('\n');
}

function noRawErrorReachesTheUser(text: string): void {
  const imported = importSources([{ name: 'fuzz.yaml', text }]);
  for (const p of imported.problems) expect(p.message, text).not.toMatch(RAW);
  expect(imported.blocked).not.toMatch(RAW);
  if (imported.blocked) return;
  try {
    const result = runScene(imported.objects, DEFAULT_SCENE);
    const node = Object.keys(result.rules)[0];
    if (node !== undefined) expect(result.rules[node]?.lines.length).toBeGreaterThan(0);
  } catch (e) {
    // The model may refuse what it cannot do (ours, naming the field), never crash.
    expect(e, `${String(e)}\n---\n${text}`).toBeInstanceOf(ScenarioError);
    expect((e as Error).message).not.toMatch(RAW);
  }
}

describe('hostile values in a manifest never reach the user as a raw error', () => {
  it('BASE itself imports and runs', () => {
    const imported = importSources([{ name: '', text: BASE }]);
    expect(imported.errors).toBe(0);
    expect(imported.blocked).toBe('');
    expect(runScene(imported.objects, DEFAULT_SCENE).trace.outcome.kind).toBe('delivered');
    expect(VALUE_LINES.length).toBeGreaterThan(20);
  });

  it('10,000 generated manifests', { timeout: 240_000 }, () => {
    fc.assert(
      fc.property(fc.constantFrom(...VALUE_LINES), hostile, (at, value) =>
        noRawErrorReachesTheUser(mutate(at, value)),
      ),
      { numRuns: 10_000, seed: Number(process.env.FUZZ_SEED ?? 20261204) },
    );
  });

  it('two hostile values at once, and whole documents of hostile YAML', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALUE_LINES),
        hostile,
        fc.constantFrom(...VALUE_LINES),
        hostile,
        (a, x, b, y) => {
          const lines = mutate(a, x).split('\n');
          noRawErrorReachesTheUser(
            mutate(b, y)
              .split('\n')
              .map((l, i) => (i === a ? lines[i] : l))
              .join('\n'),
          );
          noRawErrorReachesTheUser(`${x}\n---\n${y}`);
        },
      ),
      { numRuns: 1_000, seed: 4 },
    );
  });
});
