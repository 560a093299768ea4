import type { Packet, PacketField } from '../../model/trace/types';
import { selectStep, selectTrace, useAppStore } from '../../store';
import { formatMarkValue } from '../traceView';

const ROWS: { key: keyof Packet; label: string }[] = [
  { key: 'protocol', label: 'protocol' },
  { key: 'flags', label: 'flags' },
  { key: 'src', label: 'src' },
  { key: 'sport', label: 'sport' },
  { key: 'dst', label: 'dst' },
  { key: 'dport', label: 'dport' },
  { key: 'mark', label: 'mark' },
];

function show(p: Packet, key: keyof Packet): string {
  return key === 'mark' ? formatMarkValue(p.mark) : String(p[key]);
}

/** The packet header before and after the current step; rewritten fields are marked. */
export function PacketInspector() {
  const step = useAppStore(selectStep);
  const trace = useAppStore(selectTrace);
  const before = step?.before ?? trace.steps[0]?.before;
  if (!before) return <p className="empty">No packet: nothing is sent in this scene.</p>;
  const after = step?.after ?? before;
  const changed: readonly string[] = step?.changed ?? [];
  return (
    <>
      <p className="caption">
        {step ? (
          <>
            Transform: <strong className="mono">{step.transform}</strong>
            {' · '}
            {step.direction}
          </>
        ) : (
          'The first packet, about to be sent.'
        )}
      </p>
      <table className="inspector" data-testid="inspector-table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(({ key, label }) => {
            const isChanged = changed.includes(key as PacketField);
            return (
              <tr
                key={key}
                className={isChanged ? 'changed' : undefined}
                data-field={key}
                data-changed={isChanged}
              >
                <th scope="row">{label}</th>
                <td className="mono" data-value="before">
                  {show(before, key)}
                </td>
                <td className="mono" data-value="after">
                  {show(after, key)}
                  {isChanged && <span className="badge changed-badge">✱ changed</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
