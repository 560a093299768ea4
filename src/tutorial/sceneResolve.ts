/**
 * Resolving a {@link SceneLink} against a scenario: the store's {@link SharedState} that
 * `openView` (src/store/share/view.ts) opens, checked key by key against the model (the
 * cluster's nodes, clients and endpoints; the trace's length; the pins the model honours).
 */
import {
  DEFAULT_SCENE,
  DEFAULT_WALKTHROUGH,
  modelledModes,
  resolveCluster,
  runScene,
  storyStepIndex,
} from '../model';
import type { Cluster, ScenarioObject, SceneOptions, SceneResult, StoryStep } from '../model';
import type { SharedState } from '../store/share/link';
import type { SceneLink, SceneLinkError } from './sceneLink';
import { parseSceneQuery } from './sceneLink';
import type { ScenarioLoader } from './scenario';
import { CANONICAL_SCENARIO, loadNamedScenario, sceneForScenario } from './scenario';

/** Where a link's scenario comes from. */
export interface ResolveOptions {
  /** Loads `scenario=<name>` (not called for `canonical`, which is `canonicalObjects()`). */
  loadScenario?: ScenarioLoader;
}

/** A link resolved: the view to open, the objects it runs on, and the model's result. */
export interface ResolvedScene {
  /** The scenario's name (`canonical` when the link names none). */
  scenario: string;
  /** What `openView` opens (`objects` left out for the canonical scenario). */
  state: SharedState;
  /** The scenario's objects (the canonical ones when the link names no scenario). */
  objects: readonly ScenarioObject[];
  /** `runScene(objects, state.scene)`. */
  result: SceneResult;
}

/** Either the resolved scene or every problem found. */
export type ResolveResult =
  { ok: true; scene: ResolvedScene } | { ok: false; errors: SceneLinkError[] };

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Resolves `link`: the scenario (`scenario=`, else canonical) and its own scene (DEFAULT_SCENE
 * for the canonical scenario), then `story=N` (step N-1 of DEFAULT_WALKTHROUGH: its scene over
 * that, its trace step by `storyStepIndex`), then every other key on top. Names of nodes,
 * clients and endpoints are checked against the cluster, `step` against the trace's length
 * (`runScene`), and a pin the model would not honour (a balancer target failing its health
 * check, an endpoint kube-proxy does not choose from on that node) is a problem too, since the
 * scene would then depend on the seed. Never throws.
 */
export function resolveSceneLink(link: SceneLink, options: ResolveOptions = {}): ResolveResult {
  const errors: SceneLinkError[] = [];
  const bad = (key: keyof SceneLink, value: unknown, message: string) =>
    errors.push({ key, value: String(value), message: `${key}=${String(value)}: ${message}` });
  const canonical = link.scenario === undefined || link.scenario === CANONICAL_SCENARIO;
  let objects: readonly ScenarioObject[];
  let cluster: Cluster;
  let scene: SceneOptions;
  try {
    objects = loadNamedScenario(link.scenario ?? CANONICAL_SCENARIO, options.loadScenario);
  } catch (e) {
    bad('scenario', link.scenario, msg(e));
    return { ok: false, errors };
  }
  try {
    cluster = resolveCluster([...objects]);
    scene = canonical ? { ...DEFAULT_SCENE } : sceneForScenario(objects);
  } catch (e) {
    bad('scenario', link.scenario ?? CANONICAL_SCENARIO, `the model cannot read it: ${msg(e)}`);
    return { ok: false, errors };
  }
  let story: StoryStep | undefined;
  if (link.story !== undefined) {
    story = DEFAULT_WALKTHROUGH.steps[link.story - 1];
    if (story) scene = { ...scene, ...story.scene };
    else bad('story', link.story, `the walkthrough has ${DEFAULT_WALKTHROUGH.steps.length} steps`);
  }
  const nodes = cluster.nodes.map((n) => n.name);
  const node = (key: keyof SceneLink, value: string, shown: unknown = value) => {
    if (nodes.includes(value)) return true;
    bad(key, shown, `no node "${value}" in the scenario (nodes: ${nodes.join(', ')})`);
    return false;
  };
  if (link.policy) scene.externalTrafficPolicy = link.policy;
  if (link.ipMode) scene.ipMode = link.ipMode;
  if (link.delivery) scene.delivery = link.delivery;
  if (link.balancer) {
    scene.implementation = link.balancer;
    // Direct server return and MetalLB keep the destination (setImplementation does the same).
    if (link.balancer !== 'NAT') scene.delivery = 'LoadBalancerIP';
  }
  if (link.published !== undefined) scene.published = link.published;
  if (link.failed) {
    const ok = link.failed.filter((n) => node('failed', n, link.failed?.join(',')));
    if (ok.length === link.failed.length) scene.failedNodes = [...link.failed];
  }
  if (link.client) {
    const clients = cluster.clients.map((c) => c.name);
    if (clients.includes(link.client)) scene.client = link.client;
    else
      bad(
        'client',
        link.client,
        `no Client "${link.client}" in the scenario (clients: ${clients.join(', ') || 'none'})`,
      );
  }
  if (link.dial) {
    if (
      link.dial.kind !== 'NodePort' ||
      node('dial', link.dial.nodeName, `nodeport:${link.dial.nodeName}`)
    )
      scene.dial = link.dial;
  }
  if (link.mode) {
    if (modelledModes().includes(link.mode)) scene.proxyMode = link.mode;
    else bad('mode', link.mode, `not modelled (modelled: ${modelledModes().join(', ')})`);
  }
  if (link.lbTarget && node('lbTarget', link.lbTarget))
    scene.choices = { ...scene.choices, lbTarget: link.lbTarget };
  if (link.endpoint) {
    const svc = cluster.services.find((x) => x.type === 'LoadBalancer') ?? cluster.services[0];
    const key = svc ? `${svc.namespace}/${svc.name}` : '';
    const all = endpointsOf(cluster, key);
    if (all.includes(link.endpoint)) scene.choices = { ...scene.choices, endpoint: link.endpoint };
    else
      bad(
        'endpoint',
        link.endpoint,
        `not an endpoint of Service ${key || '(none)'} (endpoints: ${all.join(', ') || 'none'})`,
      );
  }
  if (link.seed !== undefined) scene.seed = link.seed;
  if (link.node !== undefined) node('node', link.node);
  if (errors.length > 0) return { ok: false, errors };

  let result: SceneResult;
  try {
    result = runScene(objects, scene);
  } catch (e) {
    errors.push({ message: `the model cannot run this scene: ${msg(e)}` });
    return { ok: false, errors };
  }
  checkPins(scene, result, errors);
  const stepIndex = resolveStep(link, story, result, bad);
  if (errors.length > 0 || stepIndex === undefined) return { ok: false, errors };
  const state: SharedState = {
    v: 1,
    ...(canonical ? {} : { objects: [...objects] }),
    scene: structuredClone(scene),
    step: stepIndex,
    story: link.story !== undefined ? link.story - 1 : null,
    ...(link.node !== undefined ? { node: link.node } : {}),
  };
  return {
    ok: true,
    scene: { scenario: link.scenario ?? CANONICAL_SCENARIO, state, objects, result },
  };
}

/** {@link parseSceneQuery} then {@link resolveSceneLink}; the parse errors stop it. */
export function resolveSceneQuery(query: string, options: ResolveOptions = {}): ResolveResult {
  const parsed = parseSceneQuery(query);
  if (parsed.errors.length > 0) return { ok: false, errors: parsed.errors };
  return resolveSceneLink(parsed.link, options);
}

type Bad = (key: keyof SceneLink, value: unknown, message: string) => void;

/** Every `ip:port` of the traced Service's endpoints (all its ports, ready or not). */
export function serviceEndpoints(result: SceneResult): string[] {
  return endpointsOf(result.cluster, result.serviceKey);
}

function endpointsOf(cluster: Cluster, serviceKey: string): string[] {
  const out: string[] = [];
  for (const [key, eps] of Object.entries(cluster.endpoints))
    if (key === serviceKey || key.startsWith(`${serviceKey}:`))
      for (const e of eps) out.push(`${e.ip}:${e.port}`);
  return [...new Set(out)];
}

/** A pin the trace did not follow makes the scene depend on the seed: report it. */
function checkPins(scene: SceneOptions, result: SceneResult, errors: SceneLinkError[]): void {
  const { lbTarget, endpoint } = scene.choices;
  const decisions = result.trace.steps.flatMap((s) => (s.decision ? [s.decision] : []));
  const lb = decisions.find((d) => d.kind === 'lb-target');
  if (lbTarget !== undefined && lb && lb.chosen !== lbTarget) {
    const c = lb.candidates.find((x) => x.id === lbTarget);
    errors.push({
      key: 'lbTarget',
      value: lbTarget,
      message: `lbTarget=${lbTarget}: the balancer cannot use this pin, ${lbTarget} is not eligible (${c?.status ?? 'not a target'}); it picked ${lb.chosen} by the seed`,
    });
  }
  const eps = decisions.filter((d) => d.kind === 'endpoint');
  if (endpoint !== undefined && eps.length > 0 && !eps.some((d) => d.chosen === endpoint)) {
    const d = eps[eps.length - 1]!;
    const c = d.candidates.find((x) => x.id === endpoint);
    const why = c
      ? `it is not eligible (${c.status})`
      : `kube-proxy there chooses among ${d.candidates.map((x) => x.id).join(', ') || 'no endpoint'}`;
    errors.push({
      key: 'endpoint',
      value: endpoint,
      message: `endpoint=${endpoint}: kube-proxy cannot use this pin, ${why}; it picked ${d.chosen || 'nothing'}`,
    });
  }
}

/** The trace step index to show (-1 = before the first), or undefined after a problem. */
function resolveStep(
  link: SceneLink,
  story: StoryStep | undefined,
  result: SceneResult,
  bad: Bad,
): number | undefined {
  const n = result.trace.steps.length;
  if (link.step === 'last') return n - 1;
  if (link.step === 0) return -1;
  if (typeof link.step === 'number') {
    if (link.step <= n) return link.step - 1;
    bad(
      'step',
      link.step,
      n === 0
        ? `the trace has no steps (${result.trace.outcome.summary}); use 0 or last`
        : `the trace has ${n} steps (use 1–${n}, last, or 0 for before the first step)`,
    );
    return undefined;
  }
  if (!story) return -1;
  const index = storyStepIndex(result.trace, story);
  if (index === -1 && story.show.at !== 'start') {
    bad(
      'story',
      link.story,
      `the step it shows (${story.show.at}${story.show.transform ? ` ${story.show.transform}` : ''}) is not in this trace; add step=`,
    );
    return undefined;
  }
  return index;
}
