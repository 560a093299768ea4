import { useEffect, useState, useSyncExternalStore } from 'react';
import { useAppStore, useAppStoreApi } from '../../store';
import { displacedCluster, readStash, restoreKept, subscribeStash, writeStash } from './stash';

/**
 * After the tutorial closes (Close, or Back out of it): when the tutorial replaced the learner's
 * own cluster (stash.ts) and it is still off screen, a notice offers to bring it back — Restore,
 * or keep what the tutorial showed. Either answer forgets the kept view; so does closing when
 * nothing was displaced. Part of the initial bundle (small: the reader itself loads on demand).
 *
 * For tests: `data-testid="restore-notice"`.
 */
export function RestoreNotice({ reading }: { reading: boolean }) {
  const store = useAppStoreApi();
  const kept = useSyncExternalStore(subscribeStash, readStash, () => null);
  const displaced = useAppStore((s) => kept !== null && displacedCluster(s) !== null);
  // Closed: the reader went away (or the page opened without it while a view was still kept,
  // e.g. a reload after closing). Derived from the previous `reading`, as React recommends.
  const [prevReading, setPrevReading] = useState(reading);
  const [closedAfterReading, setClosedAfterReading] = useState(!reading);
  if (reading !== prevReading) {
    setPrevReading(reading);
    setClosedAfterReading(!reading);
  }
  // Closed with nothing displaced (or the cluster came back, e.g. Back to its link): forget it.
  useEffect(() => {
    if (!reading && closedAfterReading && kept !== null && !displaced) writeStash(null);
  }, [reading, closedAfterReading, kept, displaced]);
  if (reading || !closedAfterReading || !displaced) return null;
  return (
    <div className="share-notice restore-notice" role="status" data-testid="restore-notice">
      <span>
        The visualiser still shows the tutorial’s scenario. Your own cluster from before is kept.
      </span>
      <span className="restore-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            restoreKept(store);
            writeStash(null);
          }}
        >
          Restore your cluster
        </button>
        <button type="button" onClick={() => writeStash(null)}>
          Keep this view
        </button>
      </span>
    </div>
  );
}
