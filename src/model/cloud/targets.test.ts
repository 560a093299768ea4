/**
 * The balancer's targets. Source: `k8s.io/cloud-provider` `controllers/service/controller.go`,
 * `nodeIncludedPredicate`: a node labelled `node.kubernetes.io/exclude-from-external-load-balancers`
 * (any value that `strconv.ParseBool` does not read as false) is not registered with the balancer.
 */
import { describe, expect, it } from 'vitest';
import { canonicalObjects } from '../scenario/canonical';
import { resolveCluster } from '../scenario/resolve';
import { DEFAULT_SCENE, runScene } from '../index';
import type { ScenarioObject } from '../k8s/objects';
import { targetCandidates } from './targets';

function labelled(node: string, value: string): ScenarioObject[] {
  const objects = canonicalObjects();
  for (const o of objects)
    if (o.kind === 'Node' && o.metadata?.name === node)
      o.metadata.labels = {
        ...o.metadata.labels,
        'node.kubernetes.io/exclude-from-external-load-balancers': value,
      };
  return objects;
}

const shares = (objects: ScenarioObject[]) => {
  const cluster = resolveCluster(objects);
  const svc = cluster.services[0];
  if (!svc) throw new Error('no Service');
  return Object.fromEntries(targetCandidates(cluster, svc).map((c) => [c.id, c.probability]));
};

describe('nodes excluded from external load balancers', () => {
  it('every healthy node gets an equal share when none is labelled', () => {
    expect(shares(canonicalObjects())).toEqual({
      'node-1': 1 / 3,
      'node-2': 1 / 3,
      'node-3': 1 / 3,
    });
  });

  it('a labelled node is not a target, whatever its health check says', () => {
    expect(shares(labelled('node-2', ''))).toEqual({ 'node-1': 0.5, 'node-2': 0, 'node-3': 0.5 });
    const result = runScene(labelled('node-2', 'true'), DEFAULT_SCENE);
    expect(result.lbTargets.find((c) => c.id === 'node-2')).toMatchObject({
      eligible: false,
      status: expect.stringContaining('exclude-from-external-load-balancers'),
    });
  });

  it('the value "false" keeps the node in (ParseBool)', () => {
    expect(shares(labelled('node-2', 'false'))['node-2']).toBe(1 / 3);
  });
});
