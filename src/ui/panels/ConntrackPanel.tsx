import type { ConntrackEntry } from '../../model/trace/types';
import { selectStep, selectStepIndex, selectTrace, useAppStore } from '../../store';

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

/** The conntrack entry of the current step, as `conntrack -L` prints it, with both tuples. */
export function ConntrackPanel() {
  const step = useAppStore(selectStep);
  const trace = useAppStore(selectTrace);
  const index = useAppStore(selectStepIndex);
  const entry =
    step?.conntrack ??
    trace.steps
      .slice(0, index + 1)
      .reverse()
      .find((s) => s.conntrack)?.conntrack;
  if (!entry)
    return (
      <p className="empty">
        No conntrack entry yet: one is created when a node NATs the connection.
      </p>
    );
  const fromEarlier = !step?.conntrack;
  return (
    <div data-testid="conntrack-entry" data-node={entry.node}>
      <p className="caption">
        On <strong>{entry.node}</strong> · {entry.state} · expires in {entry.timeoutSeconds} s
        {entry.unreplied ? ' · [UNREPLIED]' : ''}
        {fromEarlier ? ' · (created at an earlier step)' : ''}
      </p>
      <pre className="mono conntrack-text">{entry.text}</pre>
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
  );
}
