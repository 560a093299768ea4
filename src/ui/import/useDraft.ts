/**
 * This tab's draft of the editor's text, kept in the browser while the importer is mounted
 * (store/draft/: one key per tab, migrated from version 1, never silently unsaved).
 */
import { useEffect, useState } from 'react';
import type { AppStore } from '../../store';
import { INITIAL_STATUS, browserDraftEnv, syncDraft } from '../../store/draft/sync';
import type { DraftStatus } from '../../store/draft/sync';

/** Restores and saves `store`'s editor text; returns how it stands with the browser's storage. */
export function useDraft(store: AppStore): DraftStatus {
  const [status, setStatus] = useState<DraftStatus>(INITIAL_STATUS);
  useEffect(() => syncDraft(store, browserDraftEnv(), setStatus), [store]);
  return status;
}
