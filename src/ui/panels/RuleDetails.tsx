import type { StepRule } from '../../model/trace/types';

const KIND_WORDS: Record<Exclude<StepRule['kind'], 'kube-proxy'>, string> = {
  'cloud-lb': 'Cloud load balancer',
  routing: 'Routing',
  conntrack: 'conntrack',
};

/** The rule behind a step: kube-proxy's (mode, table, chain, exact text, trail) or another kind. */
export function RuleDetails({ rule }: { rule: StepRule }) {
  if (rule.kind !== 'kube-proxy')
    return (
      <div className="rule" data-testid="rule-details" data-rule-kind={rule.kind}>
        <p className="caption">{KIND_WORDS[rule.kind]}</p>
        <pre className="mono rule-text">{rule.text}</pre>
      </div>
    );
  return (
    <div
      className="rule"
      data-testid="rule-details"
      data-rule-kind="kube-proxy"
      data-rule-id={rule.ruleId}
    >
      <dl className="rule-facts">
        <div>
          <dt>node</dt>
          <dd>{rule.node}</dd>
        </div>
        <div>
          <dt>mode</dt>
          <dd className="mono">{rule.mode}</dd>
        </div>
        <div>
          <dt>table</dt>
          <dd className="mono">{rule.table}</dd>
        </div>
        <div>
          <dt>chain</dt>
          <dd className="mono">{rule.chain}</dd>
        </div>
      </dl>
      <pre
        className="mono rule-text"
        aria-label={`The rule, as ${rule.mode === 'iptables' ? 'iptables-save' : rule.mode === 'nftables' ? 'nft list' : 'ipvsadm or iptables-save'} prints it`}
      >
        {rule.text}
      </pre>
      {rule.trail.length > 0 && (
        <>
          <h3 className="subhead">Chain trail on {rule.node}</h3>
          <ol className="trail mono">
            {rule.trail.map((h, i) => (
              <li
                key={`${h.ruleId}-${i}`}
                className={h.ruleId === rule.ruleId ? 'current' : undefined}
              >
                <span className="trail-chain">
                  {h.table}/{h.chain}
                </span>{' '}
                <span className="trail-text">{h.text}</span>
                {h.ruleId === rule.ruleId && <span className="badge"> ◀ this step</span>}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
