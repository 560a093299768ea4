/**
 * Waiting for a store's first model answer before the page's first render (`src/main.tsx`).
 *
 * With the model in a Web Worker the first answer arrives after the app's modules evaluate.
 * Rendering the page before it meant two renders, two layouts and two paints on the critical
 * path (the page without its drawing, then the drawing), with the answer's message queued
 * behind the first; at 4× CPU throttle that was ~0.4-0.9 s between the page and its drawing,
 * and the stage grew when the answer landed. Rendering once, with the answer, draws the whole
 * page in one frame. A slow answer (a saved 1,000-node view) does not hold the page back
 * longer than `maxMs`: the page is drawn without it, as before, and the answer lands later.
 */
import { whenModel } from './modelSync';
import type { AppStore } from './types';

/**
 * Resolves once `store` holds the answer for its objects and scene (at once with a sync
 * engine, or when it is already there), or after `maxMs` milliseconds, whichever is first.
 * Never rejects: a failed answer is an answer (the page shows its error).
 */
export function firstAnswer(store: AppStore, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    whenModel(
      store,
      () => {
        clearTimeout(timer);
        resolve();
      },
      true,
    );
  });
}
