/**
 * What the dialog says about the browser keeping the editor's text: an alert while it is not
 * saved (storage full or blocked, or text over the limit) with a download of the text, gone
 * once a save works again; and a quiet note when another tab saved different text (this tab's
 * text is never replaced by it).
 */
import { MAX_SAVED_EDITOR_CHARS } from '../../store/draft/drafts';
import type { SaveProblem } from '../../store/draft/drafts';
import type { DraftStatus } from '../../store/draft/sync';

const WHY: Record<SaveProblem, string> = {
  full: 'the browser’s storage for this site is full',
  'too-large': `it is longer than ${MAX_SAVED_EDITOR_CHARS.toLocaleString('en-US')} characters, the most this app keeps there`,
  blocked: 'the browser does not let this page store anything',
};

/** The sentence for a failed save: why, and what a reload would do. */
export function unsavedMessage(problem: SaveProblem): string {
  return `Your text is not saved in this browser: ${WHY[problem]}. A reload would lose your latest changes: download the text to keep it. This notice goes once it is saved again.`;
}

interface Props {
  status: DraftStatus;
  /** Downloads the editor's text as it is. */
  onDownload: () => void;
}

/** The not-saved alert (an always-present live region, empty while saved) and the other-tab note. */
export function DraftNotice({ status, onDownload }: Props) {
  const problem = status.state === 'unsaved' ? status.problem : null;
  return (
    <>
      <div className="draft-notice" role="alert" aria-live="assertive" data-testid="draft-notice">
        {problem && (
          <>
            <p>{unsavedMessage(problem)}</p>
            <button type="button" onClick={onDownload}>
              Download as YAML
            </button>
          </>
        )}
      </div>
      {status.otherTabChanged && (
        <p className="draft-other muted" data-testid="draft-other-tab">
          Another tab of this app saved different text. Each tab keeps its own: this one is
          unchanged.
        </p>
      )}
    </>
  );
}
