/**
 * The embed's store: the view in the URL fragment (`#s=…`, the share-link format), else the
 * default scenario; never the view saved in this browser (an embed shows what its author
 * linked, the same for every reader). Then the options' step and autoplay.
 */
import { HASH_PREFIX, decodeState, defaultStore, storeForView } from '../store/share';
import { whenModel } from '../store/modelSync';
import { selectStepCount } from '../store/selectors';
import type { AppStore } from '../store/types';
import { goToStep } from './protocol';
import type { EmbedOptions } from './options';

export interface EmbedBoot {
  store: AppStore;
  /** A sentence when the fragment held a link that could not be opened. */
  problem?: string;
}

/** A store for `hash` (e.g. `#s=…`, or '') with `options` applied. */
export function bootEmbed(hash: string, options: EmbedOptions): EmbedBoot {
  let store: AppStore | undefined;
  let problem: string | undefined;
  if (hash.startsWith(HASH_PREFIX)) {
    const decoded = decodeState(hash);
    if (decoded.ok) {
      try {
        store = storeForView(decoded.state);
      } catch {
        problem =
          'The scene in this embed’s link could not be built: showing the default scenario.';
      }
    } else
      problem = `The scene in this embed’s link could not be read (${decoded.reason}): showing the default scenario.`;
  }
  store ??= defaultStore();
  if (options.step !== null) goToStep(store, options.step);
  if (options.autoplay) {
    const s = store;
    whenModel(s, () => {
      if (selectStepCount(s.getState()) > 0) s.getState().setPlaying(true);
    });
  }
  return { store, ...(problem ? { problem } : {}) };
}
