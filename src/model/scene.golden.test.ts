/**
 * The scene model's golden record: for a matrix of scenarios and toggles, SHA-256 of
 * `JSON.stringify` of what the model answers — `fillGaps` (objects and assumptions), the bound
 * walkthrough, and `runScene`'s trace, balancer targets and every node's full rule set
 * (lines with their rule ids and chains) in each kube-proxy mode.
 *
 * The walkthrough is bound for the first LoadBalancer Service and for each Service by name.
 *
 * Scenarios: the canonical scenario, every shipped example (public/examples/index.json), the
 * importer's fixtures (src/model/import/fixtures) and a small generated cluster; each also
 * with its EndpointSlices and Nodes removed (so the gap filler derives them). Toggles, in each
 * of the iptables, nftables and IPVS modes: the defaults; each policy, ipMode, delivery and
 * balancer implementation; unpublished; a failed and a not-yet-noticed-down node; every client
 * dialling the balancer, each node's NodePort, the ClusterIP and the first externalIP via each
 * node; every Service and port; the balancer pinned to each node; three seeds. Every node's rules are hashed for the scenes
 * that change them.
 *
 * This is not a check of Kubernetes behaviour (the other tests are): it pins the output so that
 * a pure refactoring (issue 16: splitting `trace`, the rule generators, the gap filler and the
 * walkthrough binder into smaller functions) can be proven byte-identical. The hashes in
 * scene.golden.json were written before those splits. A scene the model rejects is recorded by
 * its error message. To see a difference: `SCENE_GOLDEN_DUMP=/tmp/scene npx vitest run
 * src/model/scene.golden` writes each group's JSON there (diff two dumps);
 * `SCENE_GOLDEN_UPDATE=1` rewrites scene.golden.json — only for a change of behaviour that is
 * meant, in its own commit that says so.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from './index';
import type { ScenarioObject, SceneOptions } from './index';
import { fillGaps } from './import/fill';
import { loadObjects } from './import/load';
import { resolveCluster } from './scenario/resolve';
import { generatedCluster } from './scenario/generated';
import { bindWalkthrough } from './walkthrough/bind';
import { NODEPORT_TO_LOADBALANCER_STORY } from './walkthrough/nodePortToLoadBalancer';
import { LOAD_BALANCER_IMPLEMENTATIONS } from './k8s/objects';

const GOLDEN = 'src/model/scene.golden.json';
const EXAMPLES = 'public/examples';
const FIXTURES = 'src/model/import/fixtures';
const MODES = ['iptables', 'nftables', 'ipvs'] as const;

interface Input {
  name: string;
  /** The objects as given (before the gap filler). */
  raw: ScenarioObject[];
}

function inputs(): Input[] {
  const index = JSON.parse(readFileSync(`${EXAMPLES}/index.json`, 'utf8')) as { file: string }[];
  const out: Input[] = [{ name: 'canonical', raw: canonicalObjects() }];
  for (const { file } of index)
    out.push({
      name: `example-${file.replace(/\.yaml$/, '')}`,
      raw: loadObjects(readFileSync(`${EXAMPLES}/${file}`, 'utf8')).objects,
    });
  for (const file of readdirSync(FIXTURES).sort())
    out.push({
      name: `fixture-${file.replace(/\.\w+$/, '')}`,
      raw: loadObjects(readFileSync(`${FIXTURES}/${file}`, 'utf8')).objects,
    });
  out.push({ name: 'generated-5x20', raw: generatedCluster({ nodes: 5, pods: 20 }) });
  // The same inputs without what the gap filler can derive.
  for (const i of [...out])
    out.push({
      name: `${i.name}-bare`,
      raw: i.raw.filter((o) => o.kind !== 'EndpointSlice' && o.kind !== 'Node'),
    });
  return out;
}

/** Runs `f`, or records the error it throws (its message is part of the answer). */
function attempt<T>(f: () => T): T | { error: string } {
  try {
    return f();
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/** The scenes of one scenario in one mode, by label. */
function scenes(objects: ScenarioObject[], mode: (typeof MODES)[number]): [string, SceneOptions][] {
  const cluster = attempt(() => resolveCluster(objects));
  if ('error' in cluster) return [['base', { ...DEFAULT_SCENE, proxyMode: mode }]];
  const base: SceneOptions = { ...DEFAULT_SCENE, proxyMode: mode };
  const nodes = cluster.nodes.map((n) => n.name);
  const [n0 = 'none', n1 = n0] = nodes;
  const out: [string, SceneOptions][] = [
    ['base', base],
    ['local', { ...base, externalTrafficPolicy: 'Local' }],
    ['proxy', { ...base, ipMode: 'Proxy' }],
    ['lbip', { ...base, delivery: 'LoadBalancerIP' }],
    ['local-lbip', { ...base, externalTrafficPolicy: 'Local', delivery: 'LoadBalancerIP' }],
    ['unpublished', { ...base, published: false }],
    ['failed', { ...base, failedNodes: [n0] }],
    ['local-failed', { ...base, externalTrafficPolicy: 'Local', failedNodes: [n1] }],
    ['down', { ...base, downNodes: [n1] }],
    ['seed2', { ...base, seed: 2 }],
    ['seed3-local', { ...base, seed: 3, externalTrafficPolicy: 'Local' }],
  ];
  for (const impl of LOAD_BALANCER_IMPLEMENTATIONS) {
    out.push([`impl-${impl}`, { ...base, implementation: impl }]);
    out.push([
      `impl-${impl}-local`,
      { ...base, implementation: impl, externalTrafficPolicy: 'Local' },
    ]);
  }
  for (const c of cluster.clients) {
    const client = { ...base, client: c.name };
    out.push([`client-${c.name}-lb`, client]);
    out.push([`client-${c.name}-clusterip`, { ...client, dial: { kind: 'ClusterIP' } }]);
    for (const n of nodes) {
      out.push([
        `client-${c.name}-nodeport-${n}`,
        { ...client, dial: { kind: 'NodePort', nodeName: n } },
      ]);
      out.push([
        `client-${c.name}-externalip-${n}`,
        { ...client, dial: { kind: 'ExternalIP', nodeName: n } },
      ]);
    }
    out.push([
      `client-${c.name}-nodeport-local`,
      { ...client, externalTrafficPolicy: 'Local', dial: { kind: 'NodePort', nodeName: n0 } },
    ]);
  }
  for (const s of cluster.services) {
    const service = `${s.namespace}/${s.name}`;
    for (const p of s.ports) {
      out.push([`service-${service}-${p.name}`, { ...base, service, port: p.name }]);
      out.push([
        `service-${service}-${p.name}-clusterip`,
        { ...base, service, port: p.name, dial: { kind: 'ClusterIP' } },
      ]);
    }
  }
  for (const n of nodes) out.push([`pin-${n}`, { ...base, choices: { lbTarget: n } }]);
  return out;
}

/**
 * Everything `runScene` answers for `scene`; with `allRules`, every node's rules too (the
 * scenes that change only the client, the dialled address, the Service or a pinned choice
 * write the same rules as `base`, so only the trace's own rule hits are kept for those).
 */
function answer(objects: ScenarioObject[], scene: SceneOptions, allRules: boolean): unknown {
  return attempt(() => {
    const r = runScene(objects, scene);
    return {
      trace: r.trace,
      lbTargets: r.lbTargets,
      serviceKey: r.serviceKey,
      ...(allRules ? { rules: Object.keys(r.rules).map((n) => r.rules[n]) } : {}),
    };
  });
}

const SAME_RULES = /^(client|service|pin)-/;

/** Each group's serialised answer, by `scenario/group` name. */
function groups(): Map<string, string> {
  const out = new Map<string, string>();
  for (const input of inputs()) {
    const filled = attempt(() => fillGaps(input.raw));
    out.set(`${input.name}/fill`, JSON.stringify(filled));
    if ('error' in filled) continue;
    const objects = filled.objects;
    const cluster = attempt(() => resolveCluster(objects));
    const services =
      'error' in cluster ? [] : cluster.services.map((v) => `${v.namespace}/${v.name}`);
    out.set(
      `${input.name}/walkthrough`,
      JSON.stringify(
        [undefined, ...services].map((service) =>
          attempt(() =>
            bindWalkthrough(NODEPORT_TO_LOADBALANCER_STORY, resolveCluster(objects), service),
          ),
        ),
      ),
    );
    for (const mode of MODES)
      out.set(
        `${input.name}/${mode}`,
        JSON.stringify(
          scenes(objects, mode).map(([label, scene]) => [
            label,
            answer(objects, scene, !SAME_RULES.test(label)),
          ]),
        ),
      );
  }
  return out;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the scene model is byte-identical to its golden record', () => {
  const all = groups();
  const dump = process.env.SCENE_GOLDEN_DUMP;
  if (dump) {
    mkdirSync(dump, { recursive: true });
    for (const [name, json] of all)
      writeFileSync(join(dump, `${name.replace(/\//g, '__')}.json`), json);
  }
  const actual = Object.fromEntries([...all].map(([name, json]) => [name, sha(json)]));
  if (process.env.SCENE_GOLDEN_UPDATE)
    writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;

  it('covers the same groups as the record', () => {
    expect(Object.keys(actual).sort()).toEqual(Object.keys(golden).sort());
  });
  it.each(Object.keys(golden))('%s', (name) => {
    expect(actual[name]).toBe(golden[name]);
  });
});
