import { useCallback, useMemo, useState } from 'react';
import {
  selectCluster,
  selectRules,
  selectScene,
  selectSelectedNode,
  selectStep,
  selectStepIndex,
  selectTrace,
  useAppStore,
  useRulesUnder,
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
  const cluster = useAppStore(selectCluster);
  const [compare, setCompare] = useState('');
  const rs = rules?.[node];
  const options = useMemo(
    () =>
      compareOptions(
        scene,
        node,
        (cluster?.nodes ?? []).map((n) => n.name),
      ),
    [scene, node, cluster],
  );
  const option = options.find((o) => o.id === compare);
  const other = useRulesUnder(option?.scene, node);
  const current =
    step?.rule?.kind === 'kube-proxy' && step.rule.node === node ? step.rule.ruleId : undefined;

  const matched = useMemo(() => matchedRuleIds(trace, index, node), [trace, index, node]);
  const followed = useMemo(() => followedChains(trace, index, node), [trace, index, node]);
  // A comparison's lines (a diff, made once per pair of listings); null when not comparing.
  const diff: ListedLine[] | null = useMemo(() => {
    if (!rs || !option) return null;
    if (other === 'pending') return [];
    return diffRuleLines(rs.lines, other?.lines ?? []);
  }, [rs, option, other]);
  // Lines are marked as they are drawn (a windowed listing draws ~100 of 40,000), not all at
  // every step.
  const lineAt = useCallback(
    (i: number): ListedLine => {
      if (diff) return diff[i] ?? { text: '' };
      const l = rs?.lines[i];
      if (!l) return { text: '' };
      return {
        ...l,
        matched: l.ruleId !== undefined && matched.has(l.ruleId),
        current: l.ruleId !== undefined && l.ruleId === current,
        followed:
          l.ruleId === undefined &&
          l.chain !== undefined &&
          followed.has(l.chain.replace(/^(nat|filter)\//, '')),
      };
    },
    [diff, rs, matched, followed, current],
  );
  const count = diff ? diff.length : (rs?.lines.length ?? 0);
  const currentIndex = useMemo(
    () =>
      diff || current === undefined ? -1 : (rs?.lines.findIndex((l) => l.ruleId === current) ?? -1),
    [diff, rs, current],
  );
  const revealIndex = diff
    ? diff.findIndex((l) => l.change !== undefined && l.change !== 'same')
    : currentIndex;

  if (!rs) {
    // From a worker, a node's rules arrive after it is picked (the answer holds the path's).
    const known = cluster?.nodes.some((n) => n.name === node);
    if (known)
      return (
        <p className="empty" role="status" aria-busy="true" data-testid="rules-pending">
          Computing the rules of {node}…
        </p>
      );
    return <p className="empty">No rules for {node || 'this node'}.</p>;
  }
  const counts =
    diff && other !== 'pending'
      ? {
          added: diff.filter((l) => l.change === 'added').length,
          removed: diff.filter((l) => l.change === 'removed').length,
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
        {option && other === 'pending' && (
          <span className="diff-summary" role="status" data-testid="rules-diff-pending">
            Computing {option.label}…
          </span>
        )}
        {counts && (
          <span className="diff-summary" data-testid="rules-diff-summary">
            {option?.label}: <span className="diff-added">+{counts.added}</span> lines,{' '}
            <span className="diff-removed">−{counts.removed}</span> lines on {node}
          </span>
        )}
      </div>
      <RuleListing
        count={count}
        lineAt={lineAt}
        currentIndex={currentIndex}
        revealIndex={revealIndex}
        mode={rs.mode}
        label={`${TOOL[rs.mode] ?? rs.mode} output of ${node}${option ? `, compared with ${option.label}` : ''}`}
      />
    </div>
  );
}
