/**
 * The discrete-event simulation: a virtual clock runs an agenda of actions (the user's
 * events, the balancer's probes, the control plane's reactions), each at a simulated
 * millisecond, and records what happened. Between two changes of state the cluster is
 * constant: an epoch. {@link runEngine} runs it; the managers, one per concern, share one
 * state object (state.ts) and handle the actions of their kinds (handlers.ts):
 *
 * - provisioning.ts — the cloud-controller-manager's service controller
 *   (`k8s.io/cloud-provider` `controllers/service/controller.go`): `EnsuringLoadBalancer`,
 *   `EnsuredLoadBalancer`; on a policy change `ExternalTrafficPolicy` and
 *   `HealthCheckNodePort` (`needsUpdate`). With StableLoadBalancerNodeSet (beta and on by
 *   default since 1.27, GA in 1.30) a node's readiness no longer changes the balancer's
 *   targets: only health checks do. Nodes labelled
 *   `node.kubernetes.io/exclude-from-external-load-balancers` are never targets
 *   (`nodeIncludedPredicate`). MetalLB layer 2: `IPAllocated` by the controller,
 *   `nodeAssigned` by the announcing speaker.
 * - healthChecks.ts — the balancer's probes and rotation.
 * - nodeLifecycle.ts — failures, drains, cluster-autoscaler's scale-down (the taint
 *   `ToBeDeletedByClusterAutoscaler:NoSchedule`, then its Pods evicted; kube-proxy's `/healthz`
 *   answers 503 with `"nodeEligible":false`, `pkg/proxy/healthcheck/proxy_health.go`
 *   `SyncNode`, KEP-3836, while the node still forwards, and the service controller does not
 *   resync targets for the taint alone, `shouldSyncUpdatedNode`); a silent node marked
 *   `Ready=Unknown` after `--node-monitor-grace-period`, tainted
 *   `node.kubernetes.io/unreachable:NoExecute`, its Pods not ready and evicted after
 *   `tolerationSeconds` (300); MetalLB's failover after memberlist declares the node dead.
 * - pods.ts — the ReplicaSet, the scheduler and graceful termination (`deletionTimestamp`,
 *   endpoint `ready: false, serving: true, terminating: true` while the app still passes
 *   readiness, SIGKILL after `terminationGracePeriodSeconds`).
 * - kubeProxySync.ts — the EndpointSlice and kube-proxy, which applies every change
 *   `endpointPropagationMs` later.
 * - messages.ts — the run's log of entries.
 */
import type { Base } from '../scenario';
import type { Settings } from '../settings';
import { EpochRecorder } from './epochs';
import { handle } from './handlers';
import { sortedEntries } from './messages';
import { startRun } from './provisioning';
import { createSim } from './state';
import type { EngineResult } from './types';

export type { EngineResult, Outage, PodEnd, RawEpoch, StateCluster } from './types';

/**
 * Runs the agenda from t = 0 to the horizon (`s.horizonMs`, simulated ms) over the scenario
 * `base`: every action at a millisecond runs before the world is read for that millisecond.
 * Pure and deterministic (Pod names from a generator seeded with `s.seed`).
 * @throws {Error} only on a bug (a look-up of a node the run does not have).
 */
export function runEngine(base: Base, s: Settings): EngineResult {
  const sim = createSim(base, s);
  const { agenda } = sim;
  const { horizonMs: horizon, nodeOrder, controller, targets } = sim.cfg;
  startRun(sim, s.events);
  const epochs = new EpochRecorder(sim);
  sim.version++;
  epochs.mark(0);
  while (agenda.size > 0 && agenda.peekTime() <= horizon) {
    const t = agenda.peekTime();
    while (agenda.size > 0 && agenda.peekTime() === t) {
      const a = agenda.pop().value;
      if (a.kind !== 'probe' && a.kind !== 'probe-result') sim.version++;
      handle(sim, a, t);
    }
    epochs.mark(t);
  }
  const { probes, lb } = sim;
  probes.sort((a, b) => a.at - b.at || nodeOrder.indexOf(a.node) - nodeOrder.indexOf(b.node));
  return {
    epochs: epochs.finish(horizon),
    entries: sortedEntries(sim),
    probes,
    rotation: sim.rotation,
    svc: sim.svcRows,
    outages: sim.outages,
    podEnds: sim.podEnds,
    address: sim.cfg.address,
    registeredAt: controller === 'cloud' ? lb.registeredAt : null,
    targets: controller === 'cloud' && lb.registeredAt !== null ? targets : [],
    clusters: sim.clusters,
  };
}
