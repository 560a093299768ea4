import { useMemo, useRef } from 'react';
import {
  selectCluster,
  selectSelectedNode,
  selectStep,
  useAppStore,
  useAppStoreApi,
} from '../../store';

/**
 * The node picker in the Rules panel's header. It stays on the node it was last switched to;
 * when the current step is a kube-proxy step on another node, a note says so and offers to
 * switch.
 */
export function NodePicker() {
  const store = useAppStoreApi();
  const cluster = useAppStore(selectCluster);
  const node = useAppStore(selectSelectedNode);
  const step = useAppStore(selectStep);
  const picker = useRef<HTMLSelectElement>(null);
  const names = useMemo(() => (cluster?.nodes ?? []).map((n) => n.name), [cluster]);
  const stepNode =
    step?.rule?.kind === 'kube-proxy' && step.rule.node !== node && names.includes(step.rule.node)
      ? step.rule.node
      : undefined;
  return (
    <div className="node-picker-row">
      {stepNode && (
        <span className="node-note" data-testid="rules-step-note" data-node={stepNode}>
          this step is on <strong>{stepNode}</strong> —{' '}
          <button
            type="button"
            className="link-button"
            aria-label={`show it: the rules of ${stepNode}, where this step is`}
            onClick={() => {
              store.getState().selectNode(stepNode);
              // The note goes away with its button: keep focus on the picker, not the page.
              picker.current?.focus();
            }}
          >
            show it
          </button>
        </span>
      )}
      <label className="node-picker">
        Node{' '}
        <select
          ref={picker}
          value={node}
          onChange={(e) => store.getState().selectNode(e.target.value)}
        >
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
