/**
 * Scenes and questions in words, for `scripts/tutorial-check.ts` and test messages:
 * what a resolved scene sets, which step it shows and how the connection ends.
 */
import type { ResolvedScene } from './sceneResolve';

/** The scene's toggles in one line, e.g. `Cluster · VIP · NodePort delivery · published · …`. */
export function describeToggles(r: ResolvedScene): string {
  const s = r.state.scene;
  const dial =
    s.dial.kind === 'NodePort'
      ? `nodeport:${s.dial.nodeName}`
      : s.dial.kind === 'ClusterIP'
        ? 'clusterip'
        : 'lb';
  return [
    r.scenario,
    s.externalTrafficPolicy,
    s.ipMode,
    `${s.delivery} delivery`,
    s.published ? 'published' : 'not published',
    s.failedNodes.length > 0 ? `failed ${s.failedNodes.join(',')}` : 'no failed nodes',
    `client ${s.client} dials ${dial}`,
    s.proxyMode ?? r.result.cluster.kubeProxy.mode,
    ...(s.choices.lbTarget ? [`lbTarget ${s.choices.lbTarget}`] : []),
    ...(s.choices.endpoint ? [`endpoint ${s.choices.endpoint}`] : []),
    `seed ${s.seed}`,
  ].join(' · ');
}

/** The step shown, e.g. `step 6/12: node:node-2 DNAT "DNAT to 10.244.3.9:8080"` or `before the first step`. */
export function describeStep(r: ResolvedScene): string {
  const steps = r.result.trace.steps;
  const st = steps[r.state.step];
  if (!st) return `before the first step (of ${steps.length})`;
  return `step ${r.state.step + 1}/${steps.length}: ${st.at} ${st.transform} "${st.narration.title}"`;
}

/** The outcome's kind and summary. */
export function describeOutcome(r: ResolvedScene): string {
  const o = r.result.trace.outcome;
  return `${o.kind}: ${o.summary}`;
}
