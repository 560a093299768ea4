import type { Outcome } from '../../model/trace/types';
import { selectAtEnd, selectStepCount, selectTrace, useAppStore } from '../../store';

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

function Facts({ outcome: o }: { outcome: Outcome }) {
  switch (o.kind) {
    case 'delivered':
      return (
        <dl className="facts">
          <div>
            <dt>Delivered to</dt>
            <dd className="mono">
              {o.pod} ({o.podIP}) on {o.node}
            </dd>
          </div>
          <div>
            <dt>Source IP the pod sees</dt>
            <dd className="mono">
              {o.sourceIPSeenByPod}{' '}
              {o.clientIPPreserved ? '(the client’s own)' : '(not the client’s)'}
            </dd>
          </div>
          <div>
            <dt>SNAT</dt>
            <dd>{yesNo(o.snat)}</dd>
          </div>
          <div>
            <dt>Crossed nodes</dt>
            <dd>{yesNo(o.crossedNodes)}</dd>
          </div>
          {o.reply && (
            <div data-fact="reply">
              <dt>The reply</dt>
              <dd>{o.reply}</dd>
            </div>
          )}
        </dl>
      );
    case 'dropped':
    case 'rejected':
      return (
        <dl className="facts">
          <div>
            <dt>At</dt>
            <dd className="mono">{o.at}</dd>
          </div>
          <div>
            <dt>Why</dt>
            <dd>{o.reason}</dd>
          </div>
          {o.rule && (
            <div>
              <dt>Rule</dt>
              <dd className="mono">{o.rule}</dd>
            </div>
          )}
        </dl>
      );
    case 'timed-out':
      return (
        <dl className="facts">
          <div>
            <dt>At</dt>
            <dd className="mono">{o.at}</dd>
          </div>
          <div>
            <dt>Why</dt>
            <dd>{o.reason}</dd>
          </div>
        </dl>
      );
    case 'no-address':
      return (
        <dl className="facts">
          <div>
            <dt>Why</dt>
            <dd>{o.reason}</dd>
          </div>
        </dl>
      );
  }
}

const HEADLINE: Record<Outcome['kind'], string> = {
  delivered: '✓ Delivered',
  dropped: '✗ Dropped',
  rejected: '✗ Rejected',
  // Plain symbols only: ⌛ (U+231B) has no glyph in Debian's default fonts.
  'timed-out': '✗ Timed out',
  'no-address': '∅ Nothing to dial',
};

/** The trace's outcome, shown once the last step is on screen (or when there are no steps). */
export function OutcomeBanner() {
  const trace = useAppStore(selectTrace);
  const atEnd = useAppStore(selectAtEnd);
  const count = useAppStore(selectStepCount);
  if (!atEnd) return null;
  const o = trace.outcome;
  return (
    <section
      className={`outcome outcome-${o.kind}`}
      data-testid="outcome"
      data-outcome={o.kind}
      {...(o.kind === 'delivered'
        ? {
            'data-pod-ip': o.podIP,
            'data-source-ip': o.sourceIPSeenByPod,
            'data-snat': String(o.snat),
            'data-crossed-nodes': String(o.crossedNodes),
          }
        : {})}
      aria-label="Outcome"
    >
      <h2>
        {HEADLINE[o.kind]}
        {count === 0 ? '' : ` — after ${count} ${count === 1 ? 'step' : 'steps'}`}
      </h2>
      <p>{o.summary}</p>
      <Facts outcome={o} />
    </section>
  );
}
