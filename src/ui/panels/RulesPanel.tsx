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

/** The node picker in the Rules panel's header. */
export function NodePicker() {
  const store = useAppStoreApi();
  const rules = useAppStore(selectRules);
  const node = useAppStore(selectSelectedNode);
  return (
    <label className="node-picker">
      Node{' '}
      <select value={node} onChange={(e) => store.getState().selectNode(e.target.value)}>
        {Object.keys(rules ?? {}).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
