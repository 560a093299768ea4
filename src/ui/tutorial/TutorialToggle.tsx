import { useAppStoreApi } from '../../store';
import { selectShareHash } from '../../store/share';
import { LEARN_PREFIX, navigate } from './route';

/** The id of the reader's region, for `aria-controls`. */
export const READER_ID = 'tutorial-reader';

/**
 * Leaves the tutorial: the address bar gets the visualiser's `#s=` link again (a new history
 * entry, so Back reopens the reader where it was).
 */
export function closeTutorial(hash: string | null): void {
  navigate(hash ?? '');
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
