// First: the model worker starts loading while everything below evaluates.
import './worker/earlyWorker';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { boot, browserStorage } from './store/share';
import { setDefaultEngine } from './store/engine';
import { createWorkerEngine } from './worker/client';

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

createRoot(container).render(
  <StrictMode>
    <App store={start.store} {...(start.notice ? { notice: start.notice } : {})} />
  </StrictMode>,
);
