// First: the model worker starts loading while everything below evaluates.
import './worker/earlyWorker';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './ui/App';
import { boot, browserStorage, tabStorage } from './store/share';
import { setDefaultEngine } from './store/engine';
import { createWorkerEngine } from './worker/client';
import { firstAnswer } from './store/firstAnswer';
import { loadTheme, saveTheme } from './store/themePref';

/** How long the first render waits for the model's first answer, at most (ms). */
const FIRST_ANSWER_MAX_MS = 1000;
/**
 * How long hydrating the prerendered page waits for it (ms): the page is already on screen,
 * and hydrating before the answer would throw the prerendered HTML away.
 */
const HYDRATE_ANSWER_MAX_MS = 30_000;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// `?speaker=1`: present mode's speaker view, a window of its own (src/ui/present/).
const speaker = new URLSearchParams(window.location.search).get('speaker') === '1';

/** The app (everything below is for it). */
function startApp(root: HTMLElement): void {
  // The model runs in a Web Worker (src/worker/): the page stays responsive on big clusters.
  setDefaultEngine(createWorkerEngine());

  // A shared link (#s=…) wins, then the last view saved in this tab, then in this browser,
  // then the default.
  const start = boot(window.location.hash, browserStorage(), tabStorage());
  // The theme picked here before, kept apart from the view (store/themePref.ts).
  const kept = loadTheme(browserStorage());
  if (kept) start.store.getState().setTheme(kept);
  start.store.subscribe((s, prev) => {
    if (s.ui.theme !== prev.ui.theme) saveTheme(browserStorage(), s.ui.theme);
  });
  if (start.badLink) {
    // The notice says why; a reload should not say it again.
    window.history.replaceState(
      window.history.state,
      '',
      window.location.pathname + window.location.search,
    );
  }

  // A first visit's page is already on screen: the build prerendered the default view into
  // #root (scripts/prerender.ts), and an inline script emptied it if this visit opens another.
  // React hydrates it once the model's first answer has landed (the HTML was rendered from that
  // answer). Anything else is drawn once, with the first answer (store/firstAnswer.ts).
  // Once the page answers input, `#root[data-hydration]` says how it got there: `clean`
  // (hydrated), `recovered` (the HTML did not match and React rendered it again) or `none`
  // (rendered on the client).
  const prerendered =
    root.hasAttribute('data-prerendered') && start.source === 'default' && !start.notice;
  let how: 'clean' | 'recovered' | 'none' = prerendered ? 'clean' : 'none';
  let mounted = false;
  const app = (
    <StrictMode>
      <App
        store={start.store}
        {...(start.notice ? { notice: start.notice } : {})}
        onMounted={() => {
          mounted = true;
          root.dataset.hydration = how;
        }}
      />
    </StrictMode>
  );
  if (prerendered) {
    void firstAnswer(start.store, HYDRATE_ANSWER_MAX_MS).then(() =>
      hydrateRoot(root, app, {
        onRecoverableError(error) {
          how = 'recovered';
          if (mounted) root.dataset.hydration = how;
          console.warn('The prerendered page did not match and was rendered again:', error);
        },
      }),
    );
  } else {
    root.removeAttribute('data-prerendered');
    root.replaceChildren();
    void firstAnswer(start.store, FIRST_ANSWER_MAX_MS).then(() => createRoot(root).render(app));
  }
}

/** The speaker view: no store, no model; it shows what the presenting window sends. */
function startSpeaker(root: HTMLElement): void {
  root.removeAttribute('data-prerendered');
  root.replaceChildren();
  void import('./ui/present/SpeakerView').then(({ SpeakerView }) => {
    createRoot(root).render(
      <StrictMode>
        <SpeakerView />
      </StrictMode>,
    );
    root.dataset.hydration = 'none';
  });
}

if (speaker) startSpeaker(container);
else startApp(container);
