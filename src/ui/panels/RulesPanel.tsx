import { useEffect, useMemo, useRef } from 'react';
import type { RuleLine } from '../../model/kube-proxy/types';
import {
  selectRules,
  selectSelectedNode,
  selectStep,
  selectStepIndex,
  selectTrace,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { matchedRuleIds } from '../traceView';

/** What each mode's dump is called on a node. */
const TOOL: Record<string, string> = {
  iptables: 'iptables-save',
  nftables: 'nft list table ip kube-proxy',
  ipvs: 'ipvsadm -Ln, ipset list and ip addr show kube-ipvs0',
};

/** The selected node's full rule dump in its kube-proxy mode; matched lines marked, the current one in view. */
export function RulesPanel() {
  const rules = useAppStore(selectRules);
  const node = useAppStore(selectSelectedNode);
  const trace = useAppStore(selectTrace);
  const index = useAppStore(selectStepIndex);
  const step = useAppStore(selectStep);
  const rs = rules?.[node];
  const matched = useMemo(() => matchedRuleIds(trace, index, node), [trace, index, node]);
  const current =
    step?.rule?.kind === 'kube-proxy' && step.rule.node === node ? step.rule.ruleId : undefined;
  const lines: RuleLine[] = rs?.lines ?? [];
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = box.current;
    const el = container?.querySelector<HTMLElement>('[data-current="true"]');
    if (!container || !el) return;
    const top =
      el.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
    const visible =
      top >= container.scrollTop &&
      top + el.offsetHeight <= container.scrollTop + container.clientHeight;
    if (!visible) container.scrollTop = Math.max(0, top - container.clientHeight / 3);
  }, [current, node]);

  if (!rs) return <p className="empty">No rules for {node || 'this node'}.</p>;
  return (
    <div
      className="rules-scroll"
      ref={box}
      tabIndex={0}
      data-own-keys
      aria-label={`${TOOL[rs.mode] ?? rs.mode} output of ${node}`}
      data-mode={rs.mode}
      data-node={node}
    >
      <pre className="mono rules">
        {lines.map((l, i) => {
          const isCurrent = l.ruleId !== undefined && l.ruleId === current;
          const isMatched = l.ruleId !== undefined && matched.has(l.ruleId);
          return (
            <span
              key={i}
              className={`line${isMatched ? ' matched' : ''}${isCurrent ? ' current' : ''}`}
              data-rule-id={l.ruleId}
              data-matched={isMatched || undefined}
              data-current={isCurrent || undefined}
            >
              <span className="gutter" aria-hidden={!isMatched}>
                {isCurrent ? '▶ ' : isMatched ? '✓ ' : '  '}
              </span>
              {l.text}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </div>
  );
}

/**
 * The node picker in the Rules panel's header. It stays on the node it was last switched to;
 * when the current step is a kube-proxy step on another node, a note says so and offers to
 * switch.
 */
export function NodePicker() {
  const store = useAppStoreApi();
  const rules = useAppStore(selectRules);
  const node = useAppStore(selectSelectedNode);
  const step = useAppStore(selectStep);
  const picker = useRef<HTMLSelectElement>(null);
  const stepNode =
    step?.rule?.kind === 'kube-proxy' && step.rule.node !== node && rules?.[step.rule.node]
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
          {Object.keys(rules ?? {}).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
