import type { StageIds } from './Defs';

/** One swatch: a short line in the mark's colour and style, or a small box for node states. */
function Swatch({ kind, hatch }: { kind: string; hatch: string }) {
  if (kind === 'failed')
    return (
      <svg className="swatch" width="28" height="16" aria-hidden="true">
        <rect
          x="1"
          y="1"
          width="26"
          height="14"
          rx="3"
          fill={`url(#${hatch})`}
          className="swatch-failed"
        />
      </svg>
    );
  if (kind === 'rotation')
    return (
      <svg className="swatch" width="28" height="16" aria-hidden="true">
        <rect x="1" y="1" width="26" height="14" rx="3" className="swatch-out" />
      </svg>
    );
  if (kind === 'dnat' || kind === 'snat')
    return (
      <svg className="swatch" width="28" height="16" aria-hidden="true">
        <rect x="1" y="2" width="26" height="12" rx="6" className={`swatch-${kind}`} />
      </svg>
    );
  return (
    <svg className="swatch" width="28" height="16" aria-hidden="true">
      <line x1="1" y1="8" x2="27" y2="8" className={`swatch-line ${kind}`} />
    </svg>
  );
}

const ENTRIES: { kind: string; label: string }[] = [
  { kind: 'request', label: 'request' },
  { kind: 'reply', label: 'reply' },
  { kind: 'health', label: 'health check' },
  { kind: 'dnat', label: 'DNAT (destination rewritten)' },
  { kind: 'snat', label: 'SNAT (masquerade: source rewritten)' },
  { kind: 'rotation', label: '○ out of rotation' },
  { kind: 'failed', label: '✗ down (failed)' },
];

/** The stage's legend: what each line style, badge and node mark means. */
export function Legend({ ids }: { ids: StageIds }) {
  return (
    <ul className="stage-legend" aria-label="Legend" data-testid="legend">
      {ENTRIES.map((e) => (
        <li key={e.kind} data-legend={e.kind}>
          <Swatch kind={e.kind} hatch={ids.hatch} />
          {e.label}
        </li>
      ))}
    </ul>
  );
}
