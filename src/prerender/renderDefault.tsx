/**
 * The default view rendered to HTML at build time (scripts/prerender.ts puts it in
 * index.html's `#root`), so a first visit paints the walkthrough's first step before any of
 * the app's JavaScript has loaded; `src/main.tsx` then hydrates it.
 *
 * The HTML must be exactly what the page's first render would be, or React throws it away
 * and renders again (a recoverable error, the page still works). So this builds the store the
 * way `main.tsx` does for a first visit — `boot('')` with no saved view — and answers it with
 * the same engine the page uses (`createWorkerEngine`, which runs the worker's handler in this
 * thread where there is no `Worker`), waiting for the first answer as the page does.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from '../ui/App';
import { boot } from '../store/share';

/** The saved view's localStorage key, for the build's keep-or-empty script (scripts/prerender.ts). */
export { STORAGE_KEY } from '../store/share';
/** The kept theme's key: a visit with one is rendered on the client (its theme, not System's). */
export { THEME_KEY } from '../store/themePref';
import { setDefaultEngine } from '../store/engine';
import { firstAnswer } from '../store/firstAnswer';
import { createWorkerEngine } from '../worker/client';
import { smallestKeptWidth } from './keepWidth';

/** How long the build waits for the model's first answer, ms (it takes ~10 ms). */
const ANSWER_MAX_MS = 30_000;

/** The prerendered page, and the narrowest stage (px) it is right for (`keepWidth.ts`). */
export interface Prerendered {
  html: string;
  minStageWidth: number;
}

/**
 * The HTML of the app's first render for a first visit (no link, no saved view).
 * @throws {Error} if the model did not answer, or answered with an error: a build must not
 * ship a page that says the default scenario could not be resolved.
 */
export async function renderDefault(): Promise<Prerendered> {
  setDefaultEngine(createWorkerEngine());
  const start = boot('', undefined);
  await firstAnswer(start.store, ANSWER_MAX_MS);
  const answer = start.store.getState().model.derived;
  if (!answer.ok) {
    throw new Error(
      `prerender: the model gave no answer for the default view${answer.error ? `: ${answer.error}` : ' in time'}`,
    );
  }
  const html = renderToString(
    <StrictMode>
      <App store={start.store} />
    </StrictMode>,
  );
  return { html, minStageWidth: smallestKeptWidth(start.store.getState()) };
}
