/**
 * The outcome of every distinct path of one epoch, computed once from the model: the same
 * calls `runScene` makes (apply the toggles, resolve, generate every node's rules, trace),
 * with the balancer's target and kube-proxy's endpoint pinned in turn. The probabilities
 * are the model's own: the balancer's equal share over the nodes in rotation (the trace's
 * `lb-target` decision) times kube-proxy's per-endpoint probability from the generated rules
 * (the trace's `endpoint` decision, e.g. the iptables `statistic` cascade).
 */
import type { ScenarioObject } from '../k8s/objects';
import type { SceneOptions } from '../scenario/scene';
import { applyScene } from '../scenario/scene';
import { resolveCluster } from '../scenario/resolve';
import type { ModeRuleset } from '../kube-proxy/types';
import { trace } from '../trace/trace';
import type { Decision, Trace } from '../trace/types';
import type { Cluster } from '../scenario/cluster';
import { markNodesDown } from './down';
import type { EntryPaths, PathOption, Route } from './types';
import { flatPaths } from './pathSet';

/**
 * A scene ready to trace: the resolved cluster and the rules of the nodes traced so far
 * (`trace` generates a node's rules the first time it walks them and keeps them here, so
 * every trace on one `Prepared` shares them).
 */
export interface Prepared {
  cluster: Cluster;
  rules: Record<string, ModeRuleset>;
}

/**
 * Resolves `objects` under `scene` exactly as `runScene` does; no rules are generated yet.
 * @throws {ScenarioError}
 */
export function prepare(objects: readonly ScenarioObject[], scene: SceneOptions): Prepared {
  const cluster = markNodesDown(resolveCluster(applyScene(objects, scene)), scene.downNodes);
  return { cluster, rules: {} };
}

/** One trace of `client` on `p` under `scene` with `choices`. */
export function traceWith(
  p: Prepared,
  scene: SceneOptions,
  client: string,
  choices: SceneOptions['choices'],
): Trace {
  return trace(
    p.cluster,
    {
      client,
      dial: scene.dial,
      choices,
      seed: scene.seed,
      ...(scene.service !== undefined ? { service: scene.service } : {}),
      ...(scene.port !== undefined ? { port: scene.port } : {}),
    },
    p.rules,
  );
}

function decision(t: Trace, kind: Decision['kind']): Decision | undefined {
  return t.steps.find((s) => s.decision?.kind === kind)?.decision;
}

/** The path a finished trace took, as a {@link PathOption}. */
export function pathOf(
  t: Trace,
  lbTarget: string | null,
  entry: string | null,
  probability: number,
  endpoint: string | null,
): PathOption {
  const o = t.outcome;
  const delivered = o.kind === 'delivered';
  return {
    lbTarget,
    entryNode: entry,
    endpoint,
    probability,
    pod: delivered ? o.pod : null,
    podNode: delivered ? o.node : null,
    crossNode: delivered ? o.crossedNodes : false,
    snat: delivered ? o.snat : false,
    outcome: o.kind,
  };
}

/** What happens after the entry in a finished trace, as a {@link Route}. */
export function routeOf(t: Trace): Route {
  const o = t.outcome;
  const delivered = o.kind === 'delivered';
  return {
    pod: delivered ? o.pod : null,
    podNode: delivered ? o.node : null,
    crossNode: delivered ? o.crossedNodes : false,
    snat: delivered ? o.snat : false,
    outcome: o.kind,
  };
}

/**
 * Every path a new connection from `client` can take under `scene`, with its probability
 * (they sum to 1) and its outcome. Paths with probability 0 are left out.
 */
export function computePaths(p: Prepared, scene: SceneOptions, client: string): PathOption[] {
  return flatPaths(computeEntryPaths(p, scene, client));
}

/**
 * {@link computePaths}'s paths per entry node ({@link EntryPaths}, nothing shared between
 * entries): every entry × endpoint traced.
 */
export function computeEntryPaths(p: Prepared, scene: SceneOptions, client: string): EntryPaths[] {
  const rotation = scene.choices.rotation;
  const baseChoices = rotation ? { rotation } : {};
  const first = traceWith(p, scene, client, baseChoices);
  const home = p.cluster.clients.find((c) => c.name === client)?.nodeName ?? null;
  const lb = decision(first, 'lb-target');
  const out: EntryPaths[] = [];
  const endpointsFrom = (t: Trace, lbTarget: string | null, share: number) => {
    const entry = lbTarget ?? home;
    const ep = decision(t, 'endpoint');
    const endpoints: (string | null)[] = [];
    const weights: number[] = [];
    const routes: Route[] = [];
    if (!ep) {
      endpoints.push(null);
      weights.push(1);
      routes.push(routeOf(t));
    } else
      for (const c of ep.candidates) {
        if (!(c.probability > 0)) continue;
        const pinned = traceWith(p, scene, client, {
          ...baseChoices,
          ...(lbTarget ? { lbTarget } : {}),
          endpoint: c.id,
        });
        endpoints.push(c.id);
        weights.push(c.probability);
        routes.push(routeOf(pinned));
      }
    out.push({ lbTarget, entryNode: entry, share, slots: { endpoints, weights, routes }, own: [] });
  };
  if (!lb) {
    endpointsFrom(first, null, 1);
    return out;
  }
  for (const c of lb.candidates) {
    if (!(c.probability > 0)) continue;
    endpointsFrom(
      traceWith(p, scene, client, { ...baseChoices, lbTarget: c.id }),
      c.id,
      c.probability,
    );
  }
  return out;
}
