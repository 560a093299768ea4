import { useAppStoreApi } from '../../store';
import { selectShareHash } from '../../store/share';
import { LEARN_PREFIX, navigate } from './route';

/** The id of the reader's region, for `aria-controls`. */
export const READER_ID = 'tutorial-reader';

/** The id of the header's Tutorial button (focus returns there when the reader closes). */
export const TOGGLE_ID = 'tutorial-toggle';

/**
 * Leaves the tutorial: the address bar gets the visualiser's `#s=` link again (a new history
 * entry, so Back reopens the reader where it was), and focus goes to the Tutorial button.
 */
export function closeTutorial(hash: string | null): void {
  navigate(hash ?? '');
  document.getElementById(TOGGLE_ID)?.focus();
}

/**
 * The header's "Tutorial" button: opens the reader (`#/learn`, which resumes at the last chapter
 * read) or closes it. Part of the initial bundle; the reader itself loads on demand.
 */
export function TutorialToggle({ open }: { open: boolean }) {
  const store = useAppStoreApi();
  return (
    <button
      type="button"
      id={TOGGLE_ID}
      className={open ? 'tutorial-toggle open' : 'tutorial-toggle'}
      aria-expanded={open}
      {...(open ? { 'aria-controls': READER_ID } : {})}
      data-testid="tutorial-toggle"
      onClick={() =>
        open ? closeTutorial(selectShareHash(store.getState())) : navigate(LEARN_PREFIX)
      }
    >
      {open ? 'Close tutorial' : 'Tutorial'}
    </button>
  );
}
