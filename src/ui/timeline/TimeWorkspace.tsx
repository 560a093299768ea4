/**
 * The "Time & failures" workspace (lazy chunk): the topology as of the simulated time with the
 * control plane above it and the virtual clock under it, `kubectl get svc` and the controller
 * choice beside it, then the health lanes, the scheduled changes, what happens, and many
 * connections. The timeline is derived from the store (scenario + time inputs) by the model.
 */
import { useMemo } from 'react';
import { benchmarkSampling, benchmarkSimulate } from '../../model/time';
import type { ControllerKind } from '../../model/time/types';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import { derive } from '../../store/derive';
import { formatTimeEvents } from '../../tutorial/timeLink';
import { Panel } from '../Panel';
import { ErrorBoundary } from '../ErrorBoundary';
import { RadioGroup } from '../controls/RadioGroup';
import { ConnectionsPanel } from './ConnectionsPanel';
import { ControlPlaneStrip } from './ControlPlaneStrip';
import { TimelineContext, useDerived, useSimMs, useTimeline } from './context';
import {
  deriveTimeline,
  entryTimes,
  epochAt,
  healthCheckDefaults,
} from '../../store/timelineDerive';
import { EventLog } from './EventLog';
import { HealthLanes } from './HealthLanes';
import { HealthSettings } from './HealthSettings';
import { KubectlBox } from './KubectlBox';
import { timeScenario } from './openAsTrace';
import { provisioningStages, stageAt } from './provisioning';
import { ScheduleForm } from './ScheduleForm';
import { TimeControls } from './TimeControls';
import { TimeTopology } from './TimeTopology';
import { useTimeClock } from './useTimeClock';
import { useTimeKeys } from './useTimeKeys';
import './timeline.css';

const selectTime = (s: Store) => s.time;
const selectObjects = (s: Store) => timeScenario(s).objects;
const selectScene = (s: Store) => timeScenario(s).scene;
const selectController = (s: Store) => s.time.controller;
const selectSimMsRounded = (s: Store) => Math.round(s.time.simMs);

declare global {
  interface Window {
    /** Installed by the time view's chunk only: the model's benchmark, for scripts/bench-browser.mjs. */
    __lbTimeBench?: (count: number, seed?: number) => ReturnType<typeof benchmarkSampling>;
    /** The same for a whole run (`simulate`), paths traced and every connection settled. */
    __lbTimeBenchSimulate?: (count: number, seed?: number) => ReturnType<typeof benchmarkSimulate>;
  }
}
if (typeof window !== 'undefined') {
  window.__lbTimeBench = (count, seed) => benchmarkSampling(count, () => performance.now(), seed);
  window.__lbTimeBenchSimulate = (count, seed) =>
    benchmarkSimulate(count, () => performance.now(), seed);
}

const CONTROLLERS: { value: ControllerKind; label: string }[] = [
  { value: 'cloud', label: 'cloud (cloud-controller-manager)' },
  { value: 'none', label: 'none (bare metal)' },
  { value: 'metallb-l2', label: 'MetalLB layer 2' },
];

/**
 * The workspace: derives the timeline (memoised), runs the virtual clock and the time view's
 * keys while mounted, and exposes for tests `data-sim-time` / `data-horizon` / `data-state`, and
 * the inputs: `data-controller`, `data-policy`, `data-nodes`, `data-events` (the compact events
 * form), `data-connections`, `data-revision` and, once simulated, the health-check settings in
 * effect (`data-hc-interval`, `data-hc-timeout`, `data-hc-healthy`, `data-hc-unhealthy`).
 * The panels start again from the store when `revision` changes (a tutorial time link).
 */
export default function TimeWorkspace() {
  const store = useAppStoreApi();
  const objects = useAppStore(selectObjects);
  const scene = useAppStore(selectScene);
  const time = useAppStore(selectTime);
  const { controller, healthCheck, events, workload, revision } = time;
  const derived = useMemo(
    () => deriveTimeline(objects, scene, { controller, healthCheck, events, workload }),
    [objects, scene, controller, healthCheck, events, workload],
  );
  const horizon = derived.ok ? derived.timeline.settings.horizonMs : 0;
  const times = useMemo(() => (derived.ok ? entryTimes(derived.timeline) : []), [derived]);
  useTimeClock(store, horizon);
  useTimeKeys(store, times, horizon);
  const simMs = useAppStore(selectSimMsRounded);
  const hc = derived.ok ? derived.timeline.settings.healthCheck : undefined;
  const nodes = useMemo(
    () =>
      objects
        .filter((o) => o.kind === 'Node')
        .map((o) => o.metadata?.name ?? '')
        .join(','),
    [objects],
  );

  return (
    <TimelineContext.Provider value={derived}>
      <main
        className="layout time-layout"
        data-testid="time-view"
        data-sim-time={simMs}
        data-horizon={horizon}
        data-state={derived.ok ? 'ready' : 'error'}
        data-controller={controller}
        data-policy={scene.externalTrafficPolicy}
        data-nodes={nodes}
        data-events={formatTimeEvents(events)}
        data-connections={workload.count}
        data-revision={revision}
        {...(hc
          ? {
              'data-hc-interval': hc.intervalSeconds,
              'data-hc-timeout': hc.timeoutSeconds,
              'data-hc-healthy': hc.healthyThreshold,
              'data-hc-unhealthy': hc.unhealthyThreshold,
            }
          : {})}
        aria-label="Time and failures"
      >
        {derived.ok ? (
          <Workspace key={revision} times={times} />
        ) : (
          <ErrorWorkspace key={revision} error={derived.error} />
        )}
      </main>
    </TimelineContext.Provider>
  );
}

/** Inputs of the time view that do not apply to this scenario, and what the run does instead. */
function Notices() {
  const { notices } = useDerived();
  if (notices.length === 0) return null;
  return (
    <div className="time-notices" role="status" data-testid="time-notices">
      {notices.map((n) => (
        <p key={n}>{n}</p>
      ))}
    </div>
  );
}

/**
 * What stays when the model cannot simulate: the message, and the inputs that may have caused
 * it — the controller, the scheduled changes (each removable) and the health-check settings —
 * so the view is never a dead end.
 */
function ErrorWorkspace({ error }: { error: string }) {
  const store = useAppStoreApi();
  const derived = useDerived();
  const controller = useAppStore(selectController);
  const { objects, scene } = derived.input;
  const defaults = useMemo(() => {
    try {
      return healthCheckDefaults(objects, scene);
    } catch (_) {
      return null;
    }
  }, [objects, scene]);
  return (
    <>
      <section className="stage area-stage time-error" aria-label="Topology over time">
        <p className="model-error" role="alert" data-testid="time-error">
          The model could not simulate this scenario over time: {error}. Change the inputs beside
          and below (remove an event, mend a setting) or pick another controller.
        </p>
      </section>
      <div className="time-side time-area-side">
        <Notices />
        <Panel title="Cloud controller" testId="time-status">
          <RadioGroup
            legend="Who implements type: LoadBalancer"
            name="controller"
            value={controller}
            options={CONTROLLERS}
            onChange={(c) => store.getState().setController(c)}
            note="Changing it starts the run again from t = 0."
          />
        </Panel>
        <Panel title="Failures and changes" testId="time-schedule">
          <ScheduleForm />
        </Panel>
      </div>
      {defaults && (
        <Panel title="Health checks" testId="time-health" className="time-area-lanes">
          <details className="hc-details" open>
            <summary>Health-check settings</summary>
            <HealthSettings defaults={defaults} />
          </details>
        </Panel>
      )}
    </>
  );
}

function Workspace({ times }: { times: readonly number[] }) {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const controller = useAppStore(selectController);
  const horizon = timeline.settings.horizonMs;
  const stages = useMemo(() => provisioningStages(timeline), [timeline]);
  const objects = timeline.base.objects;
  const defaults = useMemo(
    () => healthCheckDefaults(objects, timeline.base.scene),
    [objects, timeline.base.scene],
  );
  const clients = useMemo(() => {
    const d = derive(objects, timeline.base.scene);
    return d.ok ? d.result.cluster.clients.map((c) => c.name) : [];
  }, [objects, timeline.base.scene]);
  return (
    <>
      <section className="stage area-stage" aria-label="Topology over time">
        <div className="stage-controls">
          <ErrorBoundary name="the clock">
            <TimeControls horizonMs={horizon} times={times} />
          </ErrorBoundary>
        </div>
        <div className="stage-drawing">
          <ErrorBoundary name="the topology over time">
            <StageDrawing stages={stages} controller={controller} />
          </ErrorBoundary>
        </div>
      </section>
      <div className="time-side time-area-side">
        <Notices />
        <Panel title="Cloud controller" testId="time-status">
          <RadioGroup
            legend="Who implements type: LoadBalancer"
            name="controller"
            value={controller}
            options={CONTROLLERS}
            onChange={(c) => store.getState().setController(c)}
            note="Changing it starts the run again from t = 0."
          />
        </Panel>
        <Panel title="Failures and changes" testId="time-schedule">
          <ScheduleForm />
        </Panel>
      </div>
      <Panel title="Health checks" testId="time-health" className="time-area-lanes">
        <HealthLanes />
        <details className="hc-details">
          <summary>Health-check settings</summary>
          <HealthSettings defaults={defaults} />
        </details>
      </Panel>
      <Panel title="What happens" testId="time-log" className="time-area-log">
        <EventLog />
      </Panel>
      <Panel title="Many connections" testId="time-many" className="time-area-many">
        <ConnectionsPanel clients={clients} />
      </Panel>
    </>
  );
}

function StageDrawing({
  stages,
  controller,
}: {
  stages: ReturnType<typeof provisioningStages>;
  controller: ControllerKind;
}) {
  const timeline = useTimeline();
  const simMs = useSimMs();
  const current = stageAt(stages, simMs);
  const announcing = epochAt(timeline, simMs)?.state.announcingNode ?? null;
  return (
    <>
      <ControlPlaneStrip
        controller={controller}
        stages={stages}
        current={current}
        announcingNode={announcing}
        simMs={simMs}
      />
      <KubectlBox />
      <TimeTopology stage={current} />
    </>
  );
}
