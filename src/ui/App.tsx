import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import {
  StoreProvider,
  createAppStore,
  selectStepCount,
  selectStepIndex,
  selectModelError,
  selectModelPending,
  selectScene,
  selectUi,
  useAppStore,
  useAppStoreApi,
  useModelBusy,
} from '../store';
import type { AppStore, Theme } from '../store';
import { ErrorBoundary } from './ErrorBoundary';
import { Panel } from './Panel';
import { Topology } from './topology/Topology';
import { PlaybackControls } from './controls/PlaybackControls';
import { SceneControls } from './controls/SceneControls';
import { Narration } from './panels/Narration';
import { OutcomeBanner } from './panels/OutcomeBanner';
import { DetailsTabs } from './panels/DetailsTabs';
import type { DetailTab } from './panels/DetailsTabs';
import { useGlobalKeys } from './useGlobalKeys';
import { usePlaybackClock } from './usePlaybackClock';
import { CopyLinkButton } from './share/CopyLinkButton';
import { EmbedCodeButton } from './share/EmbedCodeButton';
import { ExportMenu } from './export/ExportMenu';
import { ShareNotice } from './share/ShareNotice';
import { useShareSync } from './share/useShareSync';
import { ClusterImport } from './import/ClusterImport';
import type { ImportNotice } from './import/ClusterImport';
import { TutorialToggle } from './tutorial/TutorialToggle';
import { RestoreNotice } from './tutorial/RestoreNotice';
import { parseLearnHash, useLocationHash } from './tutorial/route';
import { TIME_KEYS, TimeViewToggle, TimeWorkspace, useTimeView } from './timeline/entry';
import { PresentButton, PresentMode, usePresentKey, usePresentRoute } from './present/entry';
import './theme/tokens.css';
import './styles.css';
import './layout.css';
import './panels/walkthrough.css';

const TutorialReader = lazy(() => import('./tutorial/TutorialReader'));

function ThemePicker() {
  const store = useAppStoreApi();
  const { theme } = useAppStore(selectUi);
  return (
    <label className="theme-picker">
      <span className="theme-label">Theme</span>
      <select value={theme} onChange={(e) => store.getState().setTheme(e.target.value as Theme)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
        <option value="contrast">High contrast</option>
      </select>
    </label>
  );
}

/** The header's one row: the title and the app's actions. */
function Header({ reading, cluster }: { reading: boolean; cluster: ReactNode }) {
  return (
    <header className="app-header">
      <h1>
        LoadBalancer data path
        <span className="visually-hidden">
          : follow one connection from a client through the cloud load balancer, a node’s NodePort
          and kube-proxy’s DNAT/SNAT rules to a Pod, and back through conntrack
        </span>
      </h1>
      <div className="header-actions">
        {cluster}
        <TutorialToggle open={reading} />
        <TimeViewToggle />
        <CopyLinkButton />
        <EmbedCodeButton />
        <ExportMenu />
        <PresentButton />
        <ThemePicker />
      </div>
    </header>
  );
}

/** The status line a successful import leaves under the header (announced, dismissible). */
function ImportNoticeLine({
  notice,
  onDismiss,
}: {
  notice: ImportNotice | null;
  onDismiss: () => void;
}) {
  return (
    <div className="import-notice" role="status" data-testid="import-notice">
      {notice && (
        <>
          <span>
            {notice.text}
            {notice.replaced &&
              ' The editor’s previous text was replaced: open Your cluster… to put it back.'}
          </span>
          <button type="button" onClick={onDismiss} aria-label="Dismiss the import message">
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}

/**
 * The trace view: the stage (drawing, player, narration) and the side column (scene toggles,
 * then the walkthrough and the step's details in tabs). `data-tab` widens the side column for
 * the kube-proxy rules, whose lines are long.
 */
function TraceLayout() {
  const [tab, setTab] = useState<DetailTab>('walkthrough');
  const busy = useModelBusy();
  const pending = useAppStore(selectModelPending);
  return (
    <main className="layout trace-layout" data-tab={tab}>
      {/* The playback controls come first in the DOM, so Tab reaches Play before the nodes in
          the drawing (Tab, Tab, Space must not fail a node); CSS draws them under it. */}
      <section
        className="stage area-stage"
        aria-label="Topology and playback"
        aria-busy={busy}
        data-testid="stage"
        // For tests: whether the answer on screen is for the scene on screen.
        data-model-pending={pending}
      >
        {/* The last drawing stays on screen while a newer answer is computed (src/worker/). */}
        <p className="stage-busy" role="status" data-testid="stage-busy" data-busy={busy}>
          {busy ? 'Computing…' : ''}
        </p>
        <div className="stage-controls">
          <ErrorBoundary name="the playback controls">
            <PlaybackControls />
          </ErrorBoundary>
        </div>
        <div className="stage-drawing">
          <ErrorBoundary name="the topology">
            <Topology />
          </ErrorBoundary>
        </div>
        <section
          className="stage-caption"
          data-testid="narration"
          aria-labelledby="narration-heading"
        >
          <h2 id="narration-heading" className="visually-hidden">
            Narration
          </h2>
          <ErrorBoundary name="the narration">
            <div className="caption-body">
              <Narration />
              <OutcomeBanner />
            </div>
          </ErrorBoundary>
        </section>
      </section>
      <div className="side area-side">
        <Panel title="Scene" testId="scene" className="area-scene">
          <SceneControls />
        </Panel>
        <DetailsTabs tab={tab} onTab={setTab} />
      </div>
    </main>
  );
}

function Shell({ notice: initialNotice }: { notice?: string | undefined }) {
  const store = useAppStoreApi();
  const presenting = usePresentRoute().on;
  useGlobalKeys(store, !presenting);
  usePresentKey(presenting);
  usePlaybackClock(store);
  const [notice, setNotice] = useState(initialNotice);
  useShareSync(store, setNotice);
  const dismiss = useCallback(() => setNotice(undefined), []);
  const [importOpen, setImportOpen] = useState(false);
  const [importNotice, setImportNotice] = useState<ImportNotice | null>(null);
  const index = useAppStore(selectStepIndex);
  const count = useAppStore(selectStepCount);
  const { theme } = useAppStore(selectUi);
  const modelError = useAppStore(selectModelError);
  const scene = useAppStore(selectScene);
  const hash = useLocationHash();
  const route = useMemo(() => parseLearnHash(hash), [hash]);
  const timeView = useTimeView();
  // The trace view is as tall as the window (the page does not scroll; its columns do).
  const fit = !timeView;
  return (
    <div
      className={`app${fit ? ' fit' : ''}${route ? ' reading' : ''}${presenting ? ' presenting' : ''}`}
      data-theme={theme}
      data-step-index={index}
      data-step-count={count}
      // The scene on screen, for tests that check a tutorial link opened what it names.
      data-policy={scene.externalTrafficPolicy}
      data-ip-mode={scene.ipMode}
      data-delivery={scene.delivery}
      data-published={scene.published}
      data-failed-nodes={scene.failedNodes.join(',')}
      data-client={scene.client}
      data-dial={
        scene.dial.kind === 'NodePort' ? `NodePort:${scene.dial.nodeName}` : scene.dial.kind
      }
      data-proxy-mode={scene.proxyMode ?? ''}
      data-seed={scene.seed}
      data-lb-target={scene.choices.lbTarget ?? ''}
      data-endpoint={scene.choices.endpoint ?? ''}
      data-reading={route ? 'true' : 'false'}
      data-testid="app"
    >
      {presenting ? (
        <PresentMode />
      ) : (
        <>
          <Header
            reading={route !== null}
            cluster={
              <ClusterImport
                open={importOpen}
                onOpenChange={setImportOpen}
                onNotice={setImportNotice}
              />
            }
          />
          <div className="notices">
            {notice && <ShareNotice text={notice} onDismiss={dismiss} />}
            <RestoreNotice reading={route !== null} />
            {modelError && (
              <p className="model-error" role="alert">
                The model could not run this scene: {modelError}
              </p>
            )}
            <ImportNoticeLine notice={importNotice} onDismiss={() => setImportNotice(null)} />
          </div>
          <div className={route ? 'workspace reading' : 'workspace'}>
            {route && (
              <ErrorBoundary name="the tutorial">
                <Suspense
                  fallback={
                    <p className="tutorial-loading" role="status">
                      Loading the tutorial…
                    </p>
                  }
                >
                  <TutorialReader route={route} />
                </Suspense>
              </ErrorBoundary>
            )}
            {timeView ? <TimeWorkspace /> : <TraceLayout />}
          </div>
          <footer className="app-footer">
            {timeView ? (
              TIME_KEYS
            ) : (
              <>
                Keys: Space play/pause · ← → step · Home/End first/last · &lt; &gt; speed · P policy
                · I ipMode · R re-roll · Esc gives the keys back to the player
                {route &&
                  ' · In the tutorial’s text, Space, Page Up/Down and Home/End scroll it; the player’s keys wait for Esc'}
              </>
            )}
          </footer>
        </>
      )}
    </div>
  );
}

/**
 * The app: one store for its lifetime, opened on the walkthrough's first step unless one is
 * given (`main.tsx` opens a shared link or the saved view); `notice` says why a link or saved
 * view was not opened.
 */
export function App({
  store: given,
  notice,
  onMounted,
}: {
  store?: AppStore;
  notice?: string;
  /** Called once, after the first commit: the page's handlers are attached (src/main.tsx). */
  onMounted?: () => void;
} = {}) {
  const [store] = useState(() => given ?? createAppStore({ story: 0 }));
  const mounted = useRef(onMounted);
  useEffect(() => mounted.current?.(), []);
  return (
    <StoreProvider store={store}>
      {/* framer-motion is not here: the packet loads it after first paint (motionFeatures.ts). */}
      <Shell notice={notice} />
    </StoreProvider>
  );
}
