import type { Analysis, Problem } from './analyse';
import { MAX_SHOWN_PROBLEMS } from './limits';
import type { ShownAnalysis } from './limits';

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
  analysis: Analysis | ShownAnalysis | null;
  summaryId: string;
  /** Moves the editor's cursor to a problem. */
  onGo: (problem: Problem & { line: number }) => void;
  /** A check has been running for a while: say so (the list shown is the last one's). */
  checking?: boolean;
}

/** "and 12 more", or '' when nothing is left out. */
function moreText(n: number, what: string): string {
  return n > 0 ? `…and ${n.toLocaleString('en-US')} more ${what}${n === 1 ? '' : 's'}.` : '';
}

/**
 * The first 100 problems with their `line:column` (a button that moves the cursor there) and
 * how many more there are, then what was assumed to fill the gaps and what was skipped.
 */
export function ProblemList({ analysis, summaryId, onGo, checking = false }: Props) {
  if (!analysis) {
    return (
      <p id={summaryId} className="import-summary muted" aria-live="polite">
        Checking…
      </p>
    );
  }
  const problems = analysis.problems.slice(0, MAX_SHOWN_PROBLEMS);
  const moreProblems =
    analysis.problems.length - problems.length + ('more' in analysis ? analysis.more : 0);
  const assumed = analysis.assumed.slice(0, MAX_SHOWN_PROBLEMS);
  const moreAssumed = analysis.assumed.length - assumed.length;
  const skipped = analysis.skipped.slice(0, MAX_SHOWN_PROBLEMS);
  const moreSkipped = analysis.skipped.length - skipped.length;
  return (
    <div className="import-report">
      {checking && (
        <p className="import-checking muted" data-testid="checking">
          Checking…
        </p>
      )}
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
      {moreProblems > 0 && (
        <p className="problem-more muted" data-testid="problems-more">
          {moreText(moreProblems, 'problem')}
        </p>
      )}
      {assumed.length > 0 && <p className="assumed-head">What Apply fills in:</p>}
      {assumed.length > 0 && (
        <ul className="assumed-list" aria-label="What Apply fills in" data-testid="assumed">
          {assumed.map((a, i) => (
            <li key={i}>assumed: {a}</li>
          ))}
        </ul>
      )}
      {moreAssumed > 0 && (
        <p className="assumed-more muted" data-testid="assumed-more">
          {moreText(moreAssumed, 'assumption')}
        </p>
      )}
      {skipped.length > 0 && (
        <p className="skipped muted" data-testid="skipped">
          Skipped (kinds the model does not use): {skipped.join(', ')}
          {moreSkipped > 0 ? `, and ${moreSkipped.toLocaleString('en-US')} more` : ''}.
        </p>
      )}
    </div>
  );
}
