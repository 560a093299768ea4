/**
 * The model's public entry: pure TypeScript, runs in Node and the browser alike.
 *
 * `runScene(objects, scene)` applies the toggles to the scenario's objects, resolves the
 * cluster, generates every node's kube-proxy rules and traces one connection.
 */
import type { ScenarioObject } from './k8s/objects';
import type { Cluster } from './scenario/cluster';
import { resolveCluster } from './scenario/resolve';
import type { SceneOptions } from './scenario/scene';
import { applyScene } from './scenario/scene';
import type { ModeRuleset } from './kube-proxy/types';
import { proxyMode } from './kube-proxy/modes';
import { pickService, trace } from './trace/trace';
import type { Candidate, Trace } from './trace/types';
import { targetCandidates } from './cloud/targets';
import { isMetalLB, metallbCandidates } from './cloud/implementation';
import { NODEPORT_TO_LOADBALANCER } from './walkthrough/nodePortToLoadBalancer';
import { markNodesDown } from './time/down';

export type { ScenarioObject, LoadBalancerImplementation } from './k8s/objects';
export { LOAD_BALANCER_IMPLEMENTATIONS } from './k8s/objects';
export type * from './trace/types';
export type { Cluster, ClusterNode, ClusterPod, ServiceModel } from './scenario/cluster';
export type { SceneOptions, DialTarget, Choices } from './scenario/scene';
export type { IptablesRuleset, Chain, Rule } from './kube-proxy/iptables/rule';
export type { ModeRuleset, ProxyMode, RuleLine } from './kube-proxy/types';
export { modelledModes } from './kube-proxy/modes';
export type { Walkthrough, StoryStep, Focus } from './walkthrough/types';
export { canonicalObjects } from './scenario/canonical';
export { DEFAULT_SCENE, applyScene } from './scenario/scene';
export { resolveCluster, ScenarioError } from './scenario/resolve';
export { generateIptables } from './kube-proxy/iptables/generate';
export { formatTable, formatRuleset } from './kube-proxy/iptables/rule';
export { trace } from './trace/trace';
export { storyStepIndex } from './walkthrough/types';
export { probeNode } from './cloud/healthCheck';
export { targetCandidates } from './cloud/targets';
export {
  implementationLine,
  implementationName,
  isMetalLB,
  replyRoute,
} from './cloud/implementation';
export type { ReplyRoute } from './cloud/implementation';

/** The walkthrough a newcomer starts with. */
export const DEFAULT_WALKTHROUGH = NODEPORT_TO_LOADBALANCER;

/** Everything the view draws for one scene. */
export interface SceneResult {
  cluster: Cluster;
  trace: Trace;
  /**
   * kube-proxy's rules per node name, in the cluster's kube-proxy mode. Every node has a key;
   * a node's rules are generated the first time they are read (the trace reads only the nodes
   * on its path), so a 1,000-node cluster costs two nodes' rules, not a thousand.
   */
  rules: Record<string, ModeRuleset>;
  /** `namespace/name` of the traced Service. */
  serviceKey: string;
  /**
   * The balancer's targets (every node) with their health-check result and share of new
   * connections, whatever the client dials; empty when the Service has no balancer.
   */
  lbTargets: Candidate[];
}

/**
 * A record with one enumerable key per node whose value is computed by `generate` on first
 * read and kept (a getter that replaces itself with the value). Same results as generating
 * every node up front; `Object.keys` costs nothing, reading a value costs that node's rules.
 */
function lazyRules(
  nodes: readonly { name: string }[],
  generate: (name: string) => ModeRuleset,
): Record<string, ModeRuleset> {
  const rules: Record<string, ModeRuleset> = {};
  for (const { name } of nodes)
    Object.defineProperty(rules, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = generate(name);
        Object.defineProperty(rules, name, { value, enumerable: true, writable: false });
        return value;
      },
    });
  return rules;
}

/**
 * Applies `scene` to `objects` and runs the model.
 * @throws {ScenarioError} when the objects cannot be resolved; {@link Error} when the scene
 *   names a client or node that does not exist.
 */
export function runScene(objects: readonly ScenarioObject[], scene: SceneOptions): SceneResult {
  const cluster = markNodesDown(resolveCluster(applyScene(objects, scene)), scene.downNodes);
  const mode = proxyMode(cluster.kubeProxy.mode);
  const rules = lazyRules(cluster.nodes, (name) => mode.generate(cluster, name));
  const svc = pickService(cluster, scene.service);
  const t = trace(
    cluster,
    {
      client: scene.client,
      dial: scene.dial,
      choices: scene.choices,
      seed: scene.seed,
      ...(scene.service !== undefined ? { service: scene.service } : {}),
      ...(scene.port !== undefined ? { port: scene.port } : {}),
    },
    rules,
  );
  const key = `${svc.namespace}/${svc.name}`;
  const lb = cluster.loadBalancers.find((l) => l.service === key);
  // MetalLB has no targets to health-check: its "targets" are the nodes that hold the address.
  const lbTargets = !lb
    ? []
    : isMetalLB(lb.implementation)
      ? metallbCandidates(cluster, svc, lb, scene.choices.rotation)
      : targetCandidates(cluster, svc, scene.choices.rotation);
  return { cluster, trace: t, rules, serviceKey: key, lbTargets };
}
