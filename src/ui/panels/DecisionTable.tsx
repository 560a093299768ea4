import type { Decision } from '../../model/trace/types';
import { pinChoice, reroll, run, unpinChoice } from '../../store/commands';
import { selectScene, useAppStore, useAppStoreApi } from '../../store';
import { percent } from '../traceView';

/** A decision: every candidate with its probability and status, the chosen one, pin and re-roll. */
export function DecisionTable({ decision }: { decision: Decision }) {
  const store = useAppStoreApi();
  const scene = useAppStore(selectScene);
  const kind = decision.kind === 'lb-target' ? 'lbTarget' : 'endpoint';
  const pinned = scene.choices[kind];
  const what =
    decision.by ??
    (decision.kind === 'lb-target' ? 'The balancer picks a node' : 'kube-proxy picks an endpoint');
  return (
    <div
      className="decision"
      data-testid="decision"
      data-decision-kind={decision.kind}
      data-chosen={decision.chosen}
    >
      <table>
        <caption>
          {what}
          {decision.pinned ? ' (pinned)' : ' (drawn from the seed)'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col" title="Probability of being chosen">
              Share
            </th>
            <th scope="col">Status</th>
            <th scope="col">Choice</th>
          </tr>
        </thead>
        <tbody>
          {decision.candidates.map((c) => {
            const chosen = c.id === decision.chosen;
            const isPinned = pinned === c.id;
            return (
              <tr
                key={c.id}
                className={`${chosen ? 'chosen' : ''}${c.eligible ? '' : ' ineligible'}`}
                data-candidate={c.id}
                data-chosen={chosen}
              >
                <th scope="row" className="mono">
                  {c.label}
                </th>
                <td className="num">{percent(c.probability)}</td>
                <td>
                  {c.eligible ? '✓ eligible' : '✗ ineligible'}{' '}
                  <span className="muted">· {c.status}</span>
                </td>
                <td className="choice">
                  {chosen && <span className="badge chosen-badge">● chosen</span>}
                  {isPinned ? (
                    <button
                      type="button"
                      onClick={() => run(store, unpinChoice(kind))}
                      aria-label={`Unpin ${c.id}`}
                    >
                      Unpin
                    </button>
                  ) : (
                    <button
                      type="button"
                      disabled={!c.eligible}
                      onClick={() => run(store, pinChoice(kind, c.id))}
                      aria-label={`Pin this choice: ${c.id}`}
                      title={c.eligible ? undefined : `Cannot pin: ${c.status}`}
                    >
                      Pin
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="decision-actions">
        <button type="button" onClick={() => run(store, reroll)} aria-keyshortcuts="R">
          Re-roll (new seed {scene.seed + 1})
        </button>
        <span className="muted"> seed {scene.seed}</span>
      </p>
    </div>
  );
}
