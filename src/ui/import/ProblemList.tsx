import type { Analysis, Problem } from './analyse';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "2 errors, 1 warning", or that there is nothing wrong. */
export function problemSummary(a: Analysis): string {
  if (a.problems.length === 0) return 'No problems found.';
  const parts = [
    a.errors ? plural(a.errors, 'error') : '',
    a.warnings ? plural(a.warnings, 'warning') : '',
  ];
  return `${parts.filter(Boolean).join(', ')}.`;
}

interface Props {
  analysis: Analysis | null;
  summaryId: string;
  /** Moves the editor's cursor to a problem. */
  onGo: (problem: Problem & { line: number }) => void;
}

/**
 * Every problem with its `line:column` (a button that moves the cursor there), then what was
 * assumed to fill the gaps and what was skipped.
 */
export function ProblemList({ analysis, summaryId, onGo }: Props) {
  if (!analysis) {
    return (
      <p id={summaryId} className="import-summary muted" aria-live="polite">
        Checking…
      </p>
    );
  }
  const { problems, assumed, skipped } = analysis;
  return (
    <div className="import-report">
      <p
        id={summaryId}
        className="import-summary"
        data-errors={analysis.errors}
        data-warnings={analysis.warnings}
        aria-live="polite"
      >
        {problemSummary(analysis)}
      </p>
      {problems.length > 0 && (
        <ol className="problem-list" aria-label="Problems" data-testid="problems">
          {problems.map((p, i) => {
            const at = p.line !== undefined ? `${p.line}:${p.column ?? 1}` : '—';
            const body = (
              <>
                <span className="problem-at" data-testid="problem-at">
                  {at}
                </span>{' '}
                <span className={`problem-severity ${p.severity}`}>{p.severity}</span>{' '}
                <span className="problem-message" data-testid="problem-message">
                  {p.message}
                </span>
                {p.object && <span className="problem-object"> in {p.object}</span>}
              </>
            );
            const line = p.line;
            return (
              <li key={i} className={`problem ${p.severity}`} data-severity={p.severity}>
                {line !== undefined ? (
                  <button
                    type="button"
                    className="problem-go"
                    title={`Go to line ${line}`}
                    onClick={() => onGo({ ...p, line })}
                  >
                    {body}
                  </button>
                ) : (
                  <span className="problem-go">{body}</span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {assumed.length > 0 && <p className="assumed-head">What Apply fills in:</p>}
      {assumed.length > 0 && (
        <ul className="assumed-list" aria-label="What Apply fills in" data-testid="assumed">
          {assumed.map((a, i) => (
            <li key={i}>assumed: {a}</li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <p className="skipped muted" data-testid="skipped">
          Skipped (kinds the model does not use): {skipped.join(', ')}.
        </p>
      )}
    </div>
  );
}
