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

const ENTRIES: { kind: string; label: string; title: string }[] = [
  { kind: 'request', label: 'request', title: 'The request, solid line' },
  { kind: 'reply', label: 'reply', title: 'The reply, dashed line' },
  { kind: 'health', label: 'health check', title: 'The balancer’s health checks, dotted line' },
  { kind: 'dnat', label: 'DNAT', title: 'DNAT: kube-proxy rewrote the destination here' },
  { kind: 'snat', label: 'SNAT', title: 'SNAT (masquerade): kube-proxy rewrote the source here' },
  {
    kind: 'rotation',
    label: '○ out of rotation',
    title: 'The balancer sends no new connections to this node (dashed frame)',
  },
  { kind: 'failed', label: '✗ down', title: 'A failed node: hatched, red dashed frame' },
];

/**
 * The stage's legend: what each line style, badge and node mark means, and (`reply`) one line
 * on what balancer the scene models and where the reply goes.
 */
export function Legend({ ids, reply }: { ids: StageIds; reply?: string | undefined }) {
  return (
    <ul className="stage-legend" aria-label="Legend" data-testid="legend">
      {ENTRIES.map((e) => (
        <li key={e.kind} data-legend={e.kind} title={e.title}>
          <Swatch kind={e.kind} hatch={ids.hatch} />
          {e.label}
        </li>
      ))}
      {reply && (
        <li data-legend="reply-path" title="Where the reply goes, for this balancer">
          ↩ {reply}
        </li>
      )}
    </ul>
  );
}
