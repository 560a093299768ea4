import { useMemo, useRef, useState } from 'react';
import { derive } from '../../store/derive';
import {
  selectRules,
  selectScene,
  selectSelectedNode,
  selectStep,
  selectStepIndex,
  selectTrace,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { followedChains, matchedRuleIds } from '../traceView';
import { compareOptions } from '../rules/compare';
import { RuleListing } from '../rules/RuleListing';
import type { ListedLine } from '../rules/RuleListing';
import { diffRuleLines } from '../rulesDiff';

/** What each mode's dump is called on a node. */
const TOOL: Record<string, string> = {
  iptables: 'iptables-save',
  nftables: 'nft list table ip kube-proxy',
  ipvs: 'ipvsadm -Ln, ipset list and ip addr show kube-ipvs0',
};

/**
 * The selected node's full rule dump in its kube-proxy mode: the lines matched so far and the
 * chains followed marked, the current one in view, each line explained on hover or focus; or,
 * in compare mode, what changes in these rules when one toggle flips.
 */
export function RulesPanel() {
  const rules = useAppStore(selectRules);
  const node = useAppStore(selectSelectedNode);
  const trace = useAppStore(selectTrace);
  const index = useAppStore(selectStepIndex);
  const step = useAppStore(selectStep);
  const scene = useAppStore(selectScene);
  const objects = useAppStore((s) => s.objects);
  const [compare, setCompare] = useState('');
  const rs = rules?.[node];
  const options = useMemo(
    () => compareOptions(scene, node, Object.keys(rules ?? {})),
    [scene, node, rules],
  );
  const option = options.find((o) => o.id === compare);
  const current =
    step?.rule?.kind === 'kube-proxy' && step.rule.node === node ? step.rule.ruleId : undefined;

  const lines: ListedLine[] = useMemo(() => {
    if (!rs) return [];
    if (option) {
      const other = derive(objects, option.scene);
      const to = other.ok ? (other.result.rules[node]?.lines ?? []) : [];
      return diffRuleLines(rs.lines, to);
    }
    const matched = matchedRuleIds(trace, index, node);
    const followed = followedChains(trace, index, node);
    return rs.lines.map((l) => ({
      ...l,
      matched: l.ruleId !== undefined && matched.has(l.ruleId),
      current: l.ruleId !== undefined && l.ruleId === current,
      followed:
        l.ruleId === undefined &&
        l.chain !== undefined &&
        followed.has(l.chain.replace(/^(nat|filter)\//, '')),
    }));
  }, [rs, option, objects, node, trace, index, current]);

  if (!rs) return <p className="empty">No rules for {node || 'this node'}.</p>;
  const counts = option
    ? {
        added: lines.filter((l) => l.change === 'added').length,
        removed: lines.filter((l) => l.change === 'removed').length,
      }
    : undefined;
  return (
    <div className="rules-body" data-mode={rs.mode} data-node={node}>
      <div className="rules-toolbar">
        <label>
          Compare with{' '}
          <select
            value={compare}
            onChange={(e) => setCompare(e.target.value)}
            data-testid="rules-compare"
          >
            <option value="">— (show this trace’s path)</option>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {counts && (
          <span className="diff-summary" data-testid="rules-diff-summary">
            {option?.label}: <span className="diff-added">+{counts.added}</span> lines,{' '}
            <span className="diff-removed">−{counts.removed}</span> lines on {node}
          </span>
        )}
      </div>
      <RuleListing
        lines={lines}
        mode={rs.mode}
        label={`${TOOL[rs.mode] ?? rs.mode} output of ${node}${option ? `, compared with ${option.label}` : ''}`}
      />
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
