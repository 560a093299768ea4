import type { ConntrackEntry } from '../../model/trace/types';
import { selectStep, selectStepIndex, selectTrace, useAppStore } from '../../store';
import { conntrackKey as keyOf, conntrackUpTo } from '../traceView';

function Tuple({ name, t }: { name: string; t: ConntrackEntry['original'] }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td className="mono">
        {t.src}:{t.sport}
      </td>
      <td className="mono">
        {t.dst}:{t.dport}
      </td>
    </tr>
  );
}

/**
 * conntrack: per node, the entries the trace created so far, as `conntrack -L` prints them;
 * the current step's entry (or the latest one) highlighted, with its original and reply tuples.
 */
export function ConntrackPanel() {
  const step = useAppStore(selectStep);
  const trace = useAppStore(selectTrace);
  const index = useAppStore(selectStepIndex);
  const groups = conntrackUpTo(trace, index);
  const latest = trace.steps
    .slice(0, index + 1)
    .reverse()
    .find((s) => s.conntrack)?.conntrack;
  const entry = step?.conntrack ?? latest;
  if (!entry)
    return (
      <p className="empty" data-testid="conntrack-empty">
        No conntrack entry yet. conntrack starts tracking the connection when its first packet
        enters a node, and confirms the entry (with any NAT) as the packet leaves the node: that is
        the step where the entry appears here.
      </p>
    );
  const focusKey = keyOf(entry);
  const createdAt = groups
    .flatMap((g) => g.entries)
    .find((s) => keyOf(s.entry) === focusKey)?.createdAt;
  const when = !step?.conntrack
    ? 'from an earlier step'
    : createdAt === index
      ? 'confirmed at this step'
      : 'updated at this step';
  return (
    <div className="conntrack">
      <p className="caption">
        Entries so far, per node, as <code>conntrack -L</code> prints them:
      </p>
      {groups.map((g) => (
        <div key={g.node} className="ct-node" data-testid="conntrack-node" data-node={g.node}>
          <p className="subhead">
            <strong>{g.node}</strong> · {g.entries.length}{' '}
            {g.entries.length === 1 ? 'entry' : 'entries'}
          </p>
          <pre
            className="mono conntrack-text conntrack-list"
            aria-label={`conntrack -L on ${g.node}`}
          >
            {g.entries.map((s) => {
              const current = keyOf(s.entry) === focusKey;
              return (
                <span
                  key={keyOf(s.entry)}
                  className={`ct-line${current ? ' current' : ''}`}
                  data-current={current || undefined}
                >
                  {s.entry.text}
                  {'\n'}
                </span>
              );
            })}
          </pre>
        </div>
      ))}
      <div className="ct-focus" data-testid="conntrack-entry" data-node={entry.node}>
        <p className="caption">
          Highlighted: on <strong>{entry.node}</strong> · {entry.state} · expires in{' '}
          {entry.timeoutSeconds} s{entry.unreplied ? ' · [UNREPLIED]' : ''} · {when}
        </p>
        <table className="tuples">
          <thead>
            <tr>
              <th scope="col">Tuple</th>
              <th scope="col">src</th>
              <th scope="col">dst</th>
            </tr>
          </thead>
          <tbody>
            <Tuple name="original" t={entry.original} />
            <Tuple name="reply" t={entry.reply} />
          </tbody>
        </table>
      </div>
    </div>
  );
}
