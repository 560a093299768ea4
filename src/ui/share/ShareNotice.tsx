import './share.css';

/** A dismissible notice: a link or saved view that could not be opened, and why. */
export function ShareNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="share-notice" role="status" data-testid="share-notice">
      <span>{text}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
