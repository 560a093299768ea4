// First: the model worker starts loading while everything below evaluates.
import './worker/earlyWorker';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { boot, browserStorage } from './store/share';
import { setDefaultEngine } from './store/engine';
import { createWorkerEngine } from './worker/client';
import { firstAnswer } from './store/firstAnswer';

/** How long the first render waits for the model's first answer, at most (ms). */
const FIRST_ANSWER_MAX_MS = 1000;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The model runs in a Web Worker (src/worker/): the page stays responsive on big clusters.
setDefaultEngine(createWorkerEngine());

// A shared link (#s=…) wins, then the last view saved in this browser, then the default.
const start = boot(window.location.hash, browserStorage());
if (start.badLink) {
  // The notice says why; a reload should not say it again.
  window.history.replaceState(
    window.history.state,
    '',
    window.location.pathname + window.location.search,
  );
}

// The page is drawn once, with the model's first answer (store/firstAnswer.ts).
void firstAnswer(start.store, FIRST_ANSWER_MAX_MS).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App store={start.store} {...(start.notice ? { notice: start.notice } : {})} />
    </StrictMode>,
  ),
);
