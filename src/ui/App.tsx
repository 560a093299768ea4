import { useCallback, useState } from 'react';
import { LazyMotion, MotionConfig, domAnimation } from 'framer-motion';
import {
  StoreProvider,
  createAppStore,
  selectStepCount,
  selectStepIndex,
  selectModelError,
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
import './styles.css';

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
  return (
    <div
      className="app"
      data-theme={theme}
      data-step-index={index}
      data-step-count={count}
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
          <CopyLinkButton />
          <ThemePicker />
        </div>
      </header>
      {notice && <ShareNotice text={notice} onDismiss={dismiss} />}
      {modelError && (
        <p className="model-error" role="alert">
          The model could not run this scene: {modelError}
        </p>
      )}
      <ImportPanel />
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
      <footer className="app-footer">
        Keys: Space play/pause · ← → step · Home/End first/last · &lt; &gt; speed · P policy · I
        ipMode · R re-roll · Esc gives the keys back to the player
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
      <LazyMotion features={domAnimation} strict>
        <MotionConfig reducedMotion="user">
          <Shell notice={notice} />
        </MotionConfig>
      </LazyMotion>
    </StoreProvider>
  );
}
