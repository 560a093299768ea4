import { useState } from 'react';
import { nodeIsDown, toggleNodeFailure } from '../../store/commands';
import { selectCluster, selectScene, useAppStore } from '../../store';
import { CommandButton } from './CommandButton';

/**
 * Failing and restoring nodes, at any cluster size: a select of the nodes that are up and a Fail
 * button, then each node that is down as a chip that restores it. (A node in the drawing can be
 * clicked too.) A thousand nodes make a long select, not a thousand buttons.
 */
export function NodeFailure() {
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  const [picked, setPicked] = useState('');
  const nodes = cluster?.nodes ?? [];
  // Down either way: failed here, or down in the timeline moment this trace shows.
  const down = nodes.filter((n) => nodeIsDown(scene, n.name));
  const up = nodes.filter((n) => !nodeIsDown(scene, n.name));
  // The pick stays while that node is up; otherwise the first node that is.
  const chosen = up.some((n) => n.name === picked) ? picked : (up[0]?.name ?? '');
  return (
    <fieldset className="scene-row nodes" data-group="nodes">
      <legend>Fail a node</legend>
      <div className="node-fail">
        <select
          aria-label="Which node to fail"
          value={chosen}
          disabled={up.length === 0}
          onChange={(e) => setPicked(e.target.value)}
          data-testid="fail-node-select"
        >
          {up.length === 0 && <option value="">every node is down</option>}
          {up.map((n) => (
            <option key={n.name} value={n.name}>
              {n.name}
            </option>
          ))}
        </select>
        {chosen ? (
          <CommandButton command={toggleNodeFailure(chosen)} className="danger-outline">
            Fail
          </CommandButton>
        ) : (
          <button type="button" aria-disabled="true" className="danger-outline">
            Fail
          </button>
        )}
      </div>
      {down.length > 0 && (
        <ul className="chips" aria-label="Nodes that are down (press one to restore it)">
          {down.map((n) => (
            <li key={n.name}>
              <CommandButton command={toggleNodeFailure(n.name)} className="chip" pressed>
                <span aria-hidden="true">✗ </span>
                {n.name} down<span className="chip-action"> — restore</span>
              </CommandButton>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
