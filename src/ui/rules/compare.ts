/**
 * The toggles the rules panel can compare against: each one is the current scene with one
 * toggle flipped, so the diff shows exactly what kube-proxy rewrites when it flips.
 */
import type { SceneOptions } from '../../model/scenario/scene';

/** A comparison: its id, its label and the scene it compares with. */
export interface CompareOption {
  id: string;
  label: string;
  scene: SceneOptions;
}

/**
 * The comparisons for `scene`, seen from the rules of `node`: flip the policy, the ipMode,
 * the published status, or fail/restore another node (whose endpoints then leave or rejoin
 * this node's rules).
 * @param nodes every node's name
 */
export function compareOptions(
  scene: SceneOptions,
  node: string,
  nodes: readonly string[],
): CompareOption[] {
  const policy = scene.externalTrafficPolicy === 'Cluster' ? 'Local' : 'Cluster';
  const ipMode = scene.ipMode === 'VIP' ? 'Proxy' : 'VIP';
  const otherNodes = nodes.filter((n) => n !== node);
  return [
    {
      id: 'policy',
      label: `externalTrafficPolicy ${scene.externalTrafficPolicy} → ${policy}`,
      scene: { ...scene, externalTrafficPolicy: policy },
    },
    { id: 'ipmode', label: `ipMode ${scene.ipMode} → ${ipMode}`, scene: { ...scene, ipMode } },
    {
      id: 'published',
      label: scene.published
        ? 'status.loadBalancer emptied (pending)'
        : 'status.loadBalancer published',
      scene: { ...scene, published: !scene.published },
    },
    ...otherNodes.map((n) => {
      const down = scene.failedNodes.includes(n);
      return {
        id: `fail-${n}`,
        label: down ? `${n} restored` : `${n} fails`,
        scene: {
          ...scene,
          failedNodes: down ? scene.failedNodes.filter((x) => x !== n) : [...scene.failedNodes, n],
        },
      };
    }),
  ];
}
