// The iframe embed's page (embed.html): the stage, player and narration of the scene in the URL
// fragment, with the query's options (./options.ts) and the postMessage API (./protocol.ts).
// First: the model worker starts loading while everything below evaluates.
import '../worker/earlyWorker';
import { StrictMode, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { StoreProvider } from '../store';
import type { AppStore } from '../store';
import { setDefaultEngine } from '../store/engine';
import { firstAnswer } from '../store/firstAnswer';
import { createWorkerEngine } from '../worker/client';
import { EmbedView } from './EmbedView';
import { bootEmbed } from './bootEmbed';
import { parseEmbedOptions } from './options';
import type { EmbedOptions } from './options';
import { useHostBridge } from './useHostBridge';

/** How long the first render waits for the model's first answer, at most (ms). */
const FIRST_ANSWER_MAX_MS = 1000;

/** The full app for a share hash: index.html beside this page. */
function fullAppHref(hash: string | null): string {
  return new URL(`./${hash ?? ''}`, window.location.href).href;
}

function IframeEmbed({
  store,
  options,
  problems,
}: {
  store: AppStore;
  options: EmbedOptions;
  problems: string[];
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  const onUnusedKey = useHostBridge(store, options.origins, rootRef);
  // Mounted: the view answers input (the e2e fixtures wait for this, as in src/main.tsx).
  useEffect(() => {
    if (container) container.dataset.hydration = 'none';
  }, []);
  return (
    <EmbedView
      options={options}
      problems={problems}
      fullAppHref={fullAppHref}
      keyScope="window"
      ownPage
      onUnusedKey={onUnusedKey}
      rootRef={rootRef}
    />
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('embed.html has no #root element');
setDefaultEngine(createWorkerEngine());
const { options, problems } = parseEmbedOptions(window.location.search);
const start = bootEmbed(window.location.hash, options);
const all = start.problem ? [start.problem, ...problems] : problems;
void firstAnswer(start.store, FIRST_ANSWER_MAX_MS).then(() =>
  createRoot(container).render(
    <StrictMode>
      <StoreProvider store={start.store}>
        <IframeEmbed store={start.store} options={options} problems={all} />
      </StoreProvider>
    </StrictMode>,
  ),
);
