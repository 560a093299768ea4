/**
 * The baseline of `npm run bench:browser` (issue 11, "Initial load"): a bare React 19 page that
 * renders one element, `#ready`, as the app renders its first drawing. Built by
 * scripts/bench-load.mjs with Vite and the same React plugin as the app; never shipped.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <p id="ready">React {'is'} ready.</p>
  </StrictMode>,
);
