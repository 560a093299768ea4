import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import { LazyMotion, MotionConfig } from 'framer-motion';
import { loadMotionFeatures } from './motionFeatures';
import {
  StoreProvider,
  createAppStore,
  selectStepCount,
  selectStepIndex,
  selectModelError,
  selectScene,
  selectUi,
  useAppStore,
  useAppStoreApi,
} from '../store';
import type { AppStore, Theme } from '../store';
import { ErrorBoundary } from './ErrorBoundary';
import { Panel } from './Panel';
import { Topology } from './topology/Topology';
import { PlaybackControls } from './controls/PlaybackControls';
import { SceneControls } from './controls/SceneControls';
import { Narration } from './panels/Narration';
import { PacketInspector } from './panels/PacketInspector';
import { RulePanel } from './panels/RulePanel';
import { ConntrackPanel } from './panels/ConntrackPanel';
import { NodePicker, RulesPanel } from './panels/RulesPanel';
import { OutcomeBanner } from './panels/OutcomeBanner';
import { WalkthroughPanel } from './panels/WalkthroughPanel';
import { useGlobalKeys } from './useGlobalKeys';
import { usePlaybackClock } from './usePlaybackClock';
import { CopyLinkButton } from './share/CopyLinkButton';
import { ShareNotice } from './share/ShareNotice';
import { useShareSync } from './share/useShareSync';
import { ImportPanel } from './import/ImportPanel';
import { TutorialToggle } from './tutorial/TutorialToggle';
import { RestoreNotice } from './tutorial/RestoreNotice';
import { parseLearnHash, useLocationHash } from './tutorial/route';
import { TIME_KEYS, TimeViewToggle, TimeWorkspace, useTimeView } from './timeline/entry';
import './theme/tokens.css';
import './styles.css';

const TutorialReader = lazy(() => import('./tutorial/TutorialReader'));

function ThemePicker() {
  const store = useAppStoreApi();
  const { theme } = useAppStore(selectUi);
  return (
    <label className="theme-picker">
      Theme{' '}
      <select value={theme} onChange={(e) => store.getState().setTheme(e.target.value as Theme)}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}

function Shell({ notice: initialNotice }: { notice?: string | undefined }) {
  const store = useAppStoreApi();
  useGlobalKeys(store);
  usePlaybackClock(store);
  const [notice, setNotice] = useState(initialNotice);
  useShareSync(store, setNotice);
  const dismiss = useCallback(() => setNotice(undefined), []);
  const index = useAppStore(selectStepIndex);
  const count = useAppStore(selectStepCount);
  const { theme } = useAppStore(selectUi);
  const modelError = useAppStore(selectModelError);
  const scene = useAppStore(selectScene);
  const hash = useLocationHash();
  const route = useMemo(() => parseLearnHash(hash), [hash]);
  const timeView = useTimeView();
  return (
    <div
      className="app"
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
      <header className="app-header">
        <div>
          <h1>LoadBalancer data path</h1>
          <p className="subtitle">
            Follow one connection from a client through the cloud load balancer, a node’s NodePort
            and kube-proxy’s DNAT/SNAT rules to a Pod — and back through conntrack.
          </p>
        </div>
        <div className="header-actions">
          <TutorialToggle open={route !== null} />
          <TimeViewToggle />
          <CopyLinkButton />
          <ThemePicker />
        </div>
      </header>
      {notice && <ShareNotice text={notice} onDismiss={dismiss} />}
      <RestoreNotice reading={route !== null} />
      {modelError && (
        <p className="model-error" role="alert">
          The model could not run this scene: {modelError}
        </p>
      )}
      <ImportPanel />
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
        {timeView ? (
          <TimeWorkspace />
        ) : (
          <main className="layout">
            {/* The playback controls come first in the DOM, so Tab reaches Play before the nodes in
              the drawing (Tab, Tab, Space must not fail a node); CSS keeps them under it. */}
            <section className="stage area-stage" aria-label="Topology and playback">
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
            </section>
            <Panel title="Narration" testId="narration" className="area-narration">
              <Narration />
              <OutcomeBanner />
            </Panel>
            <Panel title="Walkthrough" testId="walkthrough" className="area-walkthrough">
              <WalkthroughPanel />
            </Panel>
            <Panel title="Scene" testId="scene" className="area-scene">
              <SceneControls />
            </Panel>
            <div className="panel-row area-panels">
              <div className="stack">
                <Panel title="Packet" testId="inspector">
                  <PacketInspector />
                </Panel>
                <Panel title="conntrack" testId="conntrack">
                  <ConntrackPanel />
                </Panel>
              </div>
              <Panel title="Rule and decision" testId="rule">
                <RulePanel />
              </Panel>
            </div>
            <Panel
              title="kube-proxy rules on the node"
              testId="rules"
              className="area-rules"
              actions={<NodePicker />}
            >
              <RulesPanel />
            </Panel>
          </main>
        )}
      </div>
      <footer className="app-footer">
        {timeView ? (
          TIME_KEYS
        ) : (
          <>
            Keys: Space play/pause · ← → step · Home/End first/last · &lt; &gt; speed · P policy · I
            ipMode · R re-roll · Esc gives the keys back to the player
            {route &&
              ' · In the tutorial’s text, Space, Page Up/Down and Home/End scroll it; the player’s keys wait for Esc'}
          </>
        )}
      </footer>
    </div>
  );
}

/**
 * The app: one store for its lifetime, opened on the walkthrough's first step unless one is
 * given (`main.tsx` opens a shared link or the saved view); `notice` says why a link or saved
 * view was not opened.
 */
export function App({ store: given, notice }: { store?: AppStore; notice?: string } = {}) {
  const [store] = useState(() => given ?? createAppStore({ story: 0 }));
  return (
    <StoreProvider store={store}>
      <LazyMotion features={loadMotionFeatures} strict>
        <MotionConfig reducedMotion="user">
          <Shell notice={notice} />
        </MotionConfig>
      </LazyMotion>
    </StoreProvider>
  );
}
